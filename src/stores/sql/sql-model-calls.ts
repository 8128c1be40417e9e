import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { ModelCallOutcome, ModelCallRecord, ModelCallSummary, NewModelCall } from '../../contracts/model-call.js';
import type { SessionKey } from '../../contracts/session.js';
import type { ModelCallLog } from '../../contracts/model-call-log.js';
import { sessionNotFound } from '../../engine/session/store-rules.js';
import {
  callAlreadyEnded,
  callNotFound,
  checkOutcome,
  outcomeOf,
  storableCall,
  storableOutcome,
} from '../../engine/session/model-call-rules.js';
import { ENVELOPE_DEPTH, findNonJson, MAX_JSON_DEPTH } from '../../engine/util/json-value.js';
import {
  baseOf,
  CALL_FROM,
  CALL_SELECT,
  CALL_WHERE,
  OUTCOME_COLUMNS,
  outcomeParams,
  ownRequest,
  RECORD_COLUMNS,
  recordParams,
  REQUEST_COLUMNS,
  SUMMARY_SELECT,
  toCallRecord,
  toCallSummary,
  WIRE_COLUMNS,
  wireBaseOf,
  type CallRow,
  type RequestRow,
  type SummaryRow,
  type WireRow,
} from './model-call-rows.js';
import { applyBase, RequestDeltas } from './request-deltas.js';
import { applyWireDelta, WireDeltas, type StoredWire } from './wire-deltas.js';
import { mustChange, mustFind } from './checked-statements.js';
import { AfterRollback, RewriteWhole, writeOrRewriteWhole, type Step } from './pipelined.js';
import type { SqlDialect, SqlDriver, SqlExecutor } from './sql-driver.js';
import { CHILD_WHERE, keyParams, SESSION_WHERE } from './sql-keys.js';
import type { SessionKeyParams } from './state-rows.js';

const KEY_COLUMNS = 'app_name, user_id, session_id, call_index';

// Completes a call: one outcome row inserted by its primary key, whatever the size of the request and the length of
// the session. The SELECT reads only the call's key (from the primary-key index, on SQLite), never its request; the
// conflict clause makes the write its own check, writing only where there is no outcome yet, or one recorded `pending`.
const COMPLETE_CALL = `INSERT INTO agentctx_model_call_outcomes (${KEY_COLUMNS}, ${OUTCOME_COLUMNS.join(', ')})
  SELECT ${KEY_COLUMNS}, ${OUTCOME_COLUMNS.map(() => '?').join(', ')} FROM agentctx_model_calls WHERE ${CHILD_WHERE} AND call_index = ?
  ON CONFLICT (${KEY_COLUMNS}) DO UPDATE SET ${OUTCOME_COLUMNS.map((column) => `${column} = excluded.${column}`).join(', ')}
  WHERE agentctx_model_call_outcomes.status = 'pending'`;

// Built once: a statement is found in the driver's cache by its text, which is then the same string every time.
const TAKE_INDEX = `UPDATE agentctx_sessions SET model_call_count = model_call_count + 1 WHERE ${SESSION_WHERE} RETURNING model_call_count`;
// The index just taken, read back in the same transaction: the insert goes out with TAKE_INDEX, not after its answer.
const TAKEN = `(SELECT model_call_count FROM agentctx_sessions WHERE ${SESSION_WHERE})`;
const INSERT_CALL = `INSERT INTO agentctx_model_calls (${KEY_COLUMNS}, ${RECORD_COLUMNS.join(', ')}) VALUES (?, ?, ?, ${TAKEN}, ${RECORD_COLUMNS.map(() => '?').join(', ')})`;
const INSERT_OUTCOME = `INSERT INTO agentctx_model_call_outcomes (${KEY_COLUMNS}, ${OUTCOME_COLUMNS.join(', ')}) VALUES (?, ?, ?, ${TAKEN}, ${OUTCOME_COLUMNS.map(() => '?').join(', ')})`;
const REQUEST_BASE = `SELECT 1 FROM agentctx_model_calls WHERE ${CHILD_WHERE} AND call_index = ? AND call_time = ? AND request_chars = ?`;
const OUTCOME_STATUS = `SELECT o.status AS status FROM ${CALL_FROM} WHERE ${CALL_WHERE} AND c.call_index = ?`;
const WIRE_BASE = `SELECT 1 FROM agentctx_model_call_outcomes WHERE ${CHILD_WHERE} AND call_index = ? AND status <> 'pending' AND wire_hash = ?`;

