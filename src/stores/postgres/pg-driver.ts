import type { CustomTypesConfig, Pool, PoolClient, PoolConfig, types as PgTypes } from 'pg';
import { UsageError } from '../../contracts/errors/usage-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { optionalPackage } from '../../engine/util/optional-package.js';
import type { Step } from '../sql/pipelined.js';
import { batchedStatements } from './batched-statements.js';
import {
  numberPlaceholders,
  type SqlDriver,
  type SqlExecutor,
  type SqlParam,
  type TransactionOptions,
} from '../sql/sql-driver.js';
import { withStoreErrors } from './pg-errors.js';
import { poolOptionsFromUrl } from './pg-url-options.js';

/**
 * Settings of the pool, as `pg` takes them. With a `url` too, what the URL says wins (pg's rule, extended to `max` and
 * `connectionTimeoutMillis` in its query): use these for the rest.
 */
export type PostgresPoolOptions = {
  host?: string | undefined;
  port?: number | undefined;
  user?: string | undefined;
  password?: string | undefined;
  database?: string | undefined;
  /** Connections kept at most. Default 10. */
  max?: number | undefined;
  /** How long an unused connection stays open. Default 10,000 ms. */
  idleTimeoutMillis?: number | undefined;
  /** How long connecting may take before failing. Default here 10,000 ms (pg's own default waits forever). */
  connectionTimeoutMillis?: number | undefined;
  /** TLS: `true`, or Node's `tls.connect` options. */
  ssl?: boolean | Record<string, unknown> | undefined;
  /** Server-side limit per statement, in ms. */
  statement_timeout?: number | undefined;
  application_name?: string | undefined;
};

export type PgDriverOptions = {
  /** `postgres://user:password@host:port/database`; its parts win over the same `pool` settings. */
  url?: string | undefined;
  pool?: PostgresPoolOptions | undefined;
  /**
   * The schema that holds agentctx's tables, created when missing; lower-case letters, digits and `_`.
   * Default: the server's `search_path` (usually `public`).
   */
  schema?: string | undefined;
};

const JSON_OID = 114;
const JSONB_OID = 3802;
// JSON columns come back as their text, which the store parses itself, exactly as it does on SQLite.
const typeParsers = (types: typeof PgTypes) => ({
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === JSON_OID || oid === JSONB_OID
      ? (value: string) => value
      : types.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
});

// What the driver takes from pg, which is an optional package: `npm install agentctx` brings SQLite only.
type Pg = { Pool: typeof Pool; types: typeof PgTypes };
const loadPg = optionalPackage(
  { packages: ['pg'], purpose: 'A PostgreSQL store' },
  async (): Promise<Pg> => (await import('pg')).default,
);

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const NAMED_STATEMENTS = 256;

/**
 * A `SqlDriver` on a `pg` pool. Statements outside a transaction and atomic writes go out in batches (one connection,
 * one socket write for what is issued at the same moment, batched-statements.ts); a transaction holds
 * one connection from BEGIN to COMMIT, and its statements are pipelined: those `fn` issues before awaiting any of
 * them go out together. Write transactions run at READ COMMITTED (the store's SQL checks and writes
 * in one statement); read-only ones at REPEATABLE READ, so every statement of one sees the same snapshot.
 */
