import type {
  LanguageModelV2Content,
  LanguageModelV2FinishReason,
  LanguageModelV2Usage,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3Usage,
  LanguageModelV4Content,
  LanguageModelV4FinishReason,
  LanguageModelV4Usage,
} from '@ai-sdk/provider';
import type { Part, ProviderMetadata } from '../../contracts/content.js';
import type { Usage } from '../../contracts/event.js';
import type { ModelResponse } from '../../contracts/model.js';

export type AiSdkContent = LanguageModelV2Content | LanguageModelV3Content | LanguageModelV4Content;
export type AiSdkUsage = LanguageModelV2Usage | LanguageModelV3Usage | LanguageModelV4Usage;
export type AiSdkFinishReason = LanguageModelV2FinishReason | LanguageModelV3FinishReason | LanguageModelV4FinishReason;

/** What a generate result (or a finished stream) holds, in any version. */
export type AiSdkResult = {
  content: readonly AiSdkContent[];
  finishReason: AiSdkFinishReason;
  usage: AiSdkUsage;
  providerMetadata?: Record<string, Record<string, unknown>> | undefined;
  warnings?: readonly unknown[] | undefined;
};

/**
 * The key of the response's provider metadata under which the bridge keeps the AI SDK's warnings (settings the
 * provider ignored); recorded with the call.
 */
export const BRIDGE_METADATA_KEY = 'aiSdk';

/**
 * A result as a model response: text, reasoning as thoughts, function calls (with their ids), files as inline data
 * or file references, each part with the provider metadata it came with; usage normalized; the provider's own
 * finish reason (the unified one when the provider gave none). Sources and what a provider ran itself are left out:
 * agentctx has no part for them.
 */
export function fromAiSdkResult(result: AiSdkResult): ModelResponse {
  const parts = result.content.flatMap(toPart);
  const usage = toUsage(result.usage);
  const metadata = responseMetadata(result.providerMetadata, result.warnings);
  return {
    ...(parts.length === 0 ? {} : { content: { role: 'model', parts } }),
    ...(usage === undefined ? {} : { usage }),
    finishReason: finishReasonOf(result.finishReason),
    ...(metadata === undefined ? {} : { providerMetadata: metadata }),
  };
}

export function responseMetadata(
  given: Record<string, Record<string, unknown>> | undefined,
  warnings: readonly unknown[] | undefined,
): ProviderMetadata | undefined {
  const withWarnings =
    warnings === undefined || warnings.length === 0 ? given : { ...given, [BRIDGE_METADATA_KEY]: { warnings } };
  return withWarnings === undefined || Object.keys(withWarnings).length === 0 ? undefined : withWarnings;
}

function withMetadata<P extends Part>(part: P, metadata: ProviderMetadata | undefined): P {
  return metadata === undefined || Object.keys(metadata).length === 0 ? part : { ...part, providerMetadata: metadata };
}

function toPart(content: AiSdkContent): Part[] {
  // Version 2's files carry no metadata; every other kind may.
  const metadata = ('providerMetadata' in content ? content.providerMetadata : undefined) as
    | ProviderMetadata
    | undefined;
  switch (content.type) {
    case 'text':
      return [withMetadata({ text: content.text }, metadata)];
    case 'reasoning':
      return [withMetadata({ text: content.text, thought: true }, metadata)];
    case 'tool-call':
      // A call the provider ran itself is its business; only the calls agentctx is to run come back as calls.
      if (content.providerExecuted === true) return [];
      return [
        withMetadata(
          { functionCall: { id: content.toolCallId, name: content.toolName, args: parseToolInput(content.input) } },
          metadata,
        ),
      ];
    case 'file':
      return [fileToPart(content.mediaType, content.data)];
    default:
      return [];
  }
}

/** A file the model made: its bytes as base64 inline data, or (version 4) a URL as a file reference. */
export function fileToPart(mediaType: string, data: unknown): Part {
  if (typeof data === 'object' && data !== null && 'type' in data) {
    const wrapped = data as { type: string; data?: string | Uint8Array; url?: URL };
    if (wrapped.type === 'url' && wrapped.url !== undefined)
      return { fileData: { fileUri: wrapped.url.href, mimeType: mediaType } };
    return { inlineData: { mimeType: mediaType, data: base64Of(wrapped.data ?? '') } };
  }
  return { inlineData: { mimeType: mediaType, data: base64Of(data as string | Uint8Array) } };
}

function base64Of(data: string | Uint8Array): string {
  return typeof data === 'string'
    ? data
    : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
}

/**
 * A call's arguments from their JSON text. Text that is not a JSON object is kept as `{ _raw: text }`, so the tool's
 * schema check refuses it and tells the model, and the session shows what the model sent.
 */
export function parseToolInput(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value === null) return {};
    if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Kept as raw text below.
  }
  return { _raw: text };
}

/** The provider's own finish reason where the specification passes it on (version 3 on), else the unified one. */
export function finishReasonOf(reason: AiSdkFinishReason): string {
  return typeof reason === 'string' ? reason : (reason.raw ?? reason.unified);
}

/**
 * Usage as agentctx counts it, from the counts the provider package reported. From version 3 on, input tokens are
 * given with their cache reads and writes inside the total, as `Usage` nests them. Version 2 has a single input
 * count and cache reads beside it, passed on as given.
 */
export function toUsage(usage: AiSdkUsage): Usage | undefined {
  const counts: Usage = {};
  const set = (key: keyof Usage, value: number | undefined) => {
    if (value !== undefined) counts[key] = value;
  };
  if (typeof usage.inputTokens === 'object') {
    const { inputTokens: input, outputTokens: output } = usage as LanguageModelV4Usage;
    const parts = [input.noCache, input.cacheRead, input.cacheWrite].filter((count) => count !== undefined);
    set('promptTokens', input.total ?? (parts.length === 0 ? undefined : parts.reduce((sum, count) => sum + count, 0)));
    set('outputTokens', output.total);
    set('cachedTokens', input.cacheRead);
    set('cacheWriteTokens', input.cacheWrite);
    set('reasoningTokens', output.reasoning);
  } else {
    const flat = usage as LanguageModelV2Usage;
    set('promptTokens', flat.inputTokens);
    set('outputTokens', flat.outputTokens);
    set('cachedTokens', flat.cachedInputTokens);
    set('reasoningTokens', flat.reasoningTokens);
    set('totalTokens', flat.totalTokens);
  }
  if (counts.totalTokens === undefined && counts.promptTokens !== undefined && counts.outputTokens !== undefined)
    counts.totalTokens = counts.promptTokens + counts.outputTokens;
  return Object.keys(counts).length === 0 ? undefined : counts;
}

/** The provider's own usage object, as it came (version 3 on); what the wire record keeps beside the request. */
export function rawUsageOf(usage: AiSdkUsage | undefined): unknown {
  return usage !== undefined && 'raw' in usage ? usage.raw : undefined;
}
