/**
 * The port between the SQL session store and a database client. The store writes its SQL once, with `?`
 * placeholders and syntax both SQLite (3.35+) and PostgreSQL accept; a driver adapts the rest
 * (a PostgreSQL driver rewrites `?` to `$1, $2, …` with `numberPlaceholders`).
 */
import type { Step } from './pipelined.js';

/**
 * What a statement parameter may be. Booleans are stored as 0/1 by the caller: SQLite has no boolean type.
 * Bytes go to BLOB (SQLite) or BYTEA (PostgreSQL) columns, which read back as a `Uint8Array` (a Buffer).
 */
export type SqlParam = string | number | null | Uint8Array;

export type SqlDialect = 'sqlite' | 'postgres';

/** Runs statements: the driver itself outside a transaction, the `tx` handed to a transaction callback inside. */
export type SqlExecutor = {
  /** Rows of a statement that returns rows (`SELECT`, or a write with `RETURNING`). */
  query<T>(sql: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** Runs a statement that returns no rows; `changes` is the number of rows it inserted, updated or deleted. */
  run(sql: string, params?: readonly SqlParam[]): Promise<{ changes: number }>;
};

export type TransactionOptions = {
  /**
   * A read-only transaction: a consistent snapshot, without taking the write lock.
   * Writes inside it fail (PostgreSQL) or upgrade the lock (SQLite); do not write in one.
   */
  readOnly?: boolean | undefined;
};

export type SqlDriver = SqlExecutor & {
  readonly dialect: SqlDialect;
  /**
   * Runs `fn` in one transaction: committed when it resolves, rolled back when it throws (the error is rethrown).
   * On SQLite, write transactions take the write lock at once, so the checks `fn` makes still hold when it writes.
   * On PostgreSQL they run at READ COMMITTED: write the SQL so the statement that checks is the one that
   * changes (`UPDATE … WHERE revision = ?`, `INSERT … ON CONFLICT DO NOTHING`) and read the row count.
   * Inside `fn`, use only `tx`: calling the driver itself there waits for the transaction and never runs.
   */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * One write transaction whose statements `issue` sends all at once (synchronously, without awaiting any), then
   * judged in order with `judgeInOrder`: their values, or the first failure, after which nothing is committed.
   * Every refusal must be an error one of the statements raises on PostgreSQL (a constraint, or the statement's own
   * check: see checked-statements.ts), because there BEGIN, the statements and COMMIT leave together, in one round
   * trip. A statement issued after `issue` returned is refused.
   */
  atomic(issue: (tx: SqlExecutor) => readonly Step[]): Promise<unknown[]>;
  /** Waits for the statements already started, then releases the connection; later calls fail. */
  close(): Promise<void>;
};

/**
 * `?` placeholders rewritten as `$1, $2, …` (PostgreSQL's form). A `?` inside a quoted string, a quoted
 * identifier or a comment is left alone.
 */
export function numberPlaceholders(sql: string): string {
  let out = '';
  let count = 0;
  for (let i = 0; i < sql.length; i++) {
    const char = sql[i];
    if (char === "'" || char === '"') {
      const end = sql.indexOf(char, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (char === '-' && sql[i + 1] === '-') {
      const end = sql.indexOf('\n', i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (char === '?') {
      out += `$${++count}`;
    } else {
      out += char;
    }
  }
  return out;
}
