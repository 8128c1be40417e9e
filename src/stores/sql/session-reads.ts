import type { Event } from '../../contracts/event.js';
import type { GetSessionInput } from '../../contracts/session-store.js';
import { windowEvents } from '../../engine/session/store-rules.js';
import type { StateRecord } from '../../engine/state/state-delta.js';
import { deepFreeze } from '../../engine/util/json-value.js';
import type { SqlExecutor, SqlParam } from './sql-driver.js';
import { CHILD_WHERE, SESSION_WHERE } from './sql-keys.js';
import { mergedState, type SessionKeyParams } from './state-rows.js';

// How a SQL session store reads a session: its head (revision, merged state, and the events a copy lacks) in one
// statement, and a window of its events selected in SQL.

type HeadRow = {
  part: 's' | 'a' | 'u' | 'o' | 'e';
  state_key: string | null;
  value_json: string | null;
  version: number | null;
  update_time: number | null;
};

// The session's row and every state row it sees, in one statement (one snapshot, one round trip).
const READ_HEAD = `SELECT 's' AS part, NULL AS state_key, NULL AS value_json, revision AS version, update_time FROM agentctx_sessions WHERE ${SESSION_WHERE}
  UNION ALL SELECT 'a', state_key, value_json, version, NULL FROM agentctx_app_state WHERE app_name = ?
  UNION ALL SELECT 'u', state_key, value_json, version, NULL FROM agentctx_user_state WHERE app_name = ? AND user_id = ?
  UNION ALL SELECT 'o', state_key, value_json, NULL, NULL FROM agentctx_session_state WHERE ${CHILD_WHERE}`;
// And the events stored after a revision, in the same snapshot: a copy that fell behind catches up in one statement.
const READ_HEAD_AND_EVENTS = `${READ_HEAD}
  UNION ALL SELECT 'e', NULL, event_json, seq, NULL FROM agentctx_events WHERE ${CHILD_WHERE} AND seq > ?`;

export type Head = {
  revision: number;
  updateTime: number;
  state: StateRecord;
  versions: Record<string, number>;
  events: Event[];
};

/**
 * The session's revision, update time and merged state (with its shared keys' versions), and with `after` the events
 * stored after that revision; undefined when there is no such session.
 */
export async function readHead(
  executor: SqlExecutor,
  key: SessionKeyParams,
  after?: number,
): Promise<Head | undefined> {
  const [appName, userId] = key;
  const params = [...key, appName, appName, userId, ...key];
  const rows = await executor.query<HeadRow>(
    after === undefined ? READ_HEAD : READ_HEAD_AND_EVENTS,
    after === undefined ? params : [...params, ...key, after],
  );
  const session = rows.find((row) => row.part === 's');
  if (session === undefined) return undefined;
  const shared = (part: HeadRow['part']) =>
    rows
      .filter((row) => row.part === part)
      .map((row) => ({
        state_key: row.state_key as string,
        value_json: row.value_json as string,
        version: row.version as number,
      }));
  const own = rows
    .filter((row) => row.part === 'o')
    .map((row) => ({ state_key: row.state_key as string, value_json: row.value_json as string }));
  const { state, versions } = mergedState(own, shared('a'), shared('u'));
  const events = rows
    .filter((row) => row.part === 'e')
    .sort((a, b) => Number(a.version) - Number(b.version))
    .map((row) => deepFreeze(JSON.parse(row.value_json as string) as Event));
  return { revision: Number(session.version), updateTime: Number(session.update_time), state, versions, events };
}

/** The window's events, selected in SQL: the last N read backwards along the primary key, never the whole history. */
export async function readEvents(
  tx: SqlExecutor,
  key: SessionKeyParams,
  window: GetSessionInput,
  afterRevision: number | undefined,
): Promise<Event[]> {
  const limit = recentLimit(window.numRecentEvents);
  if (limit === 0) return [];
  const params: SqlParam[] = [...key];
  let sql = `SELECT event_json FROM agentctx_events WHERE ${CHILD_WHERE}`;
  if (afterRevision !== undefined) {
    sql += ' AND seq > ?';
    params.push(afterRevision);
  }
  if (limit !== undefined) {
    sql += ' ORDER BY seq DESC LIMIT ?';
    params.push(limit);
  } else {
    if (window.afterTimestamp !== undefined) {
      sql += ' AND event_time >= ?';
      params.push(window.afterTimestamp);
    }
    sql += ' ORDER BY seq';
  }
  const rows = await tx.query<{ event_json: string }>(sql, params);
  if (limit !== undefined) rows.reverse();
  const events = rows.map((row) => deepFreeze(JSON.parse(row.event_json) as Event));
  // The shared rule decides what is left (the timestamp filter after a limit, odd counts), as in every store.
  return windowEvents(events, window);
}

/** The SQL LIMIT for `numRecentEvents`: 0 for none, `undefined` where `windowEvents` keeps every event (NaN, ∞, 0 < n < 1). */
export function recentLimit(count: number | undefined): number | undefined {
  if (count === undefined) return undefined;
  if (count <= 0) return 0;
  const whole = Math.trunc(count);
  return Number.isFinite(whole) && whole > 0 ? whole : undefined;
}

/** Rows in groups of one key each, groups and rows in the order read. */
export function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [row]);
    else group.push(row);
  }
  return groups;
}
