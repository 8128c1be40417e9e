import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { StoreClock } from '../../contracts/session-store.js';
import { createSqlArtifactStore, type SqlArtifactStore } from '../sql/sql-artifact-store.js';
import { createSqlSessionStore, type SqlSessionStore, type SqlSessionStoreOptions } from '../sql/sql-session-store.js';
import { createBetterSqlite3Driver } from './better-sqlite3-driver.js';

export type SqliteSessionStoreOptions = StoreClock & {
  /** The database file, created with its folder when missing; `':memory:'` for a private in-memory database. */
  path?: string | undefined;
  /** How long to wait for another process's write before failing. Default 5,000 ms. */
  busyTimeoutMs?: number | undefined;
  /** `normal` (default) survives a crash of the process; `full` also a power loss, at an fsync per commit. */
  synchronous?: 'normal' | 'full' | undefined;
  /** How its memory service chooses memories, and an embedder for semantic search (docs/memory.md). */
  memory?: SqlSessionStoreOptions['memory'];
};

/** Where `createSqliteSessionStore` keeps its data when no path is given, relative to the working directory. */
export const DEFAULT_SQLITE_PATH = '.agentctx/agentctx.db';

/**
 * Sessions in one SQLite file. Several stores and processes may share the file: appends are transactions,
 * and an append from a stale copy fails instead of overwriting. The schema is created on first use.
 */
export function createSqliteSessionStore(options: SqliteSessionStoreOptions = {}): SqlSessionStore {
  const path = options.path ?? DEFAULT_SQLITE_PATH;
  if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
  const driver = createBetterSqlite3Driver({
    path,
    busyTimeoutMs: options.busyTimeoutMs,
    synchronous: options.synchronous,
  });
  return createSqlSessionStore(driver, {
    name: 'sqlite',
    ...(options.memory === undefined ? {} : { memory: options.memory }),
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.newId === undefined ? {} : { newId: options.newId }),
  });
}

export type SqliteArtifactStoreOptions = {
  /** The database file, created with its folder when missing; may be the sessions' file. `':memory:'` for a private one. */
  path?: string | undefined;
  /** How long to wait for another process's write before failing. Default 5,000 ms. */
  busyTimeoutMs?: number | undefined;
};

/**
 * Artifacts in a SQLite file (by default the sessions' file): each version a row, saved in one transaction, so
 * a version is visible complete or not at all and concurrent savers never share one.
 */
export function createSqliteArtifactStore(options: SqliteArtifactStoreOptions = {}): SqlArtifactStore {
  const path = options.path ?? DEFAULT_SQLITE_PATH;
  if (path !== ':memory:' && path !== '') mkdirSync(dirname(path), { recursive: true });
  return createSqlArtifactStore(createBetterSqlite3Driver({ path, busyTimeoutMs: options.busyTimeoutMs }), {
    name: 'sqlite',
  });
}
