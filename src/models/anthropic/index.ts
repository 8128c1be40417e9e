/**
 * @module agentctx/models/anthropic
 * The Anthropic adapter: a `Model` on the Messages API (`@anthropic-ai/sdk`), and the pure conversions to and
 * from its wire format.
 */
export { createAnthropicModel } from './anthropic-model.js';
export type { AnthropicModelSettings } from './anthropic-model.js';
export { DEFAULT_MAX_TOKENS, toAnthropicCountTokensBody, toAnthropicMessages, toAnthropicRequest } from './to-anthropic-request.js';
export type { AnthropicBlock, AnthropicCountTokensBody, AnthropicImageType, AnthropicMessage, AnthropicRequestBody, AnthropicSystemBlock, AnthropicTool, CacheControl } from './anthropic-wire.js';
export type { ToAnthropicOptions } from './to-anthropic-request.js';
export type { AnthropicCacheSetting } from './anthropic-cache-control.js';
export { AnthropicStreamAssembler, fromAnthropicResponse, toUsage } from './from-anthropic-response.js';
export type { AnthropicResponse, AnthropicResponseBlock, AnthropicStreamEvent, AnthropicUsage } from './from-anthropic-response.js';
