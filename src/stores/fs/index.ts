/**
 * @module agentctx/stores/fs
 * Stores that keep their data as plain files.
 */
export { createFsArtifactStore } from './fs-artifact-store.js';
export type { FsArtifactStoreOptions } from './fs-artifact-store.js';
