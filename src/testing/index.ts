/**
 * @module agentctx/testing
 * Helpers for testing code built on agentctx. The store contract suites, which need vitest, are in `agentctx/testing/conformance`.
 */
export { createInMemoryArtifactStore } from '../core/session/in-memory-artifact-store.js';
export { createInMemorySessionStore } from '../core/session/in-memory-session-store.js';
