import type { Usage } from '../../contracts/event.js';
import type { Model, ModelCallOptions, ModelResponse } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { loadTokenCounter } from '../../engine/tokens/token-counter.js';
import type { AnthropicCacheSetting } from '../../models/anthropic/anthropic-cache-control.js';
import { toUsage } from '../../models/anthropic/from-anthropic-response.js';
import { toAnthropicRequest } from '../../models/anthropic/to-anthropic-request.js';
import { fromGeminiUsage } from '../../models/gemini/from-gemini-response.js';
import { toGeminiRequest } from '../../models/gemini/to-gemini-request.js';
import { fromOpenAIUsage } from '../../models/openai/from-openai-response.js';
import { openAICacheFields, type OpenAIPromptCacheSetting } from '../../models/openai/openai-prompt-cache.js';
import { toOpenAIRequest } from '../../models/openai/to-openai-request.js';
import { fromResponsesUsage } from '../../models/openai/from-responses-response.js';
import { isOpenAIReasoningModel } from '../../models/openai/reasoning-models.js';
import { toResponsesRequest } from '../../models/openai/to-responses-request.js';
import { createAnthropicCacheSimulator } from './anthropic-cache.js';
import { createGeminiImplicitCacheSimulator } from './gemini-implicit-cache.js';
import { createOpenAICacheSimulator } from './openai-cache.js';

/** The providers whose bills can be simulated: each has a cache simulator and an adapter that builds its body. */
export type BilledProvider = 'anthropic' | 'openai' | 'google';

export type SimulatedBillingOptions = {
  /** The provider and model whose bill is simulated; the calls are priced as that model (`agentctx cost`). */
  provider: BilledProvider;
  modelId: string;
  /** Anthropic's cache breakpoints, as the adapter's `promptCache` (default: the adapter's default); `false`: none. */
  anthropic?: AnthropicCacheSetting | false | undefined;
  /** OpenAI's cache key and retention, as the adapter's `promptCache` (default: the adapter's default); `false`: none. */
  openai?: OpenAIPromptCacheSetting | false | undefined;
  /**
   * The OpenAI API whose body is billed: `chat-completions` (the default) or `responses` (the body
   * `createOpenAIResponsesModel` sends, its usage with the answer's thoughts counted as reasoning tokens).
   */
  openaiApi?: 'chat-completions' | 'responses' | undefined;
  /** Tokens of a text; default: the local o200k counter (`loadTokenCounter`), loaded on the first call. */
  countTokens?: ((text: string) => number) | undefined;
  /**
   * The simulated clock the cache's lifetimes are measured on, in ms. Default: a clock that starts at
   * 2026-01-01 and moves `stepMs` (default 5,000: an agent's step) before each call, so a run bills the same every time.
   */
  now?: (() => number) | undefined;
  stepMs?: number | undefined;
};

/** One provider's prompt cache over a run: bills each request as that provider would, in order. */
export type BillingSimulation = {
  readonly billedAs: { provider: BilledProvider; modelId: string };
  /** The usage the provider would bill for this request (the exact body its adapter sends) and this answer. */
  bill(request: LlmRequest, options: ModelCallOptions | undefined, response: ModelResponse): Promise<Usage | undefined>;
  /** Every body billed, in order. */
  readonly bodies: unknown[];
};

const START_MS = Date.UTC(2026, 0, 1);

/**
 * A simulation of one provider's bill: every call's request is turned into the exact body agentctx's adapter for that
 * provider would send (its cache marks and keys included), billed by a simulator of the provider's documented cache
 * rules, and its usage normalized by the adapter's own code. Output tokens are the local count of the answer's parts.
 * Offline and deterministic: nothing is sent.
 */
