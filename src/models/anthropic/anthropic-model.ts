import type Anthropic from '@anthropic-ai/sdk';
import { optionalPackage } from '../../engine/util/optional-package.js';
import type { Model, ModelCallOptions, ModelResponse, ModelStreamChunk } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { requireApiKey } from '../shared/credentials.js';
import { withoutSecrets } from '../shared/redact-secrets.js';
import { withRetrySetting, type RetryOptions } from '../shared/retry.js';
import { baseURLFrom, type ProviderSettings } from '../shared/settings.js';
import { toModelError, type ModelErrorContext, type ProviderFailure } from '../shared/to-model-error.js';
import { messageWithCause } from '../shared/transport-errors.js';
import { tapWire, type WireTap } from '../shared/wire-tap.js';
import type { AnthropicCacheSetting } from './anthropic-cache-control.js';
import type { AnthropicRequestBody } from './anthropic-wire.js';
import { AnthropicStreamAssembler, fromAnthropicResponse } from './from-anthropic-response.js';
import { toAnthropicCountTokensBody, toAnthropicRequest } from './to-anthropic-request.js';

export type AnthropicModelSettings = ProviderSettings & {
  /** The model id, e.g. `claude-sonnet-5-5`. */
  model: string;
  /** Retry settings, or `false` for none (the SDK's own retries are always off). */
  retry?: RetryOptions | false | undefined;
  /** `max_tokens` for requests whose config sets no `maxOutputTokens`; default 4096. */
  maxTokens?: number | undefined;
  /**
   * Prompt caching: breakpoints where each request's stable prefix ends (the default), the top-level automatic form,
   * the entries' lifetime, or `false` for none. A prefix sent again within the lifetime is billed at 0.1× the input
   * price, after one write at 1.25× (5 minutes) or 2× (1 hour).
   */
  promptCache?: AnthropicCacheSetting | false | undefined;
};

const PROVIDER = 'anthropic';
const DEFAULT_BASE_URL = 'https://api.anthropic.com';
// Given explicitly so the SDK never refuses a large max_tokens without streaming; withRetries times attempts.
const SDK_TIMEOUT_MS = 10 * 60 * 1000;
const loadSdk = optionalPackage(
  { packages: ['@anthropic-ai/sdk'], purpose: 'An Anthropic model' },
  () => import('@anthropic-ai/sdk'),
);
type AnthropicSdk = typeof import('@anthropic-ai/sdk');

/**
 * A model on Anthropic's Messages API. The key comes from `apiKey` or `ANTHROPIC_API_KEY`, the address from
 * `baseURL` or `ANTHROPIC_BASE_URL`, both read from `env` (default `process.env`). Calls are retried with
 * `withRetries` unless `retry: false`.
 */
