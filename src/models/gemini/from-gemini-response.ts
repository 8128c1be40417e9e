import type { Part, TextPart } from '../../contracts/content.js';
import type { Usage } from '../../contracts/event.js';
import type { ModelResponse } from '../../contracts/model.js';
import type { GeminiPart, GeminiResponse, GeminiUsageMetadata } from './gemini-wire.js';

/** What a response (or a whole stream) comes down to before it becomes a `ModelResponse`. */
type Outcome = {
  hasCandidate: boolean;
  parts: Part[];
  finishReason: string | undefined;
  finishMessage: string | undefined;
  blockReason: string | undefined;
  blockReasonMessage: string | undefined;
  usage: Usage | undefined;
};

/**
 * A `generateContent` response as a model response: the first candidate's parts, usage and finish reason. A
 * blocked prompt, a candidate stopped without content (safety, recitation…) or no candidate at all becomes a
 * response with `errorCode` and `errorMessage`, not a throw, as ADK does.
 */
export function fromGeminiResponse(response: GeminiResponse): ModelResponse {
  const candidate = response.candidates?.[0];
  return toModelResponse({
    hasCandidate: candidate !== undefined,
    parts: (candidate?.content?.parts ?? []).flatMap(fromGeminiPart),
    finishReason: candidate?.finishReason,
    finishMessage: candidate?.finishMessage,
    blockReason: response.promptFeedback?.blockReason,
    blockReasonMessage: response.promptFeedback?.blockReasonMessage,
    usage: fromGeminiUsage(response.usageMetadata),
  });
}

/** Reassembles a streamed response chunk by chunk. */
export type GeminiStreamAssembler = {
  /** Takes one chunk; returns the answer text it added (thoughts excluded), `''` when none. */
  add(chunk: GeminiResponse): string;
  /** The whole response: the same `ModelResponse` a call without streaming gives. */
  finish(): ModelResponse;
  /** The last `usageMetadata` sent, as Gemini sent it (its counts are running totals), for the wire record. */
  usage(): GeminiUsageMetadata | undefined;
};

/**
 * Text streams in pieces: consecutive text parts of the same kind (thought or answer) are joined in order until one
 * carries a thought signature, which Gemini sends with the last piece of a part. Other parts (function calls…) are
 * kept as they come. Usage is the last chunk's that has any (Gemini reports running totals, not increments).
 */
export function createGeminiStreamAssembler(): GeminiStreamAssembler {
  const outcome: Outcome = {
    hasCandidate: false,
    parts: [],
    finishReason: undefined,
    finishMessage: undefined,
    blockReason: undefined,
    blockReasonMessage: undefined,
    usage: undefined,
  };
  let metadata: GeminiUsageMetadata | undefined;
  return {
    add(chunk: GeminiResponse): string {
      metadata = chunk.usageMetadata ?? metadata;
      outcome.usage = fromGeminiUsage(chunk.usageMetadata) ?? outcome.usage;
      outcome.blockReason = chunk.promptFeedback?.blockReason ?? outcome.blockReason;
      outcome.blockReasonMessage = chunk.promptFeedback?.blockReasonMessage ?? outcome.blockReasonMessage;
      const candidate = chunk.candidates?.[0];
      if (candidate === undefined) return '';
      outcome.hasCandidate = true;
      outcome.finishReason = candidate.finishReason ?? outcome.finishReason;
      outcome.finishMessage = candidate.finishMessage ?? outcome.finishMessage;
      let delta = '';
      for (const part of (candidate.content?.parts ?? []).flatMap(fromGeminiPart)) {
        if ('text' in part && part.thought !== true) delta += part.text;
        appendPart(outcome.parts, part);
      }
      return delta;
    },
    finish: () => toModelResponse({ ...outcome, parts: outcome.parts.slice() }),
    usage: () => metadata,
  };
}

function appendPart(parts: Part[], part: Part): void {
  const last = parts.at(-1);
  if (
    last === undefined ||
    !isText(last) ||
    !isText(part) ||
    last.thoughtSignature !== undefined ||
    (last.thought === true) !== (part.thought === true)
  ) {
    parts.push(part);
    return;
  }
  const joined: TextPart = { text: last.text + part.text };
  if (part.thought === true) joined.thought = true;
  if (part.thoughtSignature !== undefined) joined.thoughtSignature = part.thoughtSignature;
  parts[parts.length - 1] = joined;
}

function isText(part: Part): part is TextPart {
  return 'text' in part;
}