export function createBillingSimulation(options: SimulatedBillingOptions): BillingSimulation {
  let time = START_MS;
  const stepMs = options.stepMs ?? 5_000;
  const now = options.now ?? (() => time);
  let counting: Promise<(text: string) => number> | undefined;
  const counter = () =>
    (counting ??=
      options.countTokens === undefined
        ? loadTokenCounter().then((loaded) => loaded.count)
        : Promise.resolve(options.countTokens));
  // Each simulator counts through the same counter, once it is loaded (bill awaits it before any simulator runs).
  let count: (text: string) => number = () => 0;
  const countTokens = (text: string) => count(text);
  const anthropic = createAnthropicCacheSimulator({ now, countTokens });
  const openai = createOpenAICacheSimulator({ now, countTokens });
  const google = createGeminiImplicitCacheSimulator({ now, countTokens });
  const { provider, modelId } = options;
  const bodies: unknown[] = [];
  return {
    billedAs: { provider, modelId },
    bodies,
    async bill(request, callOptions, response) {
      count = await counter();
      time += stepMs;
      const output = count(JSON.stringify(response.content?.parts ?? []));
      const stablePrefix = callOptions?.stablePrefix;
      switch (provider) {
        case 'anthropic': {
          const body = toAnthropicRequest(request, { model: modelId, cache: options.anthropic ?? {}, stablePrefix });
          bodies.push(body);
          return toUsage(anthropic.bill(body, { outputTokens: output }));
        }
        case 'openai': {
          if (options.openaiApi === 'responses') {
            const body = {
              ...toResponsesRequest(request, { model: modelId, encryptedReasoning: isOpenAIReasoningModel(modelId) }),
              ...openAICacheFields(options.openai ?? {}, callOptions),
            };
            bodies.push(body);
            const thoughts = (response.content?.parts ?? []).flatMap((part) =>
              'text' in part && part.thought === true ? [part.text] : [],
            );
            const reasoning = thoughts.length === 0 ? 0 : count(thoughts.join(''));
            return fromResponsesUsage(openai.billResponses(body, { outputTokens: output, reasoningTokens: reasoning }));
          }
          const body = {
            ...toOpenAIRequest(request, { model: modelId, maxTokensField: 'max_completion_tokens' }),
            ...openAICacheFields(options.openai ?? {}, callOptions),
          };
          bodies.push(body);
          return fromOpenAIUsage(openai.bill(body, { completionTokens: output }));
        }
        case 'google': {
          const body = toGeminiRequest(request, modelId);
          bodies.push(body);
          return fromGeminiUsage(google.bill(modelId, body, { candidatesTokens: output }));
        }
      }
    },
  };
}

/**
 * The model, answering as before, with the usage `billing` says its provider would bill for each call (streamed calls
 * on their final chunk). It keeps its own provider and id, so a recorded call says which model answered, and names
 * the billed one as `billedAs`, by which `agentctx cost`, the inspector and spans price it.
 *
 * @example
 * const model = withSimulatedBilling(createScriptedModel(script), { provider: 'anthropic', modelId: 'claude-sonnet-4-6' });
 */
export function withSimulatedBilling(model: Model, billing: SimulatedBillingOptions | BillingSimulation): Model {
  const simulation = 'bill' in billing ? billing : createBillingSimulation(billing);
  const billed = async (
    request: LlmRequest,
    options: ModelCallOptions | undefined,
    response: ModelResponse,
  ): Promise<ModelResponse> => {
    const usage = await simulation.bill(request, options, response);
    return usage === undefined ? response : { ...response, usage };
  };
  const wrapped: Model = {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    billedAs: simulation.billedAs,
    // Requests are shaped for the billed provider: it pairs calls by id unless it is Gemini.
    pairsCallsById: simulation.billedAs.provider !== 'google',
    generate: async (request, options) => billed(request, options, await model.generate(request, options)),
  };
  const { stream } = model;
  if (stream !== undefined) {
    wrapped.stream = async function* (request, options) {
      for await (const chunk of stream.call(model, request, options))
        yield chunk.partial === true ? chunk : { ...(await billed(request, options, chunk)), partial: false };
    };
  }
  return wrapped;
}
