import type { Session } from '../../contracts/session.js';
import { loadedVersion, staleSharedState } from '../../engine/session/store-rules.js';
import { mergeScopedState, type SplitStateDelta, type StateRecord } from '../../engine/state/state-delta.js';
import { APP_PREFIX, USER_PREFIX } from '../../engine/state/state-keys.js';
import { setOwn } from '../../engine/util/copy-value.js';
import { AfterRollback, type Step } from './pipelined.js';
import { mustChange } from './checked-statements.js';
import type { SqlDialect, SqlExecutor, SqlParam } from './sql-driver.js';

/** One stored state key: its name without the scope prefix, and its value as JSON text. */
export type StateRow = { state_key: string; value_json: string };

/** A shared (`app:` or `user:`) key's row, with the version bumped by every write of it. */
export type SharedStateRow = StateRow & { version: number };

/** A session's key in its tables: app name, user id, session id. */
export type SessionKeyParams = [string, string, string];

// Far below SQLite's limit of 32,766 parameters per statement, and PostgreSQL's 65,535.
const ROWS_PER_STATEMENT = 500;

const CHILD_WHERE = 'app_name = ? AND user_id = ? AND session_id = ?';

type Scope = { table: string; ownerColumns: readonly string[]; prefix: string };
const APP: Scope = { table: 'agentctx_app_state', ownerColumns: ['app_name'], prefix: APP_PREFIX };
const USER: Scope = { table: 'agentctx_user_state', ownerColumns: ['app_name', 'user_id'], prefix: USER_PREFIX };
const SESSION: Scope = {
  table: 'agentctx_session_state',
  ownerColumns: ['app_name', 'user_id', 'session_id'],
  prefix: '',
};

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Writes each key of `values` as its own row (insert or replace), so a writer only ever touches the keys it
 * changes: two writers of different keys both keep their value, whatever the interleaving. Rows go in key
 * order, so two transactions lock shared rows in the same order. `bumpVersion` for the shared tables.
 * The statements are issued at once (pipelined in a transaction); the promise settles when all have run.
 */
