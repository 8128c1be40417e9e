import Database from 'better-sqlite3';
import { UsageError } from '../../contracts/errors/usage-error.js';
import { judgeInOrder, type Step } from '../sql/pipelined.js';
import type { SqlDriver, SqlExecutor, SqlParam, TransactionOptions } from '../sql/sql-driver.js';
import { sqliteStateOp, STATE_OP_FUNCTION } from '../sql/state-ops.js';
import { acquireFileLock } from './serial-lock.js';

export type BetterSqlite3DriverOptions = {
  /** A file path, or `':memory:'` for a private database that disappears on close. */
  path: string;
  /** How long a statement waits for another process's write lock before failing. Default 5,000 ms. */
  busyTimeoutMs?: number | undefined;
  /**
   * `normal` (default): in WAL mode a commit survives a crash of the process; a power loss may drop the
   * last commits. `full`: every commit is flushed to disk first, at the cost of an fsync per append.
   */
  synchronous?: 'normal' | 'full' | undefined;
};

type Statement = Database.Statement<unknown[], unknown>;

// Enough for every distinct statement the store writes; an unbounded cache would grow with state deltas of new sizes.
const STATEMENT_CACHE_SIZE = 256;

/**
 * A `SqlDriver` on better-sqlite3: one connection, WAL journal, busy timeout, foreign keys on.
 * better-sqlite3 is synchronous while the port is async, so every statement and transaction runs behind a lock:
 * a transaction that awaits between its statements cannot have another caller's statement land inside it.
 */
export function createBetterSqlite3Driver(options: BetterSqlite3DriverOptions): SqlDriver {
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  // `timeout` is SQLite's busy_timeout, set before the first statement (the WAL switch may already wait).
  const db = new Database(options.path, { timeout: Math.max(0, Math.trunc(busyTimeoutMs)) });
  const { lock, release } = acquireFileLock(options.path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    // State operations run in the statements that write them, with the in-memory store's own JavaScript.
    db.function(STATE_OP_FUNCTION, { deterministic: true }, sqliteStateOp);
  } catch (error) {
    release();
    db.close();
    throw error;
  }
  let closed = false;
  const statements = new Map<string, Statement>();

  const prepare = (sql: string): Statement => {
    if (closed)
      throw new UsageError(
        'The SQLite session store is closed.',
        'Open a new store; close() is the last call a store accepts.',
      );
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare<unknown[], unknown>(sql);
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value as string);
      statements.set(sql, statement);
    }
    return statement;
  };
  const direct: SqlExecutor = {
    async query<T>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
      return prepare(sql).all(...params.map(toBindable)) as T[];
    },
    async run(sql: string, params: readonly SqlParam[] = []): Promise<{ changes: number }> {
      return { changes: prepare(sql).run(...params.map(toBindable)).changes };
    },
  };

  const driver: SqlDriver = {
    dialect: 'sqlite',

    query<T>(sql: string, params?: readonly SqlParam[]): Promise<T[]> {
      return lock.run(() => direct.query<T>(sql, params));
    },

    run(sql: string, params?: readonly SqlParam[]): Promise<{ changes: number }> {
      return lock.run(() => direct.run(sql, params));
    },

    transaction<T>(fn: (tx: SqlExecutor) => Promise<T>, transactionOptions: TransactionOptions = {}): Promise<T> {
      return lock.run(async () => {
        // IMMEDIATE takes the write lock now, so what the transaction reads cannot change before it writes;
        // a read-only one stays deferred and reads one snapshot.
        prepare(transactionOptions.readOnly === true ? 'BEGIN' : 'BEGIN IMMEDIATE').run();
        let open = true;
        const guarded = (): void => {
          if (!open)
            throw new UsageError(
              'A transaction handle was used after its transaction ended.',
              'Use tx only inside the transaction callback.',
            );
        };
        const tx: SqlExecutor = {
          query: async (sql, params) => (guarded(), direct.query(sql, params)),
          run: async (sql, params) => (guarded(), direct.run(sql, params)),
        };
        try {
          const result = await fn(tx);
          prepare('COMMIT').run();
          return result;
        } catch (error) {
          // SQLite may already have rolled back by itself (after some I/O errors).
          if (db.inTransaction) prepare('ROLLBACK').run();
          throw error;
        } finally {
          open = false;
        }
      });
    },

    // In-process, statements cost no round trip: the statements run as they are issued, then are judged before COMMIT.
    atomic(issue: (tx: SqlExecutor) => readonly Step[]): Promise<unknown[]> {
      return driver.transaction(async (tx) => judgeInOrder(issue(tx)));
    },

    close(): Promise<void> {
      return lock.run(() => {
        if (closed) return;
        closed = true;
        statements.clear();
        db.close();
        release();
      });
    },
  };
  return driver;
}

/** better-sqlite3 binds bytes only as a Buffer; a plain Uint8Array is viewed as one, without copying. */
function toBindable(param: SqlParam): SqlParam {
  return param instanceof Uint8Array && !Buffer.isBuffer(param)
    ? Buffer.from(param.buffer, param.byteOffset, param.byteLength)
    : param;
}