/** A checked completion of a recorded call, to write in a transaction of its own or of an event's append. */
export type SqlCompletion = {
  /**
   * Issues the completion's statements in `tx` (they go out with whatever else the transaction issues) and returns
   * the steps that judge them; `reader` reads, after a rollback, why the completion was refused.
   */
  write(tx: SqlExecutor, reader: SqlExecutor): Step[];
  /** After a `RewriteWhole`: the wire body is written whole the next time. */
  writeWhole(): void;
  /** Call after the write committed: the wire body becomes a base for later ones. */
  written(): void;
};
export type SqlModelCalls = Pick<
  ModelCallLog,
  'recordModelCall' | 'completeModelCall' | 'listModelCalls' | 'getModelCall' | 'deleteModelCalls'
> & {
  prepareCompletion(key: SessionKey, completion: { index: number; outcome: ModelCallOutcome }): SqlCompletion;
  /** Drops what is kept in memory of a deleted session's calls, so a session made again under its key starts afresh. */
  forget(key: SessionKeyParams): void;
};

/**
 * The model-call methods of the SQL session store. A request or wire body may be stored as a difference from an
 * earlier call's, remembered here per session; every such base is checked against its row before it is used.
 */
export function sqlModelCalls(driver: SqlDriver, ready: () => Promise<unknown>): SqlModelCalls {
  const deltas = new RequestDeltas();
  const wires = new WireDeltas();
  const forget = (key: SessionKeyParams): void => {
    deltas.forget(JSON.stringify(key));
    wires.forget(JSON.stringify(key));
  };

  // Checks an outcome and encodes its wire body; `write` then completes the call inside whatever transaction runs it.
  function prepareCompletion(
    session: SessionKey,
    completion: { index: number; outcome: ModelCallOutcome },
  ): SqlCompletion {
    const { index } = completion;
    checkOutcome(completion.outcome, 'outcome', true);
    const outcome = storableOutcome(completion.outcome);
    const key = keyParams(session);
    const body = outcome.wire?.body ?? '';
    const wire = outcome.wire === undefined ? undefined : wires.encode(JSON.stringify(key), body);
    return {
      write: (tx, reader) => {
        const steps: Step[] = [];
        if (wire?.delta !== undefined) steps.push(wireBaseStep(tx, driver.dialect, key, wire));
        // An outcome is only ever written over a pending one, so what a read after the rollback finds is why nothing was.
        const refused = () =>
          new AfterRollback(async () => {
            const row = (await reader.query<{ status: string | null }>(OUTCOME_STATUS, [...key, index]))[0];
            // No outcome: the call was not there when the write ran (its session was deleted and made again since).
            if (row === undefined || row.status === null) return callNotFound(session.sessionId, index);
            return callAlreadyEnded(session.sessionId, index, row.status);
          });
        steps.push(
          mustChange(tx, driver.dialect, COMPLETE_CALL, [...outcomeParams(outcome, wire), ...key, index], refused),
        );
        return steps;
      },
      writeWhole: () => {
        if (wire !== undefined) writeWireWhole(wire, body);
      },
      written: () => wire?.remember(index),
    };
  }

  return {
    prepareCompletion,

    async recordModelCall(input: SessionKey & { call: NewModelCall }): Promise<number> {
      const key = keyParams(input);
      // Free text in plain columns, as every store keeps it; checked and written from here on.
      const call = storableCall(input.call);
      const sessionKey = JSON.stringify(key);
      const outcome = outcomeOf(call);
      checkOutcome(outcome, 'call', false);
      const stored = deltas.encode(sessionKey, call);
      // Only what is written needs checking: a shared prefix was checked when its call was recorded.
      const problem = findNonJson({ ...call, request: stored.request, provenance: stored.provenance }, 'call', {
        maxDepth: MAX_JSON_DEPTH + ENVELOPE_DEPTH,
      });
      if (problem !== undefined) {
        throw new ValidationError({
          subject: 'model call',
          issues: [{ path: problem.path, message: `cannot be stored as JSON (found ${problem.found})` }],
          hint: 'Requests and provenance must be plain JSON data.',
        });
      }
      const wire = outcome.wire === undefined ? undefined : wires.encode(sessionKey, outcome.wire.body);
      await ready();
      // A reference whose base cannot be checked is not used.
      if (stored.base !== undefined && stored.baseCheck === undefined) Object.assign(stored, deltas.whole(call));
      const write = async () => {
        const [taken] = (await driver.atomic((tx) => {
          // The counter row is also the lock that keeps two recorders from taking the same index; the inserts read
          // the index it took (NULL, and so an error, for a session that is not there).
          const steps: Step[] = [
            {
              result: tx.query<{ model_call_count: number }>(TAKE_INDEX, key),
              check: (rows: { model_call_count: number }[]) => {
                if (rows[0] === undefined) throw sessionNotFound(input.sessionId);
              },
            } as Step,
          ];
          // A base deleted and made again elsewhere since: this call is written again whole.
          if (stored.base !== undefined && stored.baseCheck !== undefined)
            steps.push(requestBaseStep(tx, driver.dialect, key, stored.base.index, stored.baseCheck));
          if (wire?.delta !== undefined) steps.push(wireBaseStep(tx, driver.dialect, key, wire));
          steps.push({ result: tx.run(INSERT_CALL, [...key, ...key, ...recordParams(call, stored)]) });
          // A call recorded after the fact has its outcome row at once; a pending one gets it when it ends (or now, with
          // status pending, to keep the outcome fields it was recorded with until then).
          if (outcome.status !== 'pending' || Object.keys(outcome).length > 1) {
            steps.push({ result: tx.run(INSERT_OUTCOME, [...key, ...key, ...outcomeParams(outcome, wire)]) });
          }
          return steps;
        })) as [{ model_call_count: number }[]];
        return (taken[0] as { model_call_count: number }).model_call_count;
      };
      const index = await writeOrRewriteWhole(write, () => {
        Object.assign(stored, deltas.whole(call));
        if (wire !== undefined) writeWireWhole(wire, outcome.wire?.body ?? '');
      });
      stored.remember(index);
      // Only an ended call's body is a base: a pending row's outcome is still to be written, body included.
      if (outcome.status !== 'pending') wire?.remember(index);
      return index;
    },

    async completeModelCall(input: SessionKey & { index: number; outcome: ModelCallOutcome }): Promise<void> {
      const completion = prepareCompletion(input, input);
      await ready();
      await completeInTransaction(driver, completion);
      completion.written();
    },

    async listModelCalls(input: SessionKey): Promise<ModelCallSummary[]> {
      const key = keyParams(input);
      await ready();
      const rows = await driver.query<SummaryRow>(
        `SELECT ${SUMMARY_SELECT.join(', ')} FROM ${CALL_FROM} WHERE ${CALL_WHERE} ORDER BY c.call_index`,
        key,
      );
      return rows.map(toCallSummary);
    },

    async getModelCall(input: SessionKey & { index: number }): Promise<ModelCallRecord | undefined> {
      const key = keyParams(input);
      await ready();
      return driver.transaction(
        async (tx) => {
          const row = (
            await tx.query<CallRow>(
              `SELECT ${CALL_SELECT.join(', ')} FROM ${CALL_FROM} WHERE ${CALL_WHERE} AND c.call_index = ?`,
              [...key, input.index],
            )
          )[0];
          if (row === undefined) return undefined;
          const request = await rebuildRequest(tx, key, row);
          const wireBody = row.wire_body_json === null ? undefined : await rebuildWireBody(tx, key, row);
          return request === undefined ? undefined : toCallRecord(row, request, wireBody);
        },
        { readOnly: true },
      );
    },

    forget,

    async deleteModelCalls(input: SessionKey): Promise<void> {
      const key = keyParams(input);
      await ready();
      await driver.transaction(async (tx) => {
        for (const table of ['agentctx_model_call_outcomes', 'agentctx_model_calls'])
          await tx.run(`DELETE FROM ${table} WHERE ${CHILD_WHERE}`, key);
        // The next call recorded is number 1 again, as in a session made again under the same key.
        await tx.run(`UPDATE agentctx_sessions SET model_call_count = 0 WHERE ${SESSION_WHERE}`, key);
      });
      forget(key);
    },
  };
}

