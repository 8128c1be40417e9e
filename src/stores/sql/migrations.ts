import { UnavailableError } from '../../contracts/errors/unavailable-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { SqlDialect, SqlDriver, SqlExecutor } from './sql-driver.js';
import { memoryScopes, memoryTables } from './memory-schema.js';
import { stateOpFunctions } from './state-op-functions.js';

/** One step of the schema; its position in `MIGRATIONS` (from 1) is the schema version it brings the database to. */
export type Migration = {
  /** Recorded with the version, and checked on every open, so a database from another program is refused. */
  name: string;
  statements: (dialect: SqlDialect) => string[];
};

export type MigrationResult = {
  /** Schema version before and after. */
  from: number;
  to: number;
  /** Names of the migrations this call applied, in order. */
  applied: string[];
};

export type MigrateOptions = {
  /** Seconds since the epoch, recorded with each applied migration. */
  now?: (() => number) | undefined;
  /** The list to apply; defaults to `MIGRATIONS` (tests pass their own). */
  migrations?: readonly Migration[] | undefined;
};

const MIGRATIONS_TABLE = 'agentctx_migrations';

// PostgreSQL's REAL is single precision; timestamps need a double.
const realType = (dialect: SqlDialect): string => (dialect === 'postgres' ? 'DOUBLE PRECISION' : 'REAL');

// JSON columns are TEXT in both dialects: the exact text written is what is read back, key order included
// (PostgreSQL's JSONB would reorder keys, and its drivers would parse values the SQLite path gets as text).
// Version 3 makes some of them PostgreSQL's `json` type, which keeps the text as well.
function initialSchema(dialect: SqlDialect): string[] {
  const real = realType(dialect);
  const session = `FOREIGN KEY (app_name, user_id, session_id) REFERENCES agentctx_sessions (app_name, user_id, id) ON DELETE CASCADE`;
  return [
    `CREATE TABLE agentctx_sessions (
      app_name TEXT NOT NULL,
      user_id TEXT NOT NULL,
      id TEXT NOT NULL,
      revision INTEGER NOT NULL,
      model_call_count INTEGER NOT NULL,
      create_time ${real} NOT NULL,
      update_time ${real} NOT NULL,
      PRIMARY KEY (app_name, user_id, id)
    )`,
    // The primary key is the index that reads a session's last N events backwards without touching the rest.
    `CREATE TABLE agentctx_events (
      app_name TEXT NOT NULL,
      user_id TEXT NOT NULL,
      session_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      event_id TEXT NOT NULL,
      event_time ${real} NOT NULL,
      event_json TEXT NOT NULL,
      PRIMARY KEY (app_name, user_id, session_id, seq),
      UNIQUE (app_name, user_id, session_id, event_id),
      ${session}
    )`,
    `CREATE TABLE agentctx_app_state (
      app_name TEXT NOT NULL,
      state_key TEXT NOT NULL,
      value_json TEXT NOT NULL,
      PRIMARY KEY (app_name, state_key)
    )`,
    `CREATE TABLE agentctx_user_state (
      app_name TEXT NOT NULL,
      user_id TEXT NOT NULL,
      state_key TEXT NOT NULL,
      value_json TEXT NOT NULL,
      PRIMARY KEY (app_name, user_id, state_key)
    )`,
    `CREATE TABLE agentctx_session_state (
      app_name TEXT NOT NULL,
      user_id TEXT NOT NULL,
      session_id TEXT NOT NULL,
      state_key TEXT NOT NULL,
      value_json TEXT NOT NULL,
      PRIMARY KEY (app_name, user_id, session_id, state_key),
      ${session}
    )`,
    `CREATE TABLE agentctx_model_calls (
      app_name TEXT NOT NULL,
      user_id TEXT NOT NULL,
      session_id TEXT NOT NULL,
      call_index INTEGER NOT NULL,
      invocation_id TEXT NOT NULL,
      agent TEXT NOT NULL,
      call_time ${real} NOT NULL,
      edited_by_callback INTEGER NOT NULL,
      response_event_id TEXT,
      usage_json TEXT,
      request_chars INTEGER NOT NULL,
      request_json TEXT NOT NULL,
      provenance_json TEXT NOT NULL,
      base_call_index INTEGER,
      base_message_count INTEGER,
      PRIMARY KEY (app_name, user_id, session_id, call_index),
      ${session}
    )`,
  ];
}

