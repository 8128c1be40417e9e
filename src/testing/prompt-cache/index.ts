/**
 * Billing simulators for provider prompt caches: each takes a provider's wire request body and returns the usage
 * that provider would bill, keeping cache state across calls. Pure (no HTTP), deterministic given `now`, and with
 * token counts that are a local approximation of each provider's tokenizer (the counter is given: `loadTokenCounter()` from agentctx/tokens gives o200k_base).
 */
export {
  ANTHROPIC_LOOK_BACK_BLOCKS,
  ANTHROPIC_MAX_BREAKPOINTS,
  ANTHROPIC_TTL_MS,
  AnthropicCacheRequestError,
  AnthropicCacheSimulator,
  anthropicBreakpoints,
  createAnthropicCacheSimulator,
  defaultAnthropicMinCacheableTokens,
  splitAnthropicPrompt,
  type AnthropicCacheSimulatorOptions,
  type AnthropicCacheTtl,
  type AnthropicCacheUsage,
  type AnthropicErrorBody,
  type AnthropicPrompt,
  type AnthropicPromptBlock,
} from './anthropic-cache.js';
export {
  OPENAI_RETENTION_MS,
  OpenAICacheSimulator,
  createOpenAICacheSimulator,
  openAICachedTokens,
  splitOpenAIPrompt,
  toOpenAIResponsesUsage,
  type OpenAICacheRetention,
  type OpenAICacheSimulatorOptions,
  type OpenAIChatUsage,
  type OpenAIResponsesUsage,
} from './openai-cache.js';
export {
  GEMINI_IMPLICIT_TTL_MS,
  GeminiImplicitCacheSimulator,
  createGeminiImplicitCacheSimulator,
  defaultGeminiMinCacheableTokens,
  geminiCachedContentName,
  measureGeminiPrompt,
  normalizeGeminiModel,
  splitGeminiPrompt,
  type GeminiImplicitCacheSimulatorOptions,
  type GeminiUsageMetadata,
} from './gemini-implicit-cache.js';
export {
  HOUR_MS,
  MINUTE_MS,
  blockText,
  canonicalJson,
  clearPromptMemo,
  measurePrompt,
  type ChainSalt,
  type MeasuredPrompt,
  type PromptBlock,
  type TokenCounter,
} from './prompt-blocks.js';