/** Judges whether the request's base row is still the call it was taken from: if not, the call is written whole. */
function requestBaseStep(
  tx: SqlExecutor,
  dialect: SqlDialect,
  key: SessionKeyParams,
  index: number,
  check: { time: number; chars: number },
): Step {
  return mustFind(tx, dialect, REQUEST_BASE, [...key, index, check.time, check.chars], () => new RewriteWhole());
}

/**
 * Judges whether the wire body's base outcome row still holds the body the difference was taken from (another store
 * may have deleted the session and made it again since) and has ended (only then is its body final); if not, the
 * body is written whole.
 */
function wireBaseStep(tx: SqlExecutor, dialect: SqlDialect, key: SessionKeyParams, wire: StoredWire): Step {
  return mustFind(
    tx,
    dialect,
    WIRE_BASE,
    [...key, wire.delta?.base ?? -1, wire.baseHash ?? ''],
    () => new RewriteWhole(),
  );
}

/** Completes a call in a transaction of its own; a wire difference whose base is gone is written again whole. */
async function completeInTransaction(driver: SqlDriver, completion: SqlCompletion): Promise<void> {
  await writeOrRewriteWhole(() => driver.atomic((tx) => completion.write(tx, driver)), completion.writeWhole);
}

/** A wire body stored whole from now on, not as a difference from another call's. */
function writeWireWhole(wire: StoredWire, body: string): void {
  Object.assign(wire, { text: body, delta: undefined, baseHash: undefined });
}

