import type { APIError, OpenAI } from 'openai';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { optionalPackage } from '../../engine/util/optional-package.js';
import type {
  EmbedOptions,
  EmbedResponse,
  Model,
  ModelCallOptions,
  ModelResponse,
  ModelStreamChunk,
  WireObserver,
} from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { requireApiKey, usableKey } from '../shared/credentials.js';
import { withoutSecrets } from '../shared/redact-secrets.js';
import { withRetrySetting, type RetryOptions } from '../shared/retry.js';
import { baseURLFrom, environmentOf, nonEmpty, type Environment, type ProviderSettings } from '../shared/settings.js';
import { ModelError } from '../../contracts/errors/model-error.js';
import { toModelError, type ModelErrorContext, type ProviderFailure } from '../shared/to-model-error.js';
import { rootMessage } from '../shared/transport-errors.js';
import { tapWire, type WireTap } from '../shared/wire-tap.js';
import { createStreamAssembler, fromOpenAICompletion } from './from-openai-response.js';
import { checkOpenAIPromptCache, openAICacheFields, type OpenAIPromptCacheSetting } from './openai-prompt-cache.js';
import { toOpenAIRequest, type OpenAIRequestOptions } from './to-openai-request.js';

export type OpenAIModelSettings = ProviderSettings & {
  /** The model id sent with every call (`gpt-4.1`, `llama3.2`…). */
  model: string;
  /** agentctx's retries with backoff (the SDK's own are off); `false` for none. */
  retry?: RetryOptions | false | undefined;
  /** A fetch to use instead of the global one (proxies, instrumentation). */
  fetch?: typeof globalThis.fetch | undefined;
  /**
   * Prompt caching: the `prompt_cache_key` (default: one per app and agent) and `prompt_cache_retention`, or `false`
   * to send neither. OpenAI-compatible servers get them only when set, since not every server takes them.
   */
  promptCache?: OpenAIPromptCacheSetting | false | undefined;
};

export type OpenAICompatibleModelSettings = OpenAIModelSettings & {
  /** The server's OpenAI-style base URL, e.g. `http://127.0.0.1:11434/v1` for Ollama. */
  baseURL: string;
};

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
const loadSdk = optionalPackage({ packages: ['openai'], purpose: 'An OpenAI model' }, () => import('openai'));
type OpenAISdk = typeof import('openai');
// Local servers ignore the key, but the SDK will not run without one.
const PLACEHOLDER_KEY = 'not-needed';

/**
 * An OpenAI model through Chat Completions. The key comes from `apiKey` or `OPENAI_API_KEY`, the address from
 * `baseURL`, `OPENAI_BASE_URL` or OpenAI's own; variables are read from `env` when given, else `process.env`.
 */
export function createOpenAIModel(settings: OpenAIModelSettings): Model {
  return withRetrySetting(
    chatCompletionsModel({
      ...openAIClientConfig(settings),
      maxTokensField: 'max_completion_tokens',
      promptCache: settings.promptCache ?? {},
    }),
    settings.retry,
  );
}

/**
 * A model on a server that speaks OpenAI's Chat Completions (Ollama, llama.cpp server, vLLM, LM Studio…). The key
 * is optional: `apiKey`, `OPENAI_COMPATIBLE_API_KEY`, or a placeholder. The output limit is sent as `max_tokens`,
 * the name these servers know.
 */
export function createOpenAICompatibleModel(settings: OpenAICompatibleModelSettings): Model {
  const env = environmentOf(settings);
  const baseURL = nonEmpty(settings.baseURL);
  if (baseURL === undefined) {
    throw new AgentctxError({
      code: 'usage',
      message: 'An OpenAI-compatible model needs the base URL of its server.',
      hint: 'Pass baseURL, e.g. http://127.0.0.1:11434/v1 for Ollama.',
    });
  }
  return withRetrySetting(
    chatCompletionsModel({
      provider: 'openai-compatible',
      modelId: requireModelId(settings.model, 'the OpenAI-compatible server'),
      apiKey: compatibleKey(settings, env),
      baseURL,
      maxTokensField: 'max_tokens',
      organization: null,
      project: null,
      fetch: settings.fetch,
      promptCache: settings.promptCache ?? false,
    }),
    settings.retry,
  );
}

/** What one OpenAI client is made from: whose it is, the model it calls, the credentials and the address. */
export type OpenAIClientConfig = {
  provider: 'openai' | 'openai-compatible';
  modelId: string;
  apiKey: string;
  baseURL: string;
  organization: string | null;
  project: string | null;
  fetch: typeof globalThis.fetch | undefined;
};

type ClientConfig = OpenAIClientConfig &
  Pick<OpenAIRequestOptions, 'maxTokensField'> & { promptCache: OpenAIPromptCacheSetting | false };

/** The SDK's client, named for the other adapters of this folder: this file alone imports the SDK. */
export type OpenAIClient = OpenAI;

