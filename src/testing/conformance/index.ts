/**
 * @module agentctx/testing/conformance
 * Contract suites every store implementation must pass; they run under vitest.
 */
export { testArtifactStore } from './artifact-store-suite.js';
export type { ArtifactStoreSuiteOptions } from './artifact-store-suite.js';
export { testSessionStore } from './session-store-suite.js';
export type { SessionStoreSuiteOptions } from './session-store-suite.js';
export type { TwinStore } from './twin-store.js';
export { testModelCallLog } from './model-call-log-suite.js';
export type { ModelCallLogSuiteOptions } from './model-call-log-suite.js';
export type { TwinLog } from './model-call-cases.js';
export { testMemoryService } from './memory-service-suite.js';
export type { MemoryServiceSuiteOptions } from './memory-service-suite.js';
