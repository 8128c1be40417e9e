/**
 * @module agentctx/testing
 * Helpers for testing code built on agentctx: in-memory stores, a scripted model that records what it was asked, and
 * simulators that bill a provider's wire body the way its prompt cache does (Anthropic's breakpoints, OpenAI's and
 * Gemini's automatic prefix caches), to see offline what a session would cost.
 * The store contract suites, which need vitest, are in `agentctx/testing/conformance`.
 */
export {
  AnthropicCacheRequestError,
  createAnthropicCacheSimulator,
  createGeminiImplicitCacheSimulator,
  createOpenAICacheSimulator,
} from './prompt-cache/index.js';
export { createBillingSimulation, withSimulatedBilling } from './prompt-cache/simulated-billing.js';
export type { BilledProvider, BillingSimulation, SimulatedBillingOptions } from './prompt-cache/simulated-billing.js';