/**
 * One client for all of a model's calls, shared by the Chat Completions and the Responses adapters. The SDK loads
 * with the first call (it is an optional package) and the client is made once.
 */
export type OpenAIConnection = {
  /** The call's tap on the wire, when it has an observer. */
  tap(options: { wire?: WireObserver | undefined } | undefined): WireTap | undefined;
  /**
   * The client to send one call through: a copy whose fetch is that call's tap when it has one (the SDK takes a
   * fetch per client only, and a copy per call keeps concurrent calls' observers apart).
   */
  client(wire: WireTap | undefined): Promise<OpenAI>;
  /** Any failure of a call made through the client, as a ModelError in the provider's words. */
  failure(error: unknown, signal: AbortSignal | undefined): ModelError;
};

/** The OpenAI account settings and environment read: key, address, organization and project. */
export function openAIClientConfig(settings: OpenAIModelSettings): OpenAIClientConfig {
  const env = environmentOf(settings);
  return {
    provider: 'openai',
    modelId: requireModelId(settings.model, 'OpenAI'),
    apiKey: requireApiKey('OpenAI', settings, ['OPENAI_API_KEY'], env),
    baseURL: baseURLFrom(settings, 'OPENAI_BASE_URL', OPENAI_BASE_URL),
    organization: nonEmpty(env['OPENAI_ORG_ID']) ?? null,
    project: nonEmpty(env['OPENAI_PROJECT_ID']) ?? null,
    fetch: settings.fetch,
  };
}

/** The connection of one model (see `OpenAIConnection`). */
export function openAIConnection(config: OpenAIClientConfig): OpenAIConnection {
  // The SDK, once loaded: its error classes tell its failures apart.
  let sdk: OpenAISdk | undefined;
  let loaded: Promise<OpenAI> | undefined;
  const connect = () =>
    (loaded ??= loadSdk()
      .then((module) => {
        sdk = module;
        return newClient(module, config);
      })
      .catch((error: unknown) => {
        loaded = undefined;
        throw error;
      }));
  return {
    tap: (options) => tapWire(options?.wire, { fetch: config.fetch, secrets: [config.apiKey] }),
    async client(wire) {
      const client = await connect();
      return wire === undefined ? client : client.withOptions({ fetch: wire.fetch });
    },
    failure: (error, signal) =>
      toModelError(
        error,
        sdk === undefined ? { provider: config.provider, signal } : errorContext(sdk, config, signal),
      ),
  };
}

function chatCompletionsModel(config: ClientConfig): Model {
  checkOpenAIPromptCache(config.promptCache);
  const connection = openAIConnection(config);
  const body = (request: LlmRequest, options: ModelCallOptions | undefined) => ({
    ...toOpenAIRequest(request, { model: config.modelId, maxTokensField: config.maxTokensField }),
    ...openAICacheFields(config.promptCache, options),
  });
  return withoutSecrets(
    {
      specificationVersion: 'v1',
      provider: config.provider,
      modelId: config.modelId,
      pairsCallsById: true,
      async generate(request: LlmRequest, options?: ModelCallOptions): Promise<ModelResponse> {
        const signal = options?.signal;
        // Mapped outside the call's error handling: a request the adapter refuses fails with its own error, unsent.
        const sent = body(request, options);
        const wire = connection.tap(options);
        const client = await connection.client(wire);
        let usage: unknown;
        try {
          const completion = await client.chat.completions.create(sent, { signal });
          usage = completion.usage;
          return fromOpenAICompletion(completion);
        } catch (error) {
          throw connection.failure(error, signal);
        } finally {
          wire?.answered(usage);
        }
      },
      async *stream(request: LlmRequest, options?: ModelCallOptions): AsyncGenerator<ModelStreamChunk> {
        const signal = options?.signal;
        const assembler = createStreamAssembler();
        const sent = body(request, options);
        const wire = connection.tap(options);
        const client = await connection.client(wire);
        try {
          const stream = await client.chat.completions.create(
            { ...sent, stream: true, stream_options: { include_usage: true } },
            { signal },
          );
          for await (const chunk of stream) {
            const text = assembler.add(chunk);
            if (text !== '') yield { content: { role: 'model', parts: [{ text }] }, partial: true };
          }
          // The SDK ends an aborted stream quietly; what was read so far is not the whole answer.
          signal?.throwIfAborted();
        } catch (error) {
          throw connection.failure(error, signal);
        } finally {
          wire?.answered(assembler.usage());
        }
        yield { ...assembler.finish(), partial: false };
      },
      async embed(texts: readonly string[], options?: EmbedOptions): Promise<EmbedResponse> {
        if (texts.length === 0) return { embeddings: [] };
        const signal = options?.signal;
        const wire = connection.tap(options);
        const client = await connection.client(wire);
        let usage: unknown;
        try {
          // Floats asked for by name: the SDK otherwise asks for base64 and decodes it, so the wire would not show them.
          const answer = await client.embeddings.create(
            {
              model: config.modelId,
              input: [...texts],
              encoding_format: 'float',
              ...(options?.dimensions === undefined ? {} : { dimensions: options.dimensions }),
            },
            { signal },
          );
          usage = answer.usage;
          const embeddings = [...answer.data].sort((a, b) => a.index - b.index).map((item) => item.embedding);
          if (embeddings.length !== texts.length)
            throw new ModelError({
              provider: config.provider,
              message: `asked for ${texts.length} embeddings, got ${embeddings.length}`,
              retryable: false,
            });
          const tokens = answer.usage?.prompt_tokens;
          return {
            embeddings,
            ...(typeof tokens === 'number'
              ? { usage: { promptTokens: tokens, outputTokens: 0, totalTokens: tokens } }
              : {}),
          };
        } catch (error) {
          throw connection.failure(error, signal);
        } finally {
          wire?.answered(usage);
        }
      },
    },
    [config.apiKey],
  );
}

