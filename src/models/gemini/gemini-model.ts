import type {
  GoogleGenAI,
  GoogleGenAIOptions,
  CountTokensParameters,
  CreateCachedContentConfig,
  EmbedContentConfig,
  GenerateContentConfig,
  GenerateContentParameters,
  GenerateContentResponse,
} from '@google/genai';
import { optionalPackage } from '../../engine/util/optional-package.js';
import type { Usage } from '../../contracts/event.js';
import type {
  EmbedOptions,
  EmbedResponse,
  Model,
  ModelCallOptions,
  ModelResponse,
  ModelStreamChunk,
} from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { withoutSecrets } from '../shared/redact-secrets.js';
import { withRetrySetting, type RetryOptions } from '../shared/retry.js';
import type { ProviderSettings } from '../shared/settings.js';
import { geminiConnection, type GeminiVertexSettings } from './gemini-backend.js';
import { ModelError } from '../../contracts/errors/model-error.js';
import { toModelError } from '../shared/to-model-error.js';
import { tapWire, type WireTap } from '../shared/wire-tap.js';
import { GeminiContextCache, refusesCache, type CachePlan, type GeminiCacheService } from './context-cache.js';
import { contextCacheConfig, type GeminiContextCacheSettings } from './context-cache-settings.js';
import { createGeminiStreamAssembler, fromGeminiResponse } from './from-gemini-response.js';
import { geminiErrorContext } from './gemini-errors.js';
import { unboundedFetch } from './unbounded-fetch.js';
import type { GeminiCountRequest, GeminiRequest } from './gemini-wire.js';
import { toGeminiCountRequest, toGeminiRequest } from './to-gemini-request.js';

const loadSdk = optionalPackage(
  { packages: ['@google/genai'], purpose: 'A Gemini model' },
  () => import('@google/genai'),
);

export type GeminiModelSettings = ProviderSettings & {
  /** The Gemini model id, e.g. `gemini-2.5-flash`. */
  model: string;
  /** Retries with backoff (`withRetries`); `false` turns them off. */
  retry?: RetryOptions | false | undefined;
  /**
   * Explicit context caching (Gemini `cachedContents`), as ADK's `ContextCacheConfig`: `minTokens` (default 0),
   * `ttlSeconds` (default 1800), `cacheIntervals` (1–100, default 10). Off when absent: explicit caches are billed
   * for storage by the hour. Each agent and session gets its own cache of its request's stable prefix; calls that
   * use it send `cachedContent` instead of the system instruction, the tools and the contents it holds, and report
   * the tokens read as `cachedTokens`; the call that starts a cache's lifetime reports `cacheStorageTokenHours`.
   * Cache requests are not told to the wire observer, so a call's recorded body is the `generateContent` one.
   */
  contextCache?: GeminiContextCacheSettings | undefined;
  /**
   * Vertex AI instead of the Gemini API (`true`, or its project, region and token); also when
   * `GOOGLE_GENAI_USE_VERTEXAI` is true. Vertex AI keeps the `labels` and `displayName`s the Gemini API refuses.
   */
  vertex?: GeminiVertexSettings | boolean | undefined;
};

/**
 * A Gemini model through the Gemini API, or Vertex AI (`vertex`, or `GOOGLE_GENAI_USE_VERTEXAI`; gemini-backend.ts).
 * On the Gemini API the key is `apiKey`, else `GEMINI_API_KEY`, else `GOOGLE_API_KEY`; the address is `baseURL`,
 * else `GOOGLE_GEMINI_BASE_URL`, else Google's. Everything is read from `env` (default `process.env`) and handed to
 * the SDK explicitly, so the SDK's own reading of `GOOGLE_*` variables never decides anything. Gemini pairs function
 * responses with calls by order and name, so `pairsCallsById` is false.
 */
export function createGeminiModel(settings: GeminiModelSettings): Model {
  return createGeminiModelWithClock(settings, Date.now);
}

/**
 * `createGeminiModel` with the clock its context cache reads (milliseconds since the epoch), for tests; not part of
 * the package's entry.
 */
