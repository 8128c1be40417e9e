import type { LanguageModelV4, LanguageModelV4StreamPart } from '@ai-sdk/provider';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { Model, ModelCallOptions, ModelResponse, ModelStreamChunk } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { withRetrySetting, type RetryOptions } from '../shared/retry.js';
import { toModelError } from '../shared/to-model-error.js';
import { errorContext, refusalOf } from './ai-sdk-errors.js';
import type { AiSdkLanguageModel, AiSdkProviderOptions } from './ai-sdk-spec.js';
import { AiSdkStreamAssembler } from './ai-sdk-stream.js';
import { fromAiSdkResult, rawUsageOf, type AiSdkResult } from './from-ai-sdk-result.js';
import { callWire, withCallWire } from './recording-fetch.js';
import { forVersion, toAiSdkCall } from './to-ai-sdk-call.js';

export type AiSdkModelSettings = {
  /**
   * The provider agentctx records the model under and prices it as (with its model id): by default the AI SDK's
   * provider id up to its first dot (`anthropic.messages` → `anthropic`, `mistral.chat` → `mistral`).
   */
  provider?: string | undefined;
  /** Retry settings, or `false` for none. The provider packages do not retry a call (`generateText` does). */
  retry?: RetryOptions | false | undefined;
  /**
   * Provider options that mark a prompt-cache breakpoint, put on the system message and on the last message of each
   * request's stable prefix: `{ anthropic: { cacheControl: { type: 'ephemeral' } } }` for Anthropic (also on Vertex),
   * `{ bedrock: { cachePoint: { type: 'default' } } }` for Bedrock. Without it no breakpoint is placed; providers
   * that cache by themselves (OpenAI, DeepSeek, Mistral…) need none.
   */
  cacheBreakpoint?: Record<string, Record<string, unknown>> | undefined;
};

/**
 * An agentctx model over a language model of the AI SDK's provider specification (versions 2 to 4), from any
 * `@ai-sdk/*` provider package: the request is sent through the model's `doGenerate` or `doStream`, and the answer,
 * usage and errors come back as agentctx's. To have each call's HTTP request recorded exactly, make the provider
 * with `fetch: recordingFetch()`.
 */
export function createAiSdkModel(languageModel: AiSdkLanguageModel, settings: AiSdkModelSettings = {}): Model {
  const version = checkedVersion(languageModel);
  const provider = settings.provider ?? languageModel.provider.split('.')[0] ?? languageModel.provider;
  const api = `${languageModel.provider} through the AI SDK`;
  // One type for every version: the options are given in the version's own shape (forVersion), and what comes
  // back is read for all three (from-ai-sdk-result.ts).
  const target = languageModel as LanguageModelV4;
  const callFor = (request: LlmRequest, options: ModelCallOptions | undefined) => ({
    ...forVersion(
      toAiSdkCall(request, {
        api,
        version,
        cacheBreakpoint: settings.cacheBreakpoint as AiSdkProviderOptions | undefined,
        stablePrefix: options?.stablePrefix,
      }),
      version,
    ),
    ...(options?.signal === undefined ? {} : { abortSignal: options.signal }),
  });

  const model: Model = {
    specificationVersion: 'v1',
    provider,
    modelId: languageModel.modelId,
    // Every AI SDK provider pairs tool results with calls by id.
    pairsCallsById: true,

    async generate(request: LlmRequest, options?: ModelCallOptions): Promise<ModelResponse> {
      const signal = options?.signal;
      // Mapped outside the call's error handling: a request the bridge refuses fails with its own error, unsent.
      const call = callFor(request, options);
      const wire = callWire(options?.wire);
      let usage: unknown;
      try {
        const result = (await withCallWire(wire, () => target.doGenerate(call))) as AiSdkResult & {
          response?: { body?: unknown };
        };
        usage = rawUsageOf(result.usage) ?? usageInBody(result.response?.body);
        return fromAiSdkResult(result);
      } catch (error) {
        throw refusalOf(error, api) ?? toModelError(error, errorContext(provider, signal));
      } finally {
        wire?.answered(usage);
      }
    },

    async *stream(request: LlmRequest, options?: ModelCallOptions): AsyncGenerator<ModelStreamChunk> {
      const signal = options?.signal;
      const call = callFor(request, options);
      const wire = callWire(options?.wire);
      const assembler = new AiSdkStreamAssembler();
      let reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart> | undefined;
      let done = false;
      try {
        const { stream } = await withCallWire(wire, () => target.doStream(call));
        reader = stream.getReader();
        for (let next = await reader.read(); !next.done; next = await reader.read()) {
          const text = assembler.push(next.value);
          if (text !== undefined) yield { content: { role: 'model', parts: [{ text }] }, partial: true };
        }
        done = true;
      } catch (error) {
        throw refusalOf(error, api) ?? toModelError(error, errorContext(provider, signal));
      } finally {
        wire?.answered(assembler.rawUsage());
        // A stream left before its end (the caller stopped reading) is cancelled, so its connection is let go.
        if (!done) void reader?.cancel().catch(() => undefined);
      }
      if (signal?.aborted === true) throw toModelError(signal.reason, errorContext(provider, signal));
      yield { ...assembler.finish(), partial: false };
    },
  };
  return withRetrySetting(model, settings.retry);
}

const VERSIONS: readonly string[] = ['v2', 'v3', 'v4'];

/** The model's specification version, or one line saying that what was given is no language model the bridge speaks. */
function checkedVersion(languageModel: AiSdkLanguageModel): AiSdkLanguageModel['specificationVersion'] {
  const version = (languageModel as { specificationVersion?: unknown } | null)?.specificationVersion;
  if (typeof version === 'string' && VERSIONS.includes(version) && typeof languageModel.doGenerate === 'function')
    return version as AiSdkLanguageModel['specificationVersion'];
  const got = version === undefined ? 'something else' : `specification ${String(version)}`;
  throw new AgentctxError({
    code: 'usage',
    message: `createAiSdkModel takes a language model of the AI SDK's specification v2, v3 or v4; got ${got}.`,
    hint: "Pass what a provider package's model function returns: anthropic('claude-sonnet-5-5') after npm install @ai-sdk/anthropic.",
  });
}

/** Version 2 passes no usage object of the provider's own; its response body (when the package gives it) has one. */
function usageInBody(body: unknown): unknown {
  return typeof body === 'object' && body !== null ? (body as { usage?: unknown }).usage : undefined;
}
