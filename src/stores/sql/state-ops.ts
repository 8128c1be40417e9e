import type { Session } from '../../contracts/session.js';
import type { StateOp } from '../../contracts/state-op.js';
import {
  jsonTypeOf,
  stateOpError,
  tryStateOp,
  type JsonTypeName,
  type StateOpFailure,
} from '../../engine/state/apply-state-op.js';
import type { SplitStateDelta, StateRecord } from '../../engine/state/state-delta.js';
import { APP_PREFIX, USER_PREFIX } from '../../engine/state/state-keys.js';
import { setOwn } from '../../engine/util/copy-value.js';
import type { Step } from './pipelined.js';
import type { SqlDialect, SqlExecutor } from './sql-driver.js';
import { STATE_OP_SQLSTATE } from './state-op-functions.js';
import { writeStateChecked, type SessionKeyParams } from './state-rows.js';

/** The name of the SQL function every statement below calls: PL/pgSQL on PostgreSQL, `sqliteStateOp` on SQLite. */
export const STATE_OP_FUNCTION = 'agentctx_state_op';

type Scope = { ownerCount: number; sql: string; versioned: boolean };

// One upsert per operation: the function runs on the stored value (NULL when there is none) inside the statement
// that writes it, so no writer ever works from a stale copy and none is ever refused. Shared keys' versions go up,
// so a read-modify-write `set` from a copy that saw the old version still fails as stale.
function upsert(table: string, owner: readonly string[], versioned: boolean): Scope {
  const columns = [...owner, 'state_key', 'value_json', ...(versioned ? ['version'] : [])];
  const values = [...owner.map(() => '?'), '?', `${STATE_OP_FUNCTION}(NULL, ?, ?)`, ...(versioned ? ['1'] : [])];
  const bump = versioned ? `, version = ${table}.version + 1` : '';
  return {
    ownerCount: owner.length,
    versioned,
    sql: `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${values.join(', ')})
       ON CONFLICT (${[...owner, 'state_key'].join(', ')}) DO UPDATE SET value_json = ${STATE_OP_FUNCTION}(${table}.value_json, ?, ?)${bump}
       RETURNING value_json${versioned ? ', version' : ''}`,
  };
}

const APP = upsert('agentctx_app_state', ['app_name'], true);
const USER = upsert('agentctx_user_state', ['app_name', 'user_id'], true);
const SESSION = upsert('agentctx_session_state', ['app_name', 'user_id', 'session_id'], false);

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * An append's state: its delta (shared keys compared-and-set, as `writeStateChecked` does) and then its operations,
 * each applied to the stored value by the statement that writes it. Shared keys are written in one order, the one
 * `writeStateChecked` uses (prefixed key order), whether set or operated on, so two appends never lock the same rows
 * in opposite orders (PostgreSQL would abort one as a deadlock). The statements are issued at once; their steps fill
 * `versions` (the new versions of the shared keys written) and `values` (what the operations left, by prefixed key)
 * as they are judged. An operation that cannot apply fails its statement: `ValidationError`.
 */
export function writeStateChanges(
  tx: SqlExecutor,
  dialect: SqlDialect,
  reader: SqlExecutor,
  key: SessionKeyParams,
  split: SplitStateDelta,
  ops: readonly StateOp[],
  session: Session,
): { steps: Step[]; versions: Record<string, number>; values: StateRecord } {
  if (ops.length === 0) {
    const { steps, written } = writeStateChecked(tx, dialect, reader, key, split, session);
    return { steps, versions: written, values: {} };
  }
  const byKey = new Map<string, StateOp[]>();
  for (const op of ops) byKey.set(op.key, [...(byKey.get(op.key) ?? []), op]);
  const shared = new Set([
    ...Object.keys(split.app).map((name) => APP_PREFIX + name),
    ...Object.keys(split.user).map((name) => USER_PREFIX + name),
  ]);
  for (const op of ops) if (op.key.startsWith(APP_PREFIX) || op.key.startsWith(USER_PREFIX)) shared.add(op.key);
  const versions: Record<string, number> = {};
  const values: StateRecord = {};
  const steps: Step[] = [];
  const none = { app: {}, user: {}, session: {} };
  const checked = (delta: SplitStateDelta) => {
    const { steps: written, written: newVersions } = writeStateChecked(tx, dialect, reader, key, delta, session);
    steps.push(...written);
    Object.assign(versions, newVersions);
  };
  for (const prefixed of [...shared].sort(byCodeUnit)) {
    const app = prefixed.startsWith(APP_PREFIX);
    const name = prefixed.slice((app ? APP_PREFIX : USER_PREFIX).length);
    const scoped = app ? split.app : split.user;
    if (Object.hasOwn(scoped, name))
      checked(app ? { ...none, app: { [name]: scoped[name] } } : { ...none, user: { [name]: scoped[name] } });
    for (const op of byKey.get(prefixed) ?? [])
      steps.push(stateOpStep(tx, key, app ? APP : USER, name, op, versions, values));
  }
  checked({ ...none, session: split.session });
  for (const op of ops)
    if (!shared.has(op.key)) steps.push(stateOpStep(tx, key, SESSION, op.key, op, versions, values));
  return { steps, versions, values };
}