export function createGeminiModelWithClock(settings: GeminiModelSettings, now: () => number): Model {
  const caching = settings.contextCache === undefined ? undefined : contextCacheConfig(settings.contextCache);
  const { backend, options: clientOptions, secrets } = geminiConnection(settings);
  // No `retryOptions`: the SDK then makes one attempt per call, and withRetries decides about the rest. (The SDK
  // still looks at GOOGLE_API_KEY and GEMINI_API_KEY in process.env, only to warn when both are set; ours wins.)
  // The SDK loads with the first call (it is an optional package), and the client is made once.
  let loaded: Promise<GoogleGenAI> | undefined;
  const connect = () =>
    (loaded ??= loadSdk()
      // The SDK's auth client type is google-auth-library's class; it asks of one only the request headers given here.
      .then((sdk) => new sdk.GoogleGenAI(clientOptions as GoogleGenAIOptions))
      .catch((error: unknown) => {
        loaded = undefined;
        throw error;
      }));
  const modelId = settings.model;
  const tap = (options: ModelCallOptions | undefined) => tapWire(options?.wire, { fetch: unboundedFetch, secrets });
  const cache = caching === undefined ? undefined : new GeminiContextCache(caching, cacheService(connect), { now });
  // Mapped before anything is sent (and outside the calls' error handling): a request the adapter refuses fails
  // with its own error, and never reaches the API.
  const plan = async (mapped: GeminiRequest, options: ModelCallOptions | undefined): Promise<CachePlan> =>
    cache === undefined ? uncached(mapped) : cache.prepare(mapped, options);

  const model: Model = {
    specificationVersion: 'v1',
    provider: 'google',
    modelId,
    pairsCallsById: false,
    async generate(request: LlmRequest, options?: ModelCallOptions): Promise<ModelResponse> {
      const signal = options?.signal;
      const mapped = toGeminiRequest(request, modelId, backend);
      const ai = await connect();
      const wire = tap(options);
      let usage: unknown;
      try {
        let sending = await plan(mapped, options);
        let response: GenerateContentResponse;
        try {
          response = await ai.models.generateContent(toSdkRequest(sending.request, signal, wire));
        } catch (error) {
          // A cache the server no longer has: forgotten, and the call sent again without it.
          if (sending.cacheName === undefined || !refusesCache(error)) throw error;
          sending = sending.abandon();
          response = await ai.models.generateContent(toSdkRequest(sending.request, signal, wire));
        }
        usage = response.usageMetadata;
        const answer = fromGeminiResponse(response);
        return withUsage(answer, sending.settle(answer.usage));
      } catch (error) {
        throw toModelError(error, geminiErrorContext(signal));
      } finally {
        wire?.answered(usage);
      }
    },
    async *stream(request: LlmRequest, options?: ModelCallOptions): AsyncGenerator<ModelStreamChunk> {
      const signal = options?.signal;
      const assembler = createGeminiStreamAssembler();
      const mapped = toGeminiRequest(request, modelId, backend);
      const ai = await connect();
      const wire = tap(options);
      let chunks: AsyncIterator<GenerateContentResponse>;
      let sending: CachePlan;
      try {
        sending = await plan(mapped, options);
        try {
          chunks = (await ai.models.generateContentStream(toSdkRequest(sending.request, signal, wire)))[
            Symbol.asyncIterator
          ]();
        } catch (error) {
          if (sending.cacheName === undefined || !refusesCache(error)) throw error;
          sending = sending.abandon();
          chunks = (await ai.models.generateContentStream(toSdkRequest(sending.request, signal, wire)))[
            Symbol.asyncIterator
          ]();
        }
      } catch (error) {
        wire?.answered();
        throw toModelError(error, geminiErrorContext(signal));
      }
      let ended = false;
      try {
        for (let next = await nextChunk(chunks, signal); next.done !== true; next = await nextChunk(chunks, signal)) {
          const delta = assembler.add(next.value);
          if (delta !== '') yield { content: { role: 'model', parts: [{ text: delta }] }, partial: true };
        }
        ended = true;
      } finally {
        wire?.answered(assembler.usage());
        // A consumer that stops early must not leave the response body open.
        if (!ended) await chunks.return?.();
      }
      const answer = assembler.finish();
      yield { ...withUsage(answer, sending.settle(answer.usage)), partial: false };
    },
    async countTokens(request: LlmRequest, options?: ModelCallOptions): Promise<number> {
      const signal = options?.signal;
      const ai = await connect();
      try {
        const counted = await ai.models.countTokens(
          toSdkCount(toGeminiCountRequest(request, modelId, backend), signal),
        );
        return counted.totalTokens ?? 0;
      } catch (error) {
        throw toModelError(error, geminiErrorContext(signal));
      }
    },
    async embed(texts: readonly string[], options?: EmbedOptions): Promise<EmbedResponse> {
      if (texts.length === 0) return { embeddings: [] };
      const signal = options?.signal;
      const ai = await connect();
      const wire = tap(options);
      try {
        const answer = await ai.models.embedContent({
          model: modelId,
          contents: [...texts],
          config: toEmbedConfig(options, wire),
        });
        const embeddings = (answer.embeddings ?? []).map((embedding) => embedding.values ?? []);
        if (embeddings.length !== texts.length)
          throw new ModelError({
            provider: 'google',
            message: `asked for ${texts.length} embeddings, got ${embeddings.length}`,
            retryable: false,
          });
        // The Gemini API reports no token count for embeddings.
        return { embeddings };
      } catch (error) {
        throw toModelError(error, geminiErrorContext(signal));
      } finally {
        wire?.answered();
      }
    },
  };
  return withRetrySetting(withoutSecrets(model, secrets), settings.retry);
}

