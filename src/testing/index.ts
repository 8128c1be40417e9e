/**
 * @module agentctx/testing
 * Helpers for testing code built on agentctx: in-memory stores and a scripted model that records what it was asked.
 * The store contract suites, which need vitest, are in `agentctx/testing/conformance`.
 */
export { createInMemoryArtifactStore } from '../engine/session/in-memory-artifact-store.js';
export { createInMemorySessionStore } from '../engine/session/in-memory-session-store.js';
export { createScriptedModel } from '../models/scripted/scripted-model.js';
export type { ScriptedModel } from '../models/scripted/scripted-model.js';
export type { Script, ScriptedResponse, ScriptRule } from '../models/scripted/script.js';