function stateOpStep(
  tx: SqlExecutor,
  key: SessionKeyParams,
  scope: Scope,
  name: string,
  op: StateOp,
  versions: Record<string, number>,
  values: StateRecord,
): Step {
  const argument = stateOpArgument(op);
  return {
    result: tx.query<{ value_json: string; version?: number }>(scope.sql, [
      ...key.slice(0, scope.ownerCount),
      name,
      op.op,
      argument,
      op.op,
      argument,
    ]),
    check: (rows) => {
      const row = (rows as { value_json: string; version?: number }[])[0] as { value_json: string; version?: number };
      setOwn(values, op.key, JSON.parse(row.value_json) as unknown);
      if (scope.versioned) versions[op.key] = Number(row.version);
    },
    refused: (error) => stateOpFailureOf(error, op),
  };
}

/** The SQL function's argument: `by`, `items`, or `[field, value]`, as JSON text. */
export function stateOpArgument(op: StateOp): string {
  return JSON.stringify(op.op === 'add' ? op.by : op.op === 'setField' ? [op.field, op.value] : op.items);
}

/** Thrown out of the SQLite function, through better-sqlite3, for the store to name the key. */
class StateOpFailed extends Error {
  readonly failure: StateOpFailure;
  constructor(failure: StateOpFailure) {
    super(`agentctx_state_op: ${failure.problem} ${failure.found}`);
    this.failure = failure;
  }
}

/**
 * `agentctx_state_op` on SQLite: `applyStateOp` itself, on the stored JSON text (null when there is none).
 * better-sqlite3 calls it for each row the statement writes (`db.function(STATE_OP_FUNCTION, …)`).
 */
export function sqliteStateOp(current: string | null, name: string, argument: string): string {
  const given = JSON.parse(argument) as unknown;
  const op = (
    name === 'add'
      ? { op: name, key: '', by: given }
      : name === 'setField'
        ? { op: name, key: '', field: (given as unknown[])[0], value: (given as unknown[])[1] }
        : { op: name, key: '', items: given }
  ) as StateOp;
  const result = tryStateOp(current === null ? undefined : JSON.parse(current), op);
  if ('failure' in result) throw new StateOpFailed(result.failure);
  return JSON.stringify(result.value);
}

const TYPES: readonly string[] = ['object', 'array', 'string', 'number', 'boolean', 'null'] satisfies JsonTypeName[];

/** The `ValidationError` for a failure either database reported, or undefined for any other error. */
function stateOpFailureOf(error: unknown, op: StateOp): Error | undefined {
  if (error instanceof StateOpFailed) return stateOpError(op.key, op.op, error.failure);
  const reported = error as { code?: unknown; message?: unknown; detail?: unknown };
  if (reported === null || typeof reported !== 'object' || reported.code !== STATE_OP_SQLSTATE) return undefined;
  const found =
    typeof reported.detail === 'string' && TYPES.includes(reported.detail)
      ? (reported.detail as JsonTypeName)
      : jsonTypeOf(undefined);
  const problem = String(reported.message).includes('not_finite') ? 'not_finite' : 'wrong_type';
  return stateOpError(op.key, op.op, { problem, found });
}
