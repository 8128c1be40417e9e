import type { SessionKey } from '../../contracts/session.js';
import { rebuildRequest, rebuildWireBody } from './sql-model-calls.js';
import type { WireRow } from './model-call-rows.js';
import type { SqlDriver, SqlExecutor } from './sql-driver.js';
import { CHILD_WHERE, keyParams, SESSION_WHERE } from './sql-keys.js';
import type { SessionKeyParams } from './state-rows.js';
import { hashBody } from './wire-deltas.js';

type CallTexts = {
  call_index: number;
  request_json: string;
  provenance_json: string;
  base_call_index: number | null;
  base_message_count: number | null;
  warnings_json: string | null;
  has_outcome: number | null;
  response_json: string | null;
  wire_json: string | null;
  error_text: string | null;
} & WireRow;

const CALL_TEXTS = `SELECT c.call_index AS call_index, c.request_json AS request_json, c.provenance_json AS provenance_json,
  c.base_call_index AS base_call_index, c.base_message_count AS base_message_count, c.warnings_json AS warnings_json,
  CASE WHEN o.status IS NULL THEN NULL ELSE 1 END AS has_outcome, o.response_json AS response_json,
  o.wire_json AS wire_json, o.error_text AS error_text, o.wire_body_json AS wire_body_json,
  o.wire_base_index AS wire_base_index, o.wire_prefix AS wire_prefix, o.wire_suffix AS wire_suffix
  FROM agentctx_model_calls c LEFT JOIN agentctx_model_call_outcomes o USING (app_name, user_id, session_id, call_index)
  WHERE c.app_name = ? AND c.user_id = ? AND c.session_id = ? ORDER BY c.call_index`;

/**
 * `SessionStore.rewriteText` on SQL, in one transaction. Events, requests and the other JSON columns are rewritten as
 * text (a request stored as a difference holds whole messages, so its rebuilt form follows its base's). A wire body
 * stored as a difference is a character range of its base's, so every body is rebuilt first and one that changed,
 * or whose base was rewritten, is written whole. Each request's size is measured again.
 */
export async function rewriteSessionText(
  driver: SqlDriver,
  input: SessionKey & { replace: (json: string) => string },
  now: number,
): Promise<{ events: number; calls: number }> {
  const key = keyParams(input);
  const { replace } = input;
  return driver.transaction(async (tx) => {
    const found = await tx.query(`SELECT 1 AS found FROM agentctx_sessions WHERE ${SESSION_WHERE}`, key);
    if (found.length === 0) return { events: 0, calls: 0 };
    let events = 0;
    const rows = await tx.query<{ seq: number; event_json: unknown }>(
      `SELECT seq, event_json FROM agentctx_events WHERE ${CHILD_WHERE} ORDER BY seq`,
      key,
    );
    for (const row of rows) {
      const text = asText(row.event_json) as string;
      const rewritten = replace(text);
      if (rewritten === text) continue;
      await tx.run(`UPDATE agentctx_events SET event_json = ? WHERE ${CHILD_WHERE} AND seq = ?`, [
        rewritten,
        ...key,
        row.seq,
      ]);
      events++;
    }
    const calls = await rewriteCalls(tx, key, replace);
    if (events > 0 || calls > 0)
      await tx.run(`UPDATE agentctx_sessions SET update_time = ? WHERE ${SESSION_WHERE}`, [now, ...key]);
    return { events, calls };
  });
}

async function rewriteCalls(
  tx: SqlExecutor,
  key: SessionKeyParams,
  replace: (json: string) => string,
): Promise<number> {
  const rows = await tx.query<CallTexts>(CALL_TEXTS, key);
  // The whole bodies, read before any row changes.
  const bodies = new Map<number, string>();
  for (const row of rows)
    if (row.wire_body_json !== null) {
      const body = await rebuildWireBody(tx, key, row);
      if (body !== undefined) bodies.set(row.call_index, body);
    }
  const changed = new Set<number>();
  const wholeBodies = new Set<number>();
  for (const row of rows) {
    const index = row.call_index;
    const own = {
      request_json: replace(row.request_json),
      provenance_json: replace(row.provenance_json),
      warnings_json: nullable(row.warnings_json, replace),
    };
    if (
      own.request_json !== row.request_json ||
      own.provenance_json !== row.provenance_json ||
      own.warnings_json !== row.warnings_json
    ) {
      await tx.run(
        `UPDATE agentctx_model_calls SET request_json = ?, provenance_json = ?, warnings_json = ? WHERE ${CHILD_WHERE} AND call_index = ?`,
        [own.request_json, own.provenance_json, own.warnings_json, ...key, index],
      );
      changed.add(index);
    }
    if (row.has_outcome === null) continue;
    const body = bodies.get(index);
    const newBody = body === undefined ? undefined : (JSON.parse(replace(JSON.stringify(body))) as string);
    const baseRewritten = row.wire_base_index !== null && wholeBodies.has(row.wire_base_index);
    const outcome = {
      response_json: nullable(row.response_json, replace),
      wire_json: nullable(row.wire_json, replace),
      error_text: row.error_text === null ? null : (JSON.parse(replace(JSON.stringify(row.error_text))) as string),
    };
    const bodyChanged = newBody !== undefined && (newBody !== body || baseRewritten);
    if (bodyChanged) wholeBodies.add(index);
    if (
      !bodyChanged &&
      outcome.response_json === row.response_json &&
      outcome.wire_json === row.wire_json &&
      outcome.error_text === row.error_text
    )
      continue;
    await tx.run(
      `UPDATE agentctx_model_call_outcomes SET response_json = ?, wire_json = ?, error_text = ?${
        bodyChanged
          ? ', wire_body_json = ?, wire_hash = ?, wire_base_index = NULL, wire_prefix = NULL, wire_suffix = NULL'
          : ''
      } WHERE ${CHILD_WHERE} AND call_index = ?`,
      [
        outcome.response_json,
        outcome.wire_json,
        outcome.error_text,
        ...(bodyChanged ? [JSON.stringify(newBody), hashBody(newBody as string)] : []),
        ...key,
        index,
      ],
    );
    changed.add(index);
  }
  // A request's size is its whole JSON's: measured again for every call, since a call stored as a difference grows
  // or shrinks with its base.
  if (changed.size > 0)
    for (const row of await tx.query<CallTexts>(CALL_TEXTS, key)) {
      const whole = await rebuildRequest(tx, key, row);
      if (whole !== undefined)
        await tx.run(`UPDATE agentctx_model_calls SET request_chars = ? WHERE ${CHILD_WHERE} AND call_index = ?`, [
          JSON.stringify(whole.request).length,
          ...key,
          row.call_index,
        ]);
    }
  return changed.size;
}

// PostgreSQL's json columns may come back parsed, by drivers that parse them.
function asText(value: unknown): string | null {
  return value === null || value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value);
}

function nullable(value: string | null, replace: (json: string) => string): string | null {
  return value === null ? null : replace(value);
}
