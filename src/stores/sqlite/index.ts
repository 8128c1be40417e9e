/**
 * @module agentctx/stores/sqlite
 * The session and artifact stores on SQLite (better-sqlite3): one file, safe to share between stores and processes.
 */
export { createSqliteArtifactStore, createSqliteSessionStore, DEFAULT_SQLITE_PATH } from './create-sqlite-store.js';
export type { SqliteArtifactStoreOptions, SqliteSessionStoreOptions } from './create-sqlite-store.js';
export { SCHEMA_VERSION } from '../sql/migrations.js';
export type { MigrationResult } from '../sql/migrations.js';
export type { SqlSessionStore } from '../sql/sql-session-store.js';
export type { SqlArtifactStore } from '../sql/sql-artifact-store.js';
