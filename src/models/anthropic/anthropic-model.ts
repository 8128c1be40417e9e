import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import { ModelError, isRetryableStatus } from '../../contracts/errors/model-error.js';
import { requireApiKey, type ProviderSettings } from '../shared/credentials.js';
import type { Model, ModelCallOptions, ModelResponse, ModelStreamChunk } from '../../contracts/model.js';
import { withoutSecrets } from '../shared/redact-secrets.js';
import { withRetries, type RetryOptions } from '../shared/retry.js';
import type { LlmRequest } from '../../contracts/request.js';
import { AnthropicStreamAssembler, fromAnthropicResponse } from './from-anthropic-response.js';
import { toAnthropicCountTokensBody, toAnthropicRequest } from './to-anthropic-request.js';

export type AnthropicModelSettings = ProviderSettings & {
  /** The model id, e.g. `claude-sonnet-5-5`. */
  model: string;
  /** Retry settings, or `false` for none (the SDK's own retries are always off). */
  retry?: RetryOptions | false | undefined;
  /** `max_tokens` for requests whose config sets no `maxOutputTokens`; default 4096. */
  maxTokens?: number | undefined;
};

const PROVIDER = 'anthropic';
const DEFAULT_BASE_URL = 'https://api.anthropic.com';
// Given explicitly so the SDK never refuses a large max_tokens without streaming; withRetries times attempts.
const SDK_TIMEOUT_MS = 10 * 60 * 1000;

/**
 * A model on Anthropic's Messages API. The key comes from `apiKey` or `ANTHROPIC_API_KEY`, the address from
 * `baseURL` or `ANTHROPIC_BASE_URL`, both read from `env` (default `process.env`). Calls are retried with
 * `withRetries` unless `retry: false`.
 */
export function createAnthropicModel(settings: AnthropicModelSettings): Model {
  const env = settings.env ?? process.env;
  const apiKey = requireApiKey('Anthropic', settings, ['ANTHROPIC_API_KEY'], env);
  // Always explicit: left undefined, the SDK would read ANTHROPIC_BASE_URL from process.env itself.
  const baseURL = settings.baseURL ?? nonEmpty(env['ANTHROPIC_BASE_URL']) ?? DEFAULT_BASE_URL;
  const client = new Anthropic({ apiKey, baseURL, maxRetries: 0, timeout: SDK_TIMEOUT_MS });
  const modelId = settings.model;
  const mapping = { model: modelId, maxTokens: settings.maxTokens };

  const model: Model = {
    specificationVersion: 'v1',
    provider: PROVIDER,
    modelId,
    pairsCallsById: true,

    async generate(request: LlmRequest, options?: ModelCallOptions): Promise<ModelResponse> {
      const signal = options?.signal;
      try {
        const message = await client.messages.create(toAnthropicRequest(request, mapping), { signal });
        return fromAnthropicResponse(message);
      } catch (error) {
        throw toModelError(error, signal);
      }
    },

    async *stream(request: LlmRequest, options?: ModelCallOptions): AsyncGenerator<ModelStreamChunk> {
      const signal = options?.signal;
      const assembler = new AnthropicStreamAssembler();
      try {
        const events = await client.messages.create({ ...toAnthropicRequest(request, mapping), stream: true }, { signal });
        for await (const event of events) {
          const text = assembler.push(event);
          if (text !== undefined) yield { content: { role: 'model', parts: [{ text }] }, partial: true };
        }
      } catch (error) {
        throw toModelError(error, signal);
      }
      // The SDK ends an aborted stream quietly rather than throwing.
      if (signal?.aborted === true) throw toModelError(signal.reason, signal);
      yield { ...assembler.finish(), partial: false };
    },

    async countTokens(request: LlmRequest, options?: ModelCallOptions): Promise<number> {
      const signal = options?.signal;
      try {
        const count = await client.messages.countTokens(toAnthropicCountTokensBody(request, modelId), { signal });
        return count.input_tokens;
      } catch (error) {
        throw toModelError(error, signal);
      }
    },
  };
  const clean = withoutSecrets(model, [apiKey]);
  return settings.retry === false ? clean : withRetries(clean, settings.retry ?? {});
}

// Stream `error` events name a type but carry no status; these are the ones worth another try.
const RETRYABLE_TYPES: ReadonlySet<string> = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error']);

/** An SDK failure as a ModelError: the provider's own message, whether to retry, and how long it asked to wait. */
function toModelError(error: unknown, signal: AbortSignal | undefined): ModelError {
  if (error instanceof ModelError) return error;
  if (signal?.aborted === true) {
    // withRetries aborts an attempt that ran out of time with a ModelError as the reason.
    if (signal.reason instanceof ModelError) return signal.reason;
    return new ModelError({ provider: PROVIDER, message: 'the call was cancelled', retryable: false, cause: error });
  }
  if (error instanceof APIUserAbortError) return new ModelError({ provider: PROVIDER, message: 'the call was cancelled', retryable: false, cause: error });
  if (error instanceof APIConnectionTimeoutError) return new ModelError({ provider: PROVIDER, message: 'the request timed out', retryable: true, cause: error });
  if (error instanceof APIConnectionError) {
    const reason = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return new ModelError({ provider: PROVIDER, message: `${error.message}${reason}`, retryable: true, cause: error });
  }
  if (error instanceof APIError) {
    // Anthropic's envelope is { type: 'error', error: { type, message } }; the SDK keeps the inner message as apiMessage.
    const message = error.apiMessage ?? error.message;
    const status = error.status;
    if (status === undefined) {
      const type = error.type ?? undefined;
      return new ModelError({ provider: PROVIDER, message: type === undefined ? message : `${type}: ${message}`, retryable: type !== undefined && RETRYABLE_TYPES.has(type), cause: error });
    }
    return new ModelError({
      provider: PROVIDER,
      status,
      message,
      retryable: isRetryableStatus(status),
      retryAfterSeconds: retryAfter(error.headers),
      hint: status === 401 || status === 403 ? 'Check the API key (ANTHROPIC_API_KEY) and its access to this model.' : undefined,
      cause: error,
    });
  }
  return new ModelError({ provider: PROVIDER, message: error instanceof Error ? error.message : String(error), retryable: false, cause: error });
}

/** Retry-After in seconds (a number of seconds or an HTTP date); undefined when absent or unreadable. */
function retryAfter(headers: Headers | undefined): number | undefined {
  const value = headers?.get('retry-after');
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