function newClient(sdk: OpenAISdk, config: OpenAIClientConfig): OpenAI {
  return new sdk.OpenAI({
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    // Retries are agentctx's (withRetries), so a call is never retried twice over.
    maxRetries: 0,
    // Given explicitly so the SDK does not read them from process.env behind the settings' back.
    organization: config.organization,
    project: config.project,
    adminAPIKey: null,
    webhookSecret: null,
    ...(config.fetch === undefined ? {} : { fetch: config.fetch }),
  });
}

/** How a failure of this client is told: the provider's message and hints, connection failures naming the server. */
function errorContext(sdk: OpenAISdk, config: OpenAIClientConfig, signal: AbortSignal | undefined): ModelErrorContext {
  return {
    provider: config.provider,
    signal,
    classify: (error) => {
      if (error instanceof sdk.APIUserAbortError) return 'cancelled';
      if (error instanceof sdk.APIConnectionError) return 'connection';
      return error instanceof sdk.APIError ? readAPIError(error, config) : undefined;
    },
    connectionFailure: (error) => ({
      message: `the connection to ${config.baseURL} failed: ${rootMessage(error)}`,
      hint:
        config.provider === 'openai-compatible'
          ? `Is the server at ${config.baseURL} running?`
          : 'Check the network connection (and OPENAI_BASE_URL if set).',
    }),
  };
}

function readAPIError(error: APIError, config: OpenAIClientConfig): ProviderFailure {
  const status = typeof error.status === 'number' ? error.status : undefined;
  const message = providerMessage(error);
  return {
    status,
    message,
    // An error event inside a stream has no status; the provider's error type says whether it was on its side.
    retryable:
      status === undefined
        ? /server_error|overloaded|rate_limit/.test(`${error.type ?? ''} ${error.code ?? ''}`)
        : undefined,
    headers: error.headers,
    hint: statusHint(status, message, config),
  };
}

/** The provider's own words: `{ error: { message } }` from OpenAI and most servers, `{ error: '…' }` from some. */
function providerMessage(error: APIError): string {
  const body: unknown = error.error;
  if (typeof body === 'string' && body !== '') return body;
  if (
    typeof body === 'object' &&
    body !== null &&
    'message' in body &&
    typeof body.message === 'string' &&
    body.message !== ''
  )
    return body.message;
  return error.message.replace(/^\d{3} /, '');
}

function statusHint(status: number | undefined, message: string, config: OpenAIClientConfig): string | undefined {
  if (status === 401 || status === 403)
    return `Check ${config.provider === 'openai' ? 'OPENAI_API_KEY' : 'OPENAI_COMPATIBLE_API_KEY'}.`;
  // Responses: an item named by id that the server never stored (replayed without its encrypted content).
  if (status === 404 && /^Item with id '[^']*' not found/.test(message))
    return 'With store: false an item cannot be named by its id alone; a reasoning item needs its encrypted_content.';
  if (status === 404) return `Check the model name '${config.modelId}' and the base URL ${config.baseURL}.`;
  return undefined;
}

function requireModelId(model: string, provider: string): string {
  const id = nonEmpty(model);
  if (id === undefined)
    throw new AgentctxError({
      code: 'usage',
      message: `No model named for ${provider}.`,
      hint: 'Pass model, e.g. gpt-4.1-mini.',
    });
  return id;
}

// A server of one's own may need no key: the settings' own, else the variable's, else a placeholder.
function compatibleKey(settings: OpenAICompatibleModelSettings, env: Environment): string {
  const own = nonEmpty(settings.apiKey);
  if (own !== undefined) return usableKey(own, 'apiKey');
  const variable = nonEmpty(env['OPENAI_COMPATIBLE_API_KEY']);
  return variable === undefined ? PLACEHOLDER_KEY : usableKey(variable, 'OPENAI_COMPATIBLE_API_KEY');
}
