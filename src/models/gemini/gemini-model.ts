import { GoogleGenAI, type CountTokensParameters, type GenerateContentConfig, type GenerateContentParameters, type GenerateContentResponse } from '@google/genai';
import type { Model, ModelCallOptions, ModelResponse, ModelStreamChunk } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { requireApiKey } from '../shared/credentials.js';
import { withoutSecrets } from '../shared/redact-secrets.js';
import { withRetrySetting, type RetryOptions } from '../shared/retry.js';
import { baseURLFrom, type ProviderSettings } from '../shared/settings.js';
import { toModelError } from '../shared/to-model-error.js';
import { tapWire, type WireTap } from '../shared/wire-tap.js';
import { createGeminiStreamAssembler, fromGeminiResponse } from './from-gemini-response.js';
import { geminiErrorContext } from './gemini-errors.js';
import { unboundedFetch } from './unbounded-fetch.js';
import type { GeminiCountRequest, GeminiRequest } from './gemini-wire.js';
import { toGeminiCountRequest, toGeminiRequest } from './to-gemini-request.js';

const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

export type GeminiModelSettings = ProviderSettings & {
  /** The Gemini model id, e.g. `gemini-2.5-flash`. */
  model: string;
  /** Retries with backoff (`withRetries`); `false` turns them off. */
  retry?: RetryOptions | false | undefined;
};

/**
 * A Gemini model through the Gemini API (never Vertex AI). The key is `apiKey`, else `GEMINI_API_KEY`, else
 * `GOOGLE_API_KEY`; the address is `baseURL`, else `GOOGLE_GEMINI_BASE_URL`, else Google's. Both are read from
 * `env` (default `process.env`) and handed to the SDK explicitly, with the backend fixed to the Gemini API, so
 * the SDK's own reading of `GOOGLE_*` variables (keys, base URL, `GOOGLE_GENAI_USE_VERTEXAI`) never decides
 * anything. Gemini pairs function responses with calls by order and name, so `pairsCallsById` is false.
 */
export function createGeminiModel(settings: GeminiModelSettings): Model {
  const apiKey = requireApiKey('Gemini', settings, ['GEMINI_API_KEY', 'GOOGLE_API_KEY']);
  const baseUrl = baseURLFrom(settings, 'GOOGLE_GEMINI_BASE_URL', DEFAULT_BASE_URL);
  // No `retryOptions`: the SDK then makes one attempt per call, and withRetries decides about the rest. (The SDK
  // still looks at GOOGLE_API_KEY and GEMINI_API_KEY in process.env, only to warn when both are set; ours wins.)
  const ai = new GoogleGenAI({ vertexai: false, apiKey, apiVersion: 'v1beta', httpOptions: { baseUrl } });
  const modelId = settings.model;
  const tap = (options: ModelCallOptions | undefined) => tapWire(options?.wire, { fetch: unboundedFetch, secrets: [apiKey] });

  const model: Model = {
    specificationVersion: 'v1',
    provider: 'google',
    modelId,
    pairsCallsById: false,
    async generate(request: LlmRequest, options?: ModelCallOptions): Promise<ModelResponse> {
      const signal = options?.signal;
      const wire = tap(options);
      let usage: unknown;
      try {
        const response = await ai.models.generateContent(toSdkRequest(toGeminiRequest(request, modelId), signal, wire));
        usage = response.usageMetadata;
        return fromGeminiResponse(response);
      } catch (error) {
        throw toModelError(error, geminiErrorContext(signal));
      } finally {
        wire?.answered(usage);
      }
    },
    async *stream(request: LlmRequest, options?: ModelCallOptions): AsyncGenerator<ModelStreamChunk> {
      const signal = options?.signal;
      const assembler = createGeminiStreamAssembler();
      const wire = tap(options);
      let chunks: AsyncIterator<GenerateContentResponse>;
      try {
        chunks = (await ai.models.generateContentStream(toSdkRequest(toGeminiRequest(request, modelId), signal, wire)))[Symbol.asyncIterator]();
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
      yield { ...assembler.finish(), partial: false };
    },
    async countTokens(request: LlmRequest, options?: ModelCallOptions): Promise<number> {
      const signal = options?.signal;
      try {
        const counted = await ai.models.countTokens(toSdkCount(toGeminiCountRequest(request, modelId), signal));
        return counted.totalTokens ?? 0;
      } catch (error) {
        throw toModelError(error, geminiErrorContext(signal));
      }
    },
  };
  return withRetrySetting(withoutSecrets(model, [apiKey]), settings.retry);
}

/**
 * The SDK's parameters. Our wire types are the JSON the API takes; the SDK's types differ only in using string
 * enums (a code part's `language`) where the JSON has strings, hence the one cast. Automatic continuation is off
 * because it would re-send the request on its own; no tool is callable, so automatic function calling stays off.
 * A call with an observer sends through its tap: the SDK takes a fetch per request in `httpOptions`, which it
 * leaves out of the body.
 */
function toSdkRequest(request: GeminiRequest, signal: AbortSignal | undefined, wire: WireTap | undefined): GenerateContentParameters {
  const config: GenerateContentConfig = {
    ...request.config,
    automaticContinuation: false,
    ...(signal === undefined ? {} : { abortSignal: signal }),
    ...(wire === undefined ? {} : { httpOptions: { fetch: wire.fetch } }),
  };
  return { model: request.model, contents: request.contents as GenerateContentParameters['contents'], config };
}

function toSdkCount(request: GeminiCountRequest, signal: AbortSignal | undefined): CountTokensParameters {
  return { model: request.model, contents: request.contents as CountTokensParameters['contents'], ...(signal === undefined ? {} : { config: { abortSignal: signal } }) };
}

async function nextChunk(chunks: AsyncIterator<GenerateContentResponse>, signal: AbortSignal | undefined): Promise<IteratorResult<GenerateContentResponse>> {
  try {
    return await chunks.next();
  } catch (error) {
    throw toModelError(error, geminiErrorContext(signal));
  }
}