export function createAnthropicModel(settings: AnthropicModelSettings): Model {
  const apiKey = requireApiKey('Anthropic', settings, ['ANTHROPIC_API_KEY']);
  const baseURL = baseURLFrom(settings, 'ANTHROPIC_BASE_URL', DEFAULT_BASE_URL);
  // The SDK loads with the first call (it is an optional package), and the client is made once.
  let loaded: Promise<{ sdk: AnthropicSdk; client: Anthropic }> | undefined;
  const connect = () =>
    (loaded ??= loadSdk()
      .then((sdk) => ({ sdk, client: new sdk.Anthropic({ apiKey, baseURL, maxRetries: 0, timeout: SDK_TIMEOUT_MS }) }))
      .catch((error: unknown) => {
        loaded = undefined;
        throw error;
      }));
  const modelId = settings.model;
  const cache = settings.promptCache ?? {};
  const mapping = (options: ModelCallOptions | undefined) => ({
    model: modelId,
    maxTokens: settings.maxTokens,
    cache,
    stablePrefix: options?.stablePrefix,
  });
  const tap = (options: ModelCallOptions | undefined) => tapWire(options?.wire, { secrets: [apiKey] });
  // A call with an observer sends through a copy of the client whose fetch is that call's tap: the SDK takes a
  // fetch per client only, and a copy per call keeps concurrent calls' observers apart. (Per-request middleware
  // would see the request before the SDK's last touches, and changes how the SDK treats errors.)
  const clientFor = (client: Anthropic, wire: WireTap | undefined) =>
    wire === undefined ? client : client.withOptions({ fetch: wire.fetch });

  const model: Model = {
    specificationVersion: 'v1',
    provider: PROVIDER,
    modelId,
    pairsCallsById: true,
    loadsDeferredTools: true,

    async generate(request: LlmRequest, options?: ModelCallOptions): Promise<ModelResponse> {
      const signal = options?.signal;
      // Mapped outside the call's error handling: a request the adapter refuses fails with its own error, unsent.
      const body = sdkBody(toAnthropicRequest(request, mapping(options)));
      const { sdk, client } = await connect();
      const wire = tap(options);
      let usage: unknown;
      try {
        const message = await clientFor(client, wire).messages.create(body, { signal });
        usage = message.usage;
        return fromAnthropicResponse(message);
      } catch (error) {
        throw toModelError(error, errorContext(sdk, signal));
      } finally {
        wire?.answered(usage);
      }
    },

    async *stream(request: LlmRequest, options?: ModelCallOptions): AsyncGenerator<ModelStreamChunk> {
      const signal = options?.signal;
      const assembler = new AnthropicStreamAssembler();
      const body = sdkBody(toAnthropicRequest(request, mapping(options)));
      const { sdk, client } = await connect();
      const wire = tap(options);
      try {
        const events = await clientFor(client, wire).messages.create({ ...body, stream: true }, { signal });
        for await (const event of events) {
          const text = assembler.push(event);
          if (text !== undefined) yield { content: { role: 'model', parts: [{ text }] }, partial: true };
        }
      } catch (error) {
        throw toModelError(error, errorContext(sdk, signal));
      } finally {
        wire?.answered(assembler.usage());
      }
      // The SDK ends an aborted stream quietly rather than throwing.
      if (signal?.aborted === true) throw toModelError(signal.reason, errorContext(sdk, signal));
      yield { ...assembler.finish(), partial: false };
    },

    async countTokens(request: LlmRequest, options?: ModelCallOptions): Promise<number> {
      const signal = options?.signal;
      const { sdk, client } = await connect();
      try {
        const count = await client.messages.countTokens(
          toAnthropicCountTokensBody(request, modelId) as Anthropic.MessageCountTokensParams,
          { signal },
        );
        return count.input_tokens;
      } catch (error) {
        throw toModelError(error, errorContext(sdk, signal));
      }
    },
  };
  return withRetrySetting(withoutSecrets(model, [apiKey]), settings.retry);
}

// Stream `error` events name a type but carry no status; these are the ones worth another try.
const RETRYABLE_TYPES: ReadonlySet<string> = new Set([
  'overloaded_error',
  'api_error',
  'rate_limit_error',
  'timeout_error',
]);

function errorContext(sdk: AnthropicSdk, signal: AbortSignal | undefined): ModelErrorContext {
  return {
    provider: PROVIDER,
    signal,
    classify: (error) => readSdkError(sdk, error),
    connectionFailure: (error) => ({ message: messageWithCause(error) }),
  };
}

/** The SDK's own errors: the provider's message, whether to retry, and the key hint. */
function readSdkError(sdk: AnthropicSdk, error: unknown): ProviderFailure | 'cancelled' | 'connection' | undefined {
  if (error instanceof sdk.APIUserAbortError) return 'cancelled';
  if (error instanceof sdk.APIConnectionTimeoutError) return { message: 'the request timed out', retryable: true };
  if (error instanceof sdk.APIConnectionError) return 'connection';
  if (!(error instanceof sdk.APIError)) return undefined;
  // Anthropic's envelope is { type: 'error', error: { type, message } }; the SDK keeps the inner message as apiMessage.
  const message = error.apiMessage ?? error.message;
  const status = error.status;
  if (status === undefined) {
    const type = error.type ?? undefined;
    return {
      message: type === undefined ? message : `${type}: ${message}`,
      retryable: type !== undefined && RETRYABLE_TYPES.has(type),
    };
  }
  return {
    status,
    message,
    headers: error.headers,
    hint:
      status === 401 || status === 403
        ? 'Check the API key (ANTHROPIC_API_KEY) and its access to this model.'
        : undefined,
  };
}

/**
 * The body as the SDK types it. Our wire types are the JSON the API takes; a server tool's settings are open (any
 * tool the API has, by its `type`), where the SDK lists the tools it knows, hence the casts (here and on a count).
 */
function sdkBody(body: AnthropicRequestBody): Anthropic.MessageCreateParamsNonStreaming {
  return body as Anthropic.MessageCreateParamsNonStreaming;
}