export function upsertState(
  tx: SqlExecutor,
  table: string,
  ownerColumns: readonly string[],
  owner: readonly SqlParam[],
  values: StateRecord,
  bumpVersion = false,
): Promise<unknown> {
  const entries = Object.entries(values).sort(([a], [b]) => byCodeUnit(a, b));
  const columns = [...ownerColumns, 'state_key', 'value_json'];
  const row = `(${columns.map(() => '?').join(', ')})`;
  const update = bumpVersion
    ? `value_json = excluded.value_json, version = ${table}.version + 1`
    : 'value_json = excluded.value_json';
  const statements: Promise<unknown>[] = [];
  for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT) {
    const chunk = entries.slice(start, start + ROWS_PER_STATEMENT);
    statements.push(
      tx.run(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => row).join(', ')}
       ON CONFLICT (${[...ownerColumns, 'state_key'].join(', ')}) DO UPDATE SET ${update}`,
        chunk.flatMap(([key, value]) => [...owner, key, JSON.stringify(value)]),
      ),
    );
  }
  return Promise.all(statements);
}

/** A whole delta, written without checks (creating a session): shared keys get their versions bumped. */
export async function writeState(tx: SqlExecutor, key: SessionKeyParams, split: SplitStateDelta): Promise<void> {
  const [appName, userId] = key;
  await Promise.all([
    upsertState(tx, APP.table, APP.ownerColumns, [appName], split.app, true),
    upsertState(tx, USER.table, USER.ownerColumns, [appName, userId], split.user, true),
    upsertState(tx, SESSION.table, SESSION.ownerColumns, key, split.session),
  ]);
}

/**
 * An append's delta: session keys upserted, and each shared key written only if its stored version is still the
 * one `session` saw (compare-and-set: a conditional UPDATE, or an INSERT … DO NOTHING for a key the copy saw
 * absent, whose row count says whether it won; on PostgreSQL the statement checks that itself and raises, see
 * checked-statements.ts). Row locks make this race-free under READ COMMITTED: a concurrent writer of the same key
 * waits, then sees the new version and loses. The statements are issued at once; their steps judge them: the first
 * key that moved on fails the transaction with `ConflictError` (`stale_shared_state`), its version read through
 * `reader` after the rollback. `written` holds the new versions of the shared keys, by prefixed key.
 */
export function writeStateChecked(
  tx: SqlExecutor,
  dialect: SqlDialect,
  reader: SqlExecutor,
  key: SessionKeyParams,
  split: SplitStateDelta,
  session: Session,
): { steps: Step[]; written: Record<string, number> } {
  const [appName, userId] = key;
  const written: Record<string, number> = {};
  const steps: Step[] = [];
  for (const [scope, owner, values] of [
    [APP, [appName], split.app],
    [USER, [appName, userId], split.user],
  ] as const) {
    for (const [stateKey, value] of Object.entries(values).sort(([a], [b]) => byCodeUnit(a, b))) {
      const prefixed = scope.prefix + stateKey;
      const loaded = loadedVersion(session, prefixed);
      const ownerWhere = scope.ownerColumns.map((column) => `${column} = ?`).join(' AND ');
      const refused = () =>
        new AfterRollback(async () => {
          const rows = await reader.query<{ version: number }>(
            `SELECT version FROM ${scope.table} WHERE ${ownerWhere} AND state_key = ?`,
            [...owner, stateKey],
          );
          return staleSharedState(key[2], prefixed, loaded, rows[0]?.version ?? 0);
        });
      steps.push(
        loaded === 0
          ? mustChange(
              tx,
              dialect,
              `INSERT INTO ${scope.table} (${[...scope.ownerColumns, 'state_key', 'value_json', 'version'].join(', ')})
               VALUES (${scope.ownerColumns.map(() => '?').join(', ')}, ?, ?, 1) ON CONFLICT (${[...scope.ownerColumns, 'state_key'].join(', ')}) DO NOTHING`,
              [...owner, stateKey, JSON.stringify(value)],
              refused,
            )
          : mustChange(
              tx,
              dialect,
              `UPDATE ${scope.table} SET value_json = ?, version = version + 1 WHERE ${ownerWhere} AND state_key = ? AND version = ?`,
              [JSON.stringify(value), ...owner, stateKey, loaded],
              refused,
            ),
      );
      written[prefixed] = loaded + 1;
    }
  }
  steps.push({ result: upsertState(tx, SESSION.table, SESSION.ownerColumns, key, split.session) });
  return { steps, written };
}

/** The session's merged state, and the versions of the shared keys in it. */
export async function readMergedState(
  tx: SqlExecutor,
  key: SessionKeyParams,
): Promise<{ state: StateRecord; versions: Record<string, number> }> {
  const [appName, userId] = key;
  const [app, user, own] = await Promise.all([
    tx.query<SharedStateRow>(`SELECT state_key, value_json, version FROM ${APP.table} WHERE app_name = ?`, [appName]),
    tx.query<SharedStateRow>(
      `SELECT state_key, value_json, version FROM ${USER.table} WHERE app_name = ? AND user_id = ?`,
      [appName, userId],
    ),
    tx.query<StateRow>(`SELECT state_key, value_json FROM ${SESSION.table} WHERE ${CHILD_WHERE}`, key),
  ]);
  return mergedState(own, app, user);
}

/** The merged view of rows already read, parsed anew on every call, with the shared keys' versions. */
export function mergedState(
  own: readonly StateRow[],
  app: readonly SharedStateRow[],
  user: readonly SharedStateRow[],
): { state: StateRecord; versions: Record<string, number> } {
  const state = mergeScopedState({ session: readStateRows(own), app: readStateRows(app), user: readStateRows(user) });
  const versions: Record<string, number> = {};
  for (const row of [...app].sort((a, b) => byCodeUnit(a.state_key, b.state_key)))
    versions[APP_PREFIX + row.state_key] = row.version;
  for (const row of [...user].sort((a, b) => byCodeUnit(a.state_key, b.state_key)))
    versions[USER_PREFIX + row.state_key] = row.version;
  return { state, versions };
}

/**
 * The rows as a record, keys sorted by code unit: every dialect and collation gives the same order.
 * Each call parses anew, so callers may change what they get.
 */
export function readStateRows(rows: readonly StateRow[]): StateRecord {
  const sorted = [...rows].sort((a, b) => byCodeUnit(a.state_key, b.state_key));
  const record: StateRecord = {};
  for (const row of sorted) setOwn(record, row.state_key, JSON.parse(row.value_json) as unknown);
  return record;
}