function toModelResponse(outcome: Outcome): ModelResponse {
  const usage = outcome.usage === undefined ? {} : { usage: outcome.usage };
  const finishReason = outcome.finishReason === undefined ? {} : { finishReason: outcome.finishReason };
  if (!outcome.hasCandidate) {
    if (outcome.blockReason !== undefined) {
      return {
        ...usage,
        errorCode: outcome.blockReason,
        errorMessage: outcome.blockReasonMessage ?? `Gemini blocked the prompt (${outcome.blockReason}).`,
      };
    }
    return { ...usage, errorCode: 'UNKNOWN_ERROR', errorMessage: 'Gemini returned no candidate.' };
  }
  // A candidate that stopped normally may be empty; one stopped for any other reason without content was cut off.
  if (outcome.parts.length === 0 && outcome.finishReason !== 'STOP') {
    const code = outcome.finishReason ?? 'UNKNOWN_ERROR';
    return {
      ...usage,
      ...finishReason,
      errorCode: code,
      errorMessage: outcome.finishMessage ?? `Gemini returned no content (finish reason ${code}).`,
    };
  }
  return {
    ...(outcome.parts.length === 0 ? {} : { content: { role: 'model', parts: outcome.parts } }),
    ...usage,
    ...finishReason,
  };
}

/**
 * Gemini's usage in agentctx's terms. `outputTokens` counts the thinking tokens too (`candidatesTokenCount` +
 * `thoughtsTokenCount`): they are generated and billed as output, and `totalTokenCount` includes them;
 * `reasoningTokens` is that thinking part. `cachedContentTokenCount` is part of `promptTokenCount`, as `cachedTokens`
 * is of `promptTokens`.
 */
export function fromGeminiUsage(metadata: GeminiUsageMetadata | undefined): Usage | undefined {
  if (metadata === undefined) return undefined;
  const usage: Usage = {};
  if (metadata.promptTokenCount !== undefined) usage.promptTokens = metadata.promptTokenCount;
  if (metadata.candidatesTokenCount !== undefined || metadata.thoughtsTokenCount !== undefined) {
    usage.outputTokens = (metadata.candidatesTokenCount ?? 0) + (metadata.thoughtsTokenCount ?? 0);
  }
  if (metadata.cachedContentTokenCount !== undefined) usage.cachedTokens = metadata.cachedContentTokenCount;
  if (metadata.thoughtsTokenCount !== undefined) usage.reasoningTokens = metadata.thoughtsTokenCount;
  if (metadata.totalTokenCount !== undefined) usage.totalTokens = metadata.totalTokenCount;
  return usage;
}

/** One returned part as agentctx's part; a kind agentctx does not model is left out. */
export function fromGeminiPart(part: GeminiPart): Part[] {
  const signature = part.thoughtSignature === undefined ? {} : { thoughtSignature: part.thoughtSignature };
  const thought = part.thought === true ? { thought: true } : {};
  if (part.functionCall !== undefined) {
    const { id, name, args } = part.functionCall;
    return [
      {
        functionCall: {
          ...(id === undefined ? {} : { id }),
          name: name ?? '',
          ...(args === undefined ? {} : { args }),
        },
        ...thought,
        ...signature,
      },
    ];
  }
  // A signature may come alone, in a part of its own: it must travel back, so it is kept on an empty text.
  if (part.text !== undefined || part.thoughtSignature !== undefined)
    return [{ text: part.text ?? '', ...thought, ...signature }];
  if (part.inlineData !== undefined)
    return [{ inlineData: { mimeType: part.inlineData.mimeType ?? '', data: part.inlineData.data ?? '' } }];
  if (part.fileData !== undefined) {
    const { fileUri, mimeType } = part.fileData;
    return [{ fileData: { fileUri: fileUri ?? '', ...(mimeType === undefined ? {} : { mimeType }) } }];
  }
  if (part.executableCode !== undefined)
    return [{ executableCode: { code: part.executableCode.code ?? '', language: part.executableCode.language ?? '' } }];
  if (part.codeExecutionResult !== undefined) {
    const { outcome, output } = part.codeExecutionResult;
    return [{ codeExecutionResult: { outcome: outcome ?? '', ...(output === undefined ? {} : { output }) } }];
  }
  if (part.functionResponse !== undefined) {
    const { id, name, response } = part.functionResponse;
    return [
      {
        functionResponse: {
          ...(id === undefined ? {} : { id }),
          name: name ?? '',
          ...(response === undefined ? {} : { response }),
        },
      },
    ];
  }
  return [];
}