// Version 2. Every write of an `app:` or `user:` key bumps its version; an append writes one only if the version is
// still the one its session copy saw (optimistic concurrency, see state-rows.ts). Rows written before get version 1.
// The second index serves `afterTimestamp` windows without reading a session's whole history.
function sharedStateVersions(): string[] {
  return [
    `ALTER TABLE agentctx_app_state ADD COLUMN version INTEGER NOT NULL DEFAULT 1`,
    `ALTER TABLE agentctx_user_state ADD COLUMN version INTEGER NOT NULL DEFAULT 1`,
    `CREATE INDEX agentctx_events_by_time ON agentctx_events (app_name, user_id, session_id, event_time)`,
  ];
}

// Version 3. On PostgreSQL, event payloads and state values become the `json` type: checked as JSON on the way
// in and usable with the JSON operators, while still kept as the exact text written. Not `jsonb`: it reorders
// object keys (a tool call's arguments would come back in another order than the model wrote them, changing
// later requests), and it refuses strings that JSON allows and sessions hold (`\u0000`, lone surrogates).
// SQLite keeps TEXT.
function jsonColumns(dialect: SqlDialect): string[] {
  if (dialect !== 'postgres') return [];
  const json = (table: string, column: string) =>
    `ALTER TABLE ${table} ALTER COLUMN ${column} TYPE json USING ${column}::json`;
  return [
    json('agentctx_events', 'event_json'),
    json('agentctx_app_state', 'value_json'),
    json('agentctx_user_state', 'value_json'),
    json('agentctx_session_state', 'value_json'),
  ];
}

// Version 4. Artifacts: one row per saved version, content as bytes (text as UTF-8). `session_id` is '' for
// `user:` artifacts, which belong to the user. `agentctx_artifact_names` holds the next version of each name;
// saving upserts it, and that row lock hands concurrent savers distinct versions.
function artifacts(dialect: SqlDialect): string[] {
  const bytes = dialect === 'postgres' ? 'BYTEA' : 'BLOB';
  return [
    `CREATE TABLE agentctx_artifact_names (
      app_name TEXT NOT NULL,
      user_id TEXT NOT NULL,
      session_id TEXT NOT NULL,
      filename TEXT NOT NULL,
      next_version INTEGER NOT NULL,
      PRIMARY KEY (app_name, user_id, session_id, filename)
    )`,
    `CREATE TABLE agentctx_artifacts (
      app_name TEXT NOT NULL,
      user_id TEXT NOT NULL,
      session_id TEXT NOT NULL,
      filename TEXT NOT NULL,
      version INTEGER NOT NULL,
      kind TEXT NOT NULL,
      mime_type TEXT NOT NULL,
      content ${bytes} NOT NULL,
      PRIMARY KEY (app_name, user_id, session_id, filename, version)
    )`,
  ];
}

