/**
 * @module agentctx/models/anthropic
 * The Anthropic adapter: a `Model` on the Messages API (`@anthropic-ai/sdk`), and the pure conversions to and
 * from its wire format.
 */
export { createAnthropicModel } from './anthropic-model.js';
export type { AnthropicModelSettings } from './anthropic-model.js';
export type { AnthropicCacheSetting } from './anthropic-cache-control.js';