/**
 * The SDK's parameters. Our wire types are the JSON the API takes; the SDK's types differ only in using string
 * enums (a code part's `language`, a safety category, a tool-calling mode) where the JSON has strings, hence the casts. Automatic continuation is off
 * because it would re-send the request on its own; no tool is callable, so automatic function calling stays off.
 * A call with an observer sends through its tap: the SDK takes a fetch per request in `httpOptions`, which it
 * leaves out of the body.
 */
function toSdkRequest(
  request: GeminiRequest,
  signal: AbortSignal | undefined,
  wire: WireTap | undefined,
): GenerateContentParameters {
  const config: GenerateContentConfig = {
    ...(request.config as GenerateContentConfig),
    automaticContinuation: false,
    ...(signal === undefined ? {} : { abortSignal: signal }),
    ...(wire === undefined ? {} : { httpOptions: { fetch: wire.fetch } }),
  };
  return { model: request.model, contents: request.contents as GenerateContentParameters['contents'], config };
}

/** The cache endpoints through the adapter's client: same key, same base URL, never through a call's wire tap. */
function cacheService(connect: () => Promise<GoogleGenAI>): GeminiCacheService {
  const abort = (signal: AbortSignal | undefined) => (signal === undefined ? {} : { abortSignal: signal });
  return {
    async create(entry, signal) {
      const { model, contents, ...rest } = entry;
      const config: CreateCachedContentConfig = {
        ...(rest as CreateCachedContentConfig),
        contents: contents as NonNullable<CreateCachedContentConfig['contents']>,
        ...abort(signal),
      };
      const made = await (await connect()).caches.create({ model, config });
      if (made.name === undefined || made.name === '') throw new Error('Gemini created a cache without a name');
      return { name: made.name, tokens: made.usageMetadata?.totalTokenCount };
    },
    async extend(name, ttl, signal) {
      await (await connect()).caches.update({ name, config: { ttl, ...abort(signal) } });
    },
    async delete(name, signal) {
      await (await connect()).caches.delete({ name, config: abort(signal) });
    },
  };
}

function uncached(request: GeminiRequest): CachePlan {
  const plan: CachePlan = { request, cacheName: undefined, settle: (usage) => usage, abandon: () => plan };
  return plan;
}

function withUsage(response: ModelResponse, usage: Usage | undefined): ModelResponse {
  return usage === undefined ? response : { ...response, usage };
}

// What the texts are for, as the task types Gemini tunes its vectors to; through the call's wire tap when it has one.
function toEmbedConfig(options: EmbedOptions | undefined, wire: WireTap | undefined): EmbedContentConfig {
  return {
    ...(options?.purpose === undefined
      ? {}
      : { taskType: options.purpose === 'query' ? 'RETRIEVAL_QUERY' : 'RETRIEVAL_DOCUMENT' }),
    ...(options?.dimensions === undefined ? {} : { outputDimensionality: options.dimensions }),
    ...(options?.signal === undefined ? {} : { abortSignal: options.signal }),
    ...(wire === undefined ? {} : { httpOptions: { fetch: wire.fetch } }),
  };
}

function toSdkCount(request: GeminiCountRequest, signal: AbortSignal | undefined): CountTokensParameters {
  return {
    model: request.model,
    contents: request.contents as CountTokensParameters['contents'],
    ...(signal === undefined ? {} : { config: { abortSignal: signal } }),
  };
}

async function nextChunk(
  chunks: AsyncIterator<GenerateContentResponse>,
  signal: AbortSignal | undefined,
): Promise<IteratorResult<GenerateContentResponse>> {
  try {
    return await chunks.next();
  } catch (error) {
    throw toModelError(error, geminiErrorContext(signal));
  }
}
