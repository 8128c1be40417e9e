import type { StateRecord } from '../../core/state/state-delta.js';
import type { SqlExecutor, SqlParam } from './sql-driver.js';

/** One stored state key: its name without the scope prefix, and its value as JSON text. */
export type StateRow = { state_key: string; value_json: string };

// Far below SQLite's limit of 32,766 parameters per statement, and PostgreSQL's 65,535.
const ROWS_PER_STATEMENT = 500;

/**
 * Writes each key of `values` as its own row (insert or replace), so a writer only ever touches the keys it
 * changes: two writers of different keys both keep their value, whatever the interleaving.
 */
export async function upsertState(
  tx: SqlExecutor,
  table: string,
  ownerColumns: readonly string[],
  owner: readonly SqlParam[],
  values: StateRecord,
): Promise<void> {
  const entries = Object.entries(values);
  const columns = [...ownerColumns, 'state_key', 'value_json'];
  const row = `(${columns.map(() => '?').join(', ')})`;
  for (let start = 0; start < entries.length; start += ROWS_PER_STATEMENT) {
    const chunk = entries.slice(start, start + ROWS_PER_STATEMENT);
    await tx.run(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${chunk.map(() => row).join(', ')}
       ON CONFLICT (${[...ownerColumns, 'state_key'].join(', ')}) DO UPDATE SET value_json = excluded.value_json`,
      chunk.flatMap(([key, value]) => [...owner, key, JSON.stringify(value)]),
    );
  }
}

/**
 * The rows as a record, keys sorted by code unit: every dialect and collation gives the same order.
 * Each call parses anew, so callers may change what they get.
 */
export function readStateRows(rows: readonly StateRow[]): StateRecord {
  const sorted = [...rows].sort((a, b) => (a.state_key < b.state_key ? -1 : a.state_key > b.state_key ? 1 : 0));
  const record: StateRecord = {};
  for (const row of sorted) record[row.state_key] = JSON.parse(row.value_json) as unknown;
  return record;
}
