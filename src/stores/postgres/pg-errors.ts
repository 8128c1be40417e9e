import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { UnavailableError, type UnavailableReason } from '../../contracts/errors/unavailable-error.js';
import type { SqlDriver, SqlExecutor, SqlParam, TransactionOptions } from '../sql/sql-driver.js';

/** The pool a driver runs on, as messages about it name it. */
export type PoolLimits = { max: number; waitMs: number };

// SQLSTATEs (PostgreSQL's appendix A) of a server that cannot answer for now. Class 08 is added below.
const BY_SQLSTATE: Readonly<Record<string, UnavailableReason>> = {
  '57P01': 'disconnected', // admin_shutdown: a fast or smart shutdown (a restart) ended the session
  '57P02': 'disconnected', // crash_shutdown: another backend crashed and the server is resetting
  '57P03': 'unreachable', // cannot_connect_now: starting up, shutting down, in recovery
  '57P05': 'disconnected', // idle_session_timeout
  '53300': 'unreachable', // too_many_connections
  '57014': 'timeout', // query_canceled: statement_timeout, or a cancel request
  '55P03': 'timeout', // lock_not_available: lock_timeout
  '08001': 'unreachable', // sqlclient_unable_to_establish_sqlconnection
  '08004': 'unreachable', // sqlserver_rejected_establishment_of_sqlconnection
};

// Node's socket errors: the first group before a connection exists, the second once it did.
const BY_SOCKET_CODE: Readonly<Record<string, UnavailableReason>> = {
  ECONNREFUSED: 'unreachable',
  ENOTFOUND: 'unreachable',
  EAI_AGAIN: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  ENETDOWN: 'unreachable',
  ECONNRESET: 'disconnected',
  ECONNABORTED: 'disconnected',
  EPIPE: 'disconnected',
  ETIMEDOUT: 'disconnected',
};

// pg's own errors have no code, only these messages.
const BY_PG_MESSAGE: readonly (readonly [RegExp, UnavailableReason])[] = [
  [/^timeout exceeded when trying to connect$/, 'pool_exhausted'], // pg-pool: no connection came free in time
  [/^Connection terminated due to connection timeout$/, 'unreachable'], // a new connection took too long
  [/^Connection terminated unexpectedly$|connection error and is not queryable$/, 'disconnected'],
  [/^Query read timeout$/, 'timeout'], // pg's client-side query_timeout
];

// Causes (and the errors of an AggregateError, as Node gives a refused connection to several addresses) are followed
// this deep at most.
const MAX_DEPTH = 4;

/**
 * The error a PostgreSQL store throws for `error`: an {@link UnavailableError} when the server restarted, cannot be
 * reached, has no pooled connection free or canceled a slow statement; anything else as it is (agentctx's own
 * errors, constraint violations, bugs).
 */
export function toStoreError(error: unknown, pool: PoolLimits): unknown {
  if (AgentctxError.isInstance(error)) return error;
  const found = reasonOf(error, 0);
  if (found === undefined) return error;
  return new UnavailableError({
    store: 'postgres',
    reason: found.reason,
    ...describe(found.reason, found.detail, pool),
    cause: error,
  });
}

/** The driver with every failure of its statements and transactions passed through {@link toStoreError}. */
export function withStoreErrors(driver: SqlDriver, pool: PoolLimits): SqlDriver {
  const rethrow = (error: unknown): never => {
    throw toStoreError(error, pool);
  };
  const wrap = (executor: SqlExecutor): SqlExecutor => ({
    query: <T>(sql: string, params?: readonly SqlParam[]) => executor.query<T>(sql, params).catch(rethrow),
    run: (sql: string, params?: readonly SqlParam[]) => executor.run(sql, params).catch(rethrow),
  });
  return {
    ...wrap(driver),
    dialect: driver.dialect,
    // Statements inside see the typed error too, so code that wraps their failures keeps it recognisable.
    transaction: <T>(fn: (tx: SqlExecutor) => Promise<T>, options?: TransactionOptions) =>
      driver.transaction((tx) => fn(wrap(tx)), options).catch(rethrow),
    atomic: (issue) => driver.atomic((tx) => issue(wrap(tx))).catch(rethrow),
    close: () => driver.close(),
  };
}

function reasonOf(error: unknown, depth: number): { reason: UnavailableReason; detail: string } | undefined {
  if (depth > MAX_DEPTH || typeof error !== 'object' || error === null) return undefined;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  const text = typeof message === 'string' ? message : '';
  if (typeof code === 'string') {
    const reason = BY_SQLSTATE[code] ?? (/^08[0-9A-Z]{3}$/.test(code) ? 'disconnected' : undefined);
    if (reason !== undefined) return { reason, detail: `${text} (SQLSTATE ${code})` };
    const socket = BY_SOCKET_CODE[code];
    if (socket !== undefined) return { reason: socket, detail: text || firstMessage(errors) || code };
  }
  for (const [pattern, reason] of BY_PG_MESSAGE) if (pattern.test(text)) return { reason, detail: text };
  return reasonOf(cause, depth + 1) ?? (Array.isArray(errors) ? reasonOf(errors[0], depth + 1) : undefined);
}

function firstMessage(errors: unknown): string {
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  return first instanceof Error ? first.message : '';
}

function describe(reason: UnavailableReason, detail: string, pool: PoolLimits): { message: string; hint: string } {
  switch (reason) {
    case 'unreachable':
      return {
        message: `PostgreSQL cannot be reached: ${detail}.`,
        hint: 'Retry in a moment: agentctx reconnects by itself once the server answers. If it persists, check that the server is running and reachable.',
      };
    case 'disconnected':
      return {
        message: `PostgreSQL closed the connection during this request: ${detail}. The server restarted or stopped, or the network dropped the connection.`,
        hint: 'Retry once the server is back (agentctx reconnects by itself); a write it cut off is stored whole or not at all, so reload the session to see which.',
      };
    case 'pool_exhausted':
      return {
        message: `No PostgreSQL connection came free within ${pool.waitMs} ms: all ${pool.max} of this process's pool were in use.`,
        hint: 'Retry in a moment; if it persists, raise the pool size or the wait (max and connectionTimeoutMillis, in the store URL or pool options), or look for long transactions.',
      };
    case 'timeout':
      return {
        message: `PostgreSQL canceled a statement that ran past its time limit: ${detail}.`,
        hint: 'Retry in a moment; if it persists, look for long transactions holding locks, or raise statement_timeout.',
      };
  }
}