// Version 5. A call is recorded `pending` before it is sent and completed once it has ended. The request row holds
// only what is written when the call is recorded: the model asked and the parent tool call get columns of their own,
// so SQL can select by them. Everything written when the call ends goes to a row of its own in
// `agentctx_model_call_outcomes`, so completing a call is one small INSERT that never rewrites the request row
// (SQLite and PostgreSQL rewrite a whole row on UPDATE, and a request row holds the request and its provenance).
// A call without an outcome row is `pending`. Calls recorded before were recorded after their answer, so each gets
// an outcome row `answered`; their usage and response event stay where migration 1 put them, which reads fall back
// to. Small columns come first: SQLite reads a row's values in order, through the overflow pages of large ones.
// JSON stays TEXT, as in the rest of these tables. The wire body is a JSON string, whole or as a difference from an
// earlier call's body (wire-deltas.ts); `wire_hash` identifies the whole body, for the check a later difference
// makes of its base.
function modelCallLifecycle(dialect: SqlDialect): string[] {
  const real = realType(dialect);
  const columns = [
    'model_provider TEXT',
    'model_id TEXT',
    'parent_call_index INTEGER',
    'parent_function_call_id TEXT',
    'parent_tool TEXT',
  ];
  const key = 'app_name, user_id, session_id, call_index';
  return [
    ...columns.map((column) => `ALTER TABLE agentctx_model_calls ADD COLUMN ${column}`),
    `CREATE TABLE agentctx_model_call_outcomes (
      app_name TEXT NOT NULL,
      user_id TEXT NOT NULL,
      session_id TEXT NOT NULL,
      call_index INTEGER NOT NULL,
      status TEXT NOT NULL,
      latency_ms ${real},
      first_token_ms ${real},
      usage_json TEXT,
      error_text TEXT,
      response_event_id TEXT,
      wire_hash TEXT,
      wire_base_index INTEGER,
      wire_prefix INTEGER,
      wire_suffix INTEGER,
      wire_json TEXT,
      response_json TEXT,
      wire_body_json TEXT,
      PRIMARY KEY (${key}),
      FOREIGN KEY (${key}) REFERENCES agentctx_model_calls (${key}) ON DELETE CASCADE
    )`,
    `INSERT INTO agentctx_model_call_outcomes (${key}, status) SELECT ${key}, 'answered' FROM agentctx_model_calls`,
  ];
}

// Version 6. On PostgreSQL, `agentctx_check(ok, reason)` raises when `ok` is not true: a write checks itself inside
// its statement (`WITH changed AS (… RETURNING 1) SELECT agentctx_check(EXISTS …)`), so a refused append makes the
// database roll the transaction back, and BEGIN, the statements and COMMIT can leave in one round trip.
function writeChecks(dialect: SqlDialect): string[] {
  if (dialect !== 'postgres') return [];
  return [
    `CREATE OR REPLACE FUNCTION agentctx_check(ok boolean, reason text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION 'agentctx_check: %', reason USING ERRCODE = 'P0001';
  END IF;
  RETURN true;
END $$`,
  ];
}

// Version 7. State operations (`add`, `append`, `setField`, `addToSet`) apply in the statement that writes them, to
// the stored value, so they never conflict: on PostgreSQL through the PL/pgSQL function `agentctx_state_op` (and a
// helper) made here; SQLite runs the same JavaScript as the in-memory store, registered on each connection.
function stateOperations(dialect: SqlDialect): string[] {
  return dialect === 'postgres' ? stateOpFunctions() : [];
}

// Version 8. What assembly warned of for a call (a tool left out, a toolset that could not list its tools), kept with
// the call so `inspect` and the inspector show it: a JSON list of strings, NULL when there was none.
function modelCallWarnings(): string[] {
  return ['ALTER TABLE agentctx_model_calls ADD COLUMN warnings_json TEXT'];
}

// Version 9. What a call was: NULL for a chat call, 'embeddings' for a call of Model.embed.
function modelCallOperation(): string[] {
  return ['ALTER TABLE agentctx_model_calls ADD COLUMN operation TEXT'];
}

// Version 10. The model a call's usage is billed as, when that is another than the one that answered (a scripted
// model whose usage a billing simulator computed): the call is priced as that model. NULL for every other call.
function modelCallBilledAs(): string[] {
  return [
    'ALTER TABLE agentctx_model_calls ADD COLUMN billed_provider TEXT',
    'ALTER TABLE agentctx_model_calls ADD COLUMN billed_model_id TEXT',
  ];
}

/** Every migration, oldest first. Append only: a released entry never changes. */
export const MIGRATIONS: readonly Migration[] = [
  { name: 'initial schema', statements: initialSchema },
  { name: 'shared state versions', statements: sharedStateVersions },
  { name: 'json columns', statements: jsonColumns },
  { name: 'artifacts', statements: artifacts },
  { name: 'model call lifecycle', statements: modelCallLifecycle },
  { name: 'write checks', statements: writeChecks },
  { name: 'state operations', statements: stateOperations },
  { name: 'model call warnings', statements: modelCallWarnings },
  { name: 'model call operation', statements: modelCallOperation },
  { name: 'model call billed as', statements: modelCallBilledAs },
  { name: 'memories', statements: memoryTables },
  { name: 'memory scopes', statements: memoryScopes },
];

