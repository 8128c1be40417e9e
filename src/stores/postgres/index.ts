/**
 * @module agentctx/stores/postgres
 * The session and artifact stores on PostgreSQL (node-postgres): safe to share between processes and hosts.
 */
export { createPostgresArtifactStore, createPostgresSessionStore } from './create-postgres-store.js';
export type { PostgresSessionStoreOptions, PostgresStoreOptions } from './create-postgres-store.js';
export type { PgDriverOptions, PostgresPoolOptions } from './pg-driver.js';
export { SCHEMA_VERSION } from '../sql/migrations.js';
export type { MigrationResult } from '../sql/migrations.js';
export type { SqlSessionStore } from '../sql/sql-session-store.js';
export type { SqlArtifactStore } from '../sql/sql-artifact-store.js';
