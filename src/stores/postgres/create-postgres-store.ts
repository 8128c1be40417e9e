import type { StoreClock } from '../../contracts/session-store.js';
import { createSqlArtifactStore, type SqlArtifactStore } from '../sql/sql-artifact-store.js';
import { createSqlSessionStore, type SqlSessionStore, type SqlSessionStoreOptions } from '../sql/sql-session-store.js';
import { createPgDriver, type PgDriverOptions } from './pg-driver.js';

/**
 * Where the PostgreSQL stores connect: a `url` (`postgres://user:password@host:5432/db`), `pool` settings (pool
 * size, timeouts, TLS; host and credentials too when there is no URL), or both; with neither, pg's `PG*`
 * environment variables apply. `schema` puts the tables in a schema of their own, created when missing.
 */
export type PostgresStoreOptions = PgDriverOptions;

export type PostgresSessionStoreOptions = PostgresStoreOptions &
  StoreClock & {
    /** How its memory service chooses memories, and an embedder for semantic search (docs/memory.md). */
    memory?: SqlSessionStoreOptions['memory'];
  };

/**
 * Sessions in PostgreSQL. Any number of processes may share the database: each append is one transaction that
 * bumps the session's revision only if it is still the caller's, and writes a shared `app:`/`user:` key only if its
 * version is still the one the caller's copy saw. The schema is migrated on first use (or by `migrate()`); the
 * pool connects lazily, so this call never fails for an unreachable server: the first operation does.
 */
export function createPostgresSessionStore(options: PostgresSessionStoreOptions = {}): SqlSessionStore {
  const { now, newId, memory, ...connection } = options;
  return createSqlSessionStore(createPgDriver(connection), {
    name: 'postgres',
    ...(memory === undefined ? {} : { memory }),
    ...(now === undefined ? {} : { now }),
    ...(newId === undefined ? {} : { newId }),
  });
}

/** Artifacts in PostgreSQL, one row per version (content as bytea), in the same schema as the sessions. */
export function createPostgresArtifactStore(options: PostgresStoreOptions = {}): SqlArtifactStore {
  return createSqlArtifactStore(createPgDriver(options), { name: 'postgres' });
}
