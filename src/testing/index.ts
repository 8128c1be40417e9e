/**
 * @module agentctx/testing
 * Helpers for testing code built on agentctx: in-memory stores, a scripted model that records what it was asked, and
 * simulators that bill a provider's wire body the way its prompt cache does (Anthropic's breakpoints, OpenAI's and
 * Gemini's automatic prefix caches), to see offline what a session would cost.
 * The store contract suites, which need vitest, are in `agentctx/testing/conformance`.
 */
export { createInMemoryArtifactStore } from '../engine/session/in-memory-artifact-store.js';
export { createInMemorySessionStore } from '../engine/session/in-memory-session-store.js';
export { createScriptedModel } from '../models/scripted/scripted-model.js';
export type { ScriptedModel } from '../models/scripted/scripted-model.js';
export type { Script, ScriptedResponse, ScriptRule } from '../models/scripted/script.js';
export {
  AnthropicCacheRequestError,
  AnthropicCacheSimulator,
  createAnthropicCacheSimulator,
  createGeminiImplicitCacheSimulator,
  createOpenAICacheSimulator,
  defaultAnthropicMinCacheableTokens,
  defaultGeminiMinCacheableTokens,
  GeminiImplicitCacheSimulator,
  OpenAICacheSimulator,
} from './prompt-cache/index.js';
export { createBillingSimulation, withSimulatedBilling } from './prompt-cache/simulated-billing.js';
export type { BilledProvider, BillingSimulation, SimulatedBillingOptions } from './prompt-cache/simulated-billing.js';
export type {
  AnthropicCacheSimulatorOptions,
  AnthropicCacheTtl,
  AnthropicCacheUsage,
  GeminiImplicitCacheSimulatorOptions,
  GeminiUsageMetadata,
  OpenAICacheRetention,
  OpenAICacheSimulatorOptions,
  OpenAIChatUsage,
  OpenAIResponsesUsage,
  TokenCounter as PromptTokenCounter,
} from './prompt-cache/index.js';