/** A call's request, with the messages of the calls it continues put back in front. */
export async function rebuildRequest(
  tx: SqlExecutor,
  key: SessionKeyParams,
  row: RequestRow,
): Promise<Pick<ModelCallRecord, 'request' | 'provenance'> | undefined> {
  const chain: RequestRow[] = [row];
  for (let index = baseOf(row)?.index; index !== undefined; ) {
    const base = (
      await tx.query<RequestRow>(
        `SELECT call_index, ${REQUEST_COLUMNS.join(', ')} FROM agentctx_model_calls WHERE ${CHILD_WHERE} AND call_index = ?`,
        [...key, index],
      )
    )[0];
    if (base === undefined) return undefined;
    chain.push(base);
    index = baseOf(base)?.index;
  }
  let whole: Pick<ModelCallRecord, 'request' | 'provenance'> | undefined;
  for (const link of chain.reverse()) {
    const base = baseOf(link);
    const own = ownRequest(link);
    whole = base === undefined || whole === undefined ? own : applyBase(own, base, whole);
  }
  return whole;
}

/** A call's exact wire body: walk back to a body stored whole, then apply each difference forwards. */
export async function rebuildWireBody(
  tx: SqlExecutor,
  key: SessionKeyParams,
  row: WireRow,
): Promise<string | undefined> {
  const chain: WireRow[] = [row];
  const seen = new Set<number>();
  for (let index = wireBaseOf(row)?.base; index !== undefined; ) {
    // Differences only ever refer to bodies written before them; a loop means the rows were edited.
    if (seen.has(index))
      throw new Error(`the wire bodies of model calls refer to each other in a loop (at call ${index})`);
    seen.add(index);
    const base = (
      await tx.query<WireRow>(
        `SELECT ${WIRE_COLUMNS.join(', ')} FROM agentctx_model_call_outcomes WHERE ${CHILD_WHERE} AND call_index = ?`,
        [...key, index],
      )
    )[0];
    if (base === undefined || base.wire_body_json === null) return undefined;
    chain.push(base);
    index = wireBaseOf(base)?.base;
  }
  let body = '';
  for (const link of chain.reverse()) {
    const middle = JSON.parse(link.wire_body_json ?? '""') as string;
    const delta = wireBaseOf(link);
    body = delta === undefined ? middle : applyWireDelta(body, delta, middle);
  }
  return body;
}
