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
  const env = environmentOf(settings);
  const apiKey = requireApiKey('OpenAI', settings, ['OPENAI_API_KEY'], env);
  return withRetrySetting(
    chatCompletionsModel({
      provider: 'openai',
      modelId: requireModelId(settings.model, 'OpenAI'),
      apiKey,
      baseURL: baseURLFrom(settings, 'OPENAI_BASE_URL', OPENAI_BASE_URL),
      maxTokensField: 'max_completion_tokens',
      organization: nonEmpty(env['OPENAI_ORG_ID']) ?? null,
      project: nonEmpty(env['OPENAI_PROJECT_ID']) ?? null,
      fetch: settings.fetch,
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

type ClientConfig = Pick<OpenAIRequestOptions, 'maxTokensField'> & {
  provider: 'openai' | 'openai-compatible';
  modelId: string;
  apiKey: string;
  baseURL: string;
  organization: string | null;
  project: string | null;
  fetch: typeof globalThis.fetch | undefined;
  promptCache: OpenAIPromptCacheSetting | false;
};

function chatCompletionsModel(config: ClientConfig): Model {
  checkOpenAIPromptCache(config.promptCache);
  // The SDK loads with the first call (it is an optional package), and the client is made once.
  let loaded: Promise<{ sdk: OpenAISdk; client: OpenAI }> | undefined;
  const connect = () =>
    (loaded ??= loadSdk()
      .then((sdk) => ({ sdk, client: newClient(sdk, config) }))
      .catch((error: unknown) => {
        loaded = undefined;
        throw error;
      }));
  const body = (request: LlmRequest, options: ModelCallOptions | undefined) => ({
    ...toOpenAIRequest(request, { model: config.modelId, maxTokensField: config.maxTokensField }),
    ...openAICacheFields(config.promptCache, options),
  });
  const tap = (options: ModelCallOptions | undefined) =>
    tapWire(options?.wire, { fetch: config.fetch, secrets: [config.apiKey] });
  // A call with an observer sends through a copy of the client whose fetch is that call's tap: the SDK takes a
  // fetch per client only, and a copy per call keeps concurrent calls' observers apart.
  const clientFor = (client: OpenAI, wire: WireTap | undefined) =>
    wire === undefined ? client : client.withOptions({ fetch: wire.fetch });
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
        const { sdk, client } = await connect();
        const wire = tap(options);
        let usage: unknown;
        try {
          const completion = await clientFor(client, wire).chat.completions.create(sent, { signal });
          usage = completion.usage;
          return fromOpenAICompletion(completion);
        } catch (error) {
          throw toModelError(error, errorContext(sdk, config, signal));
        } finally {
          wire?.answered(usage);
        }
      },
      async *stream(request: LlmRequest, options?: ModelCallOptions): AsyncGenerator<ModelStreamChunk> {
        const signal = options?.signal;
        const assembler = createStreamAssembler();
        const sent = body(request, options);
        const { sdk, client } = await connect();
        const wire = tap(options);
        try {
          const stream = await clientFor(client, wire).chat.completions.create(
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
          throw toModelError(error, errorContext(sdk, config, signal));
        } finally {
          wire?.answered(assembler.usage());
        }
        yield { ...assembler.finish(), partial: false };
      },
      async embed(texts: readonly string[], options?: EmbedOptions): Promise<EmbedResponse> {
        if (texts.length === 0) return { embeddings: [] };
        const signal = options?.signal;
        const { sdk, client } = await connect();
        const wire = tap(options);
        let usage: unknown;
        try {
          // Floats asked for by name: the SDK otherwise asks for base64 and decodes it, so the wire would not show them.
          const answer = await clientFor(client, wire).embeddings.create(
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
          throw toModelError(error, errorContext(sdk, config, signal));
        } finally {
          wire?.answered(usage);
        }
      },
    },
    [config.apiKey],
  );
}

function newClient(sdk: OpenAISdk, config: ClientConfig): OpenAI {
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
function errorContext(sdk: OpenAISdk, config: ClientConfig, signal: AbortSignal | undefined): ModelErrorContext {
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

function readAPIError(error: APIError, config: ClientConfig): ProviderFailure {
  const status = typeof error.status === 'number' ? error.status : undefined;
  return {
    status,
    message: providerMessage(error),
    // An error event inside a stream has no status; the provider's error type says whether it was on its side.
    retryable:
      status === undefined
        ? /server_error|overloaded|rate_limit/.test(`${error.type ?? ''} ${error.code ?? ''}`)
        : undefined,
    headers: error.headers,
    hint: statusHint(status, config),
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

function statusHint(status: number | undefined, config: ClientConfig): string | undefined {
  if (status === 401 || status === 403)
    return `Check ${config.provider === 'openai' ? 'OPENAI_API_KEY' : 'OPENAI_COMPATIBLE_API_KEY'}.`;
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
