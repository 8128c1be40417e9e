/**
 * @module agentctx/models
 * Models by name: `resolveModel('openai:gpt-4.1')`, loading only the provider asked for.
 */
export { resolveModel } from './resolve-model.js';
export type { ResolveModelOptions } from './resolve-model.js';