/** The schema version this release writes. */
export const SCHEMA_VERSION: number = MIGRATIONS.length;

/**
 * Brings the database to the newest schema, in one transaction: applies the migrations it has not seen, in
 * order, and records each in `agentctx_migrations`. Safe to call again and from several processes at once.
 * Refuses a database whose schema is newer than this release, or whose migration table it did not write.
 */
export async function migrate(driver: SqlDriver, options: MigrateOptions = {}): Promise<MigrationResult> {
  const migrations = options.migrations ?? MIGRATIONS;
  const now = options.now ?? (() => Date.now() / 1000);
  return driver.transaction(async (tx) => {
    // SQLite's write transaction already excludes other writers; PostgreSQL needs a lock for the DDL.
    if (driver.dialect === 'postgres') await tx.query(`SELECT pg_advisory_xact_lock(7412059361)`);
    await tx.run(
      `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE} (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at ${realType(driver.dialect)} NOT NULL)`,
    );
    const from = await readVersion(tx, migrations);
    const applied: string[] = [];
    for (let version = from + 1; version <= migrations.length; version++) {
      const migration = migrations[version - 1] as Migration;
      for (const statement of migration.statements(driver.dialect)) await tx.run(statement);
      await tx.run(`INSERT INTO ${MIGRATIONS_TABLE} (version, name, applied_at) VALUES (?, ?, ?)`, [
        version,
        migration.name,
        now(),
      ]);
      applied.push(migration.name);
    }
    return { from, to: migrations.length, applied };
  });
}

/** The schema version recorded in the database, after checking the table is one agentctx wrote. */
async function readVersion(tx: SqlExecutor, migrations: readonly Migration[]): Promise<number> {
  let rows: { version: unknown; name: unknown }[];
  try {
    rows = await tx.query<{ version: unknown; name: unknown }>(
      `SELECT version, name FROM ${MIGRATIONS_TABLE} ORDER BY version`,
    );
  } catch (error) {
    // A server that went away is not a foreign table: keep its error, which says to retry.
    if (UnavailableError.isInstance(error)) throw error;
    throw schemaError(`cannot be read (${error instanceof Error ? error.message : String(error)})`, error);
  }
  const newest = rows.reduce(
    (max, row) => (typeof row.version === 'number' && row.version > max ? row.version : max),
    0,
  );
  if (newest > migrations.length) {
    throw new ValidationError({
      subject: 'database schema',
      code: 'unsupported_version',
      issues: [
        {
          path: MIGRATIONS_TABLE,
          message: `version ${newest} is newer than this release of agentctx, which knows versions up to ${migrations.length}`,
        },
      ],
      hint: 'Upgrade agentctx to open this database, or point the store at another file.',
    });
  }
  rows.forEach((row, position) => {
    const expected = migrations[position];
    if (row.version !== position + 1 || expected === undefined) {
      throw schemaError(`has version ${JSON.stringify(row.version)} where version ${position + 1} was expected`);
    }
    if (row.name !== expected.name) {
      throw schemaError(
        `names version ${position + 1} ${JSON.stringify(row.name)}, but this release knows it as ${JSON.stringify(expected.name)}`,
      );
    }
  });
  return rows.length;
}

function schemaError(problem: string, cause?: unknown): ValidationError {
  return new ValidationError({
    subject: 'database schema',
    issues: [{ path: MIGRATIONS_TABLE, message: problem }],
    hint: 'This database was not written by agentctx, or its migration table was edited; restore a backup or point the store at another file.',
    cause,
  });
}

/**
 * Migrations run once, on first use: `ready()` waits for them (a failed attempt is forgotten, so a later call tries
 * again: the database may have been busy); `migrate()` runs them now, as `agentctx migrate` does.
 */
export function lazyMigrations(driver: SqlDriver): {
  ready(): Promise<MigrationResult>;
  migrate(): Promise<MigrationResult>;
} {
  let migrated: Promise<MigrationResult> | undefined;
  return {
    ready() {
      migrated ??= migrate(driver).catch((error: unknown) => {
        migrated = undefined;
        throw error;
      });
      return migrated;
    },
    async migrate() {
      const result = await migrate(driver);
      migrated = Promise.resolve(result);
      return result;
    },
  };
}
