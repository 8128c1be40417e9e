// A model for the cost benchmark: the scripted model answers, and each call is billed as a provider would bill the
// exact body agentctx's adapter sends for it (the adapters' own request builders, cache marks and keys included),
// by a simulator of that provider's prompt cache (agentctx/testing's `withSimulatedBilling`). The usage is normalized
// by the adapter's own code and recorded with the call, so `agentctx cost` prices it like any real session.
import type { LlmRequest, Model, ModelCallOptions, ModelResponse, Usage } from 'agentctx';
import type { AnthropicCacheSetting } from 'agentctx/models/anthropic';
import type { OpenAIPromptCacheSetting } from 'agentctx/models/openai';
import { createBillingSimulation, withSimulatedBilling } from 'agentctx/testing';
import { loadTokenCounter } from 'agentctx/tokens';

// The local tokenizer, loaded once for every billing (the simulators count with it).
const { count } = await loadTokenCounter();

export type Provider = 'anthropic' | 'openai' | 'google';
export const PROVIDERS: readonly Provider[] = ['anthropic', 'openai', 'google'];

/** The model each provider's bill is priced as: a current mid-range model of each (prices in assets/prices.json). */
export const PRICED_MODEL: Readonly<Record<Provider, string>> = {
  anthropic: 'claude-sonnet-4-6',
  openai: 'gpt-5.1',
  google: 'gemini-2.5-flash',
};

/** Simulated seconds between calls: an agent's step, well inside every cache's lifetime. */
export const SECONDS_PER_CALL = 5;

export type BillingOptions = {
  provider: Provider;
  /** Anthropic breakpoints (default: the adapter's default) or `false` for none, as a peer that marks nothing. */
  anthropic?: AnthropicCacheSetting | false;
  /** OpenAI cache key and retention (default: the adapter's default) or `false`. */
  openai?: OpenAIPromptCacheSetting | false;
};

/**
 * One run's billing: `wrap` puts it around a model; `bill` bills a request made elsewhere (another framework's, caught
 * by its own callback) with the response it got; `bodies` are the bodies billed, in order.
 */
export type Billing = {
  wrap(model: Model): Model;
  bill(request: LlmRequest, options: ModelCallOptions | undefined, response: ModelResponse): Promise<Usage | undefined>;
  bodies: unknown[];
};

/** One provider's cache for one run (agentctx/testing's billing simulation): a fresh simulator and clock, so runs never share cache entries. */
export function createBilling(options: BillingOptions): Billing {
  const simulation = createBillingSimulation({
    provider: options.provider,
    modelId: PRICED_MODEL[options.provider],
    anthropic: options.anthropic,
    openai: options.openai,
    countTokens: count,
    stepMs: SECONDS_PER_CALL * 1000,
  });
  return {
    bodies: simulation.bodies,
    bill: (request, callOptions, response) => simulation.bill(request, callOptions, response),
    wrap: (model) => withSimulatedBilling(model, simulation),
  };
}