export function createPgDriver(options: PgDriverOptions): SqlDriver {
  const schema = options.schema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new ValidationError({
      subject: 'PostgreSQL store options',
      issues: [
        {
          path: 'schema',
          message: `${JSON.stringify(schema)} must be lower-case letters, digits and _, not starting with a digit`,
        },
      ],
    });
  }
  const config = poolConfig(options);
  // Made by the first operation, which loads pg: creating a store never fails, not even without the driver.
  let pool: Pool | undefined;
  let closed = false;
  let prepared: Promise<Pool> | undefined;

  // Each distinct statement text gets a name once, so every connection parses and plans it once and then only binds
  // values (pg prepares a named statement on first use per connection). Texts past the cap run unnamed: a state delta
  // of a new size makes a new text, and names must not grow without bound.
  const statements = new Map<string, { text: string; name: string | undefined }>();
  const statementFor = (sql: string): { text: string; name: string | undefined } => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = {
        text: numberPlaceholders(sql),
        name: statements.size < NAMED_STATEMENTS ? `agentctx_${statements.size}` : undefined,
      };
      statements.set(sql, statement);
    }
    return statement;
  };
  const closedError = () =>
    new UsageError('The PostgreSQL store is closed.', 'Open a new store; close() is the last call a store accepts.');
  const open = (): Promise<Pool> => {
    if (closed) return Promise.reject(closedError());
    // The pool and the schema are made once per driver, before the first statement; a failure is retried on the next call.
    prepared ??= loadPg()
      .then(async (pg) => {
        if (closed) throw closedError();
        pool ??= newPool(pg, config);
        if (schema !== undefined) await createSchema(pool, schema);
        return pool;
      })
      .catch((error: unknown) => {
        prepared = undefined;
        throw error;
      });
    return prepared;
  };
  const connectedPool = (): Pool => {
    if (pool === undefined) throw new Error('the pool is made by open(), which every operation awaits first');
    return pool;
  };
  const send = (target: PoolClient, sql: string, params: readonly SqlParam[]) => {
    const { text, name } = statementFor(sql);
    return target.query(
      name === undefined ? { text, values: params.map(toPgParam) } : { name, text, values: params.map(toPgParam) },
    );
  };
  const executor = (target: PoolClient, guard: () => void = () => {}): SqlExecutor => ({
    async query<T>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
      guard();
      return (await send(target, sql, params)).rows as T[];
    },
    async run(sql: string, params: readonly SqlParam[] = []): Promise<{ changes: number }> {
      guard();
      return { changes: (await send(target, sql, params)).rowCount ?? 0 };
    },
  });
  const socketOf = (client: PoolClient) =>
    (client as PoolClient & { connection?: { stream?: { cork?: () => void; uncork?: () => void } } }).connection
      ?.stream;
  // Lone statements and atomic writes issued at the same moment share a connection and a socket write.
  const batched = batchedStatements({ connect: () => connectedPool().connect() }, executor, socketOf);

  // A server that restarted, cannot be reached, has no connection free or timed out: a typed, retryable error.
  return withStoreErrors(
    {
      dialect: 'postgres',

      async query<T>(sql: string, params?: readonly SqlParam[]): Promise<T[]> {
        await open();
        return batched.one((executor) => executor.query<T>(sql, params));
      },

      async run(sql: string, params?: readonly SqlParam[]): Promise<{ changes: number }> {
        await open();
        return batched.one((executor) => executor.run(sql, params));
      },

      async transaction<T>(
        fn: (tx: SqlExecutor) => Promise<T>,
        transactionOptions: TransactionOptions = {},
      ): Promise<T> {
        const client = await (await open()).connect();
        let ended = false;
        let broken: Error | undefined;
        const tx = executor(client, () => {
          if (ended)
            throw new UsageError(
              'A transaction handle was used after its transaction ended.',
              'Use tx only inside the transaction callback.',
            );
        });
        // Pipelined: BEGIN goes out with the statements `fn` issues without awaiting each other (one round trip for
        // them all); its own failure surfaces when it is awaited, before COMMIT.
        // Corked until `fn` has issued what it issues at once, so they leave in one write: on loopback each socket
        // write costs about as much as PostgreSQL's work for the statement.
        const socket = socketOf(client);
        socket?.cork?.();
        let begun: Promise<unknown>;
        let pending: Promise<T>;
        try {
          begun = client.query(
            transactionOptions.readOnly === true ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN',
          );
          pending = fn(tx);
        } finally {
          socket?.uncork?.();
        }
        begun.catch(() => {});
        try {
          const result = await pending;
          await begun;
          await client.query('COMMIT');
          return result;
        } catch (error) {
          // Harmless when the transaction already ended (a failed COMMIT); a connection that cannot roll back is discarded.
          await client.query('ROLLBACK').catch((rollbackError: unknown) => {
            broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
          });
          throw error;
        } finally {
          ended = true;
          client.release(broken);
        }
      },

      async atomic(issue: (tx: SqlExecutor) => readonly Step[]): Promise<unknown[]> {
        await open();
        return batched.atomic(issue);
      },

      async close(): Promise<void> {
        if (closed) return;
        closed = true;
        // Waits for connections still in use to be released, then closes them all.
        await pool?.end();
      },
    },
    { max: config.max ?? 10, waitMs: config.connectionTimeoutMillis ?? 0 },
  );
}

function poolConfig(options: PgDriverOptions): PoolConfig {
  const { pool = {}, url, schema } = options;
  const config: PoolConfig = {
    connectionTimeoutMillis: 10_000,
    application_name: 'agentctx',
    ...(url === undefined ? {} : { connectionString: url }),
    ...definedOnly(pool),
    ...poolOptionsFromUrl(url),
    // Statements sent one after another without waiting for each answer: a transaction's statements cost one round trip.
    pipeline: true,
  };
  // Every connection starts with the schema first on its search path, before any statement runs.
  if (schema !== undefined) config.options = `-c search_path=${schema}`;
  return config;
}

function newPool(pg: Pg, config: PoolConfig): Pool {
  const pool = new pg.Pool({ ...config, types: typeParsers(pg.types) });
  // An idle connection that breaks (a server restart) is dropped by the pool; without a listener it would crash the process.
  pool.on('error', () => {});
  // So is one that breaks while checked out (mid-transaction): its statement fails with the error, and the pool
  // discards it on release (it is no longer queryable), but the client emits 'error' too.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

async function createSchema(pool: Pool, schema: string): Promise<void> {
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  } catch (error) {
    // Two processes creating it at once: one of them sees a duplicate, which is what it wanted.
    const code = (error as { code?: unknown }).code;
    if (code !== '23505' && code !== '42P06') throw error;
  }
}

function definedOnly(record: PostgresPoolOptions): PoolConfig {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as PoolConfig;
}

/** pg sends a Buffer as bytea; a plain Uint8Array is viewed as one, without copying. */
function toPgParam(param: SqlParam): SqlParam {
  return param instanceof Uint8Array && !Buffer.isBuffer(param)
    ? Buffer.from(param.buffer, param.byteOffset, param.byteLength)
    : param;
}
