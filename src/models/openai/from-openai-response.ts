import type { Part } from '../../contracts/content.js';
import type { Usage } from '../../contracts/event.js';
import type { ModelResponse } from '../../contracts/model.js';
import type { OpenAIChunk, OpenAICompletion, OpenAIToolCallDelta, OpenAIUsage } from './openai-wire.js';

/** A whole answer, however it arrived: one message or a stream of deltas put back together. */
type Answer = {
  reasoning: string;
  text: string;
  refusal: string;
  calls: { id: string | undefined; name: string; arguments: string }[];
  finishReason: string | undefined;
  usage: OpenAIUsage | null | undefined;
  /** False when the provider sent no choice at all. */
  answered: boolean;
};

/** A non-streamed Chat Completions answer as a model response. */
export function fromOpenAICompletion(completion: OpenAICompletion): ModelResponse {
  const choice = completion.choices?.[0];
  const message = choice?.message;
  const calls: Answer['calls'] = [];
  for (const call of message?.tool_calls ?? []) {
    // `custom` tool calls carry no function; agentctx declares only function tools.
    if ((call.type ?? 'function') !== 'function' || call.function == null) continue;
    calls.push({ id: call.id ?? undefined, name: call.function.name ?? '', arguments: call.function.arguments ?? '' });
  }
  return toModelResponse({
    reasoning: message?.reasoning_content ?? message?.reasoning ?? '',
    text: message?.content ?? '',
    refusal: message?.refusal ?? '',
    calls,
    finishReason: choice?.finish_reason ?? undefined,
    usage: completion.usage,
    answered: choice !== undefined,
  });
}

/** Puts a streamed answer back together, chunk by chunk. */
export type StreamAssembler = {
  /** Takes a chunk; returns the answer text it adds (empty when it adds none). */
  add(chunk: OpenAIChunk): string;
  /** The whole response, equal to what the same answer non-streamed gives. */
  finish(): ModelResponse;
  /** The usage as the provider sent it (in the last chunk that had one), for the wire record. */
  usage(): OpenAIUsage | undefined;
};

export function createStreamAssembler(): StreamAssembler {
  const answer: Answer = {
    reasoning: '',
    text: '',
    refusal: '',
    calls: [],
    finishReason: undefined,
    usage: undefined,
    answered: false,
  };
  const callsByIndex = new Map<number, Answer['calls'][number]>();
  return {
    add(chunk: OpenAIChunk): string {
      // OpenAI sends usage in a last chunk whose choices are empty.
      if (chunk.usage != null) answer.usage = chunk.usage;
      const choice = chunk.choices?.find((candidate) => (candidate.index ?? 0) === 0);
      if (choice === undefined) return '';
      answer.answered = true;
      if (choice.finish_reason != null) answer.finishReason = choice.finish_reason;
      const delta = choice.delta;
      if (delta == null) return '';
      answer.reasoning += delta.reasoning_content ?? delta.reasoning ?? '';
      answer.refusal += delta.refusal ?? '';
      for (const fragment of delta.tool_calls ?? []) addCallFragment(answer, callsByIndex, fragment);
      const text = delta.content ?? '';
      answer.text += text;
      return text;
    },
    finish: () => toModelResponse(answer),
    usage: () => answer.usage ?? undefined,
  };
}

// A call's first fragment brings its id and name; the arguments come in pieces. Servers that leave out `index`
// send each call whole or start a new one with a new id.
function addCallFragment(
  answer: Answer,
  byIndex: Map<number, Answer['calls'][number]>,
  fragment: OpenAIToolCallDelta,
): void {
  if (fragment.type != null && fragment.type !== 'function') return;
  const last = answer.calls.at(-1);
  const startsNew = fragment.id != null && fragment.id !== last?.id;
  const index = fragment.index ?? (startsNew || last === undefined ? answer.calls.length : answer.calls.length - 1);
  let call = byIndex.get(index);
  if (call === undefined) {
    call = { id: undefined, name: '', arguments: '' };
    byIndex.set(index, call);
    answer.calls.push(call);
  }
  if (fragment.id != null && fragment.id !== '') call.id = fragment.id;
  // Some servers repeat the name in every fragment: it is set, not appended.
  if (fragment.function?.name != null && fragment.function.name !== '') call.name = fragment.function.name;
  call.arguments += fragment.function?.arguments ?? '';
}

/**
 * A call's arguments from their JSON text. Text that is not a JSON object is kept as `{ _raw: text }` rather than
 * thrown away or thrown: the tool's schema check then refuses it and tells the model, which can call again, and
 * the session shows what the model actually sent.
 */
export function parseToolArguments(text: string): Record<string, unknown> {
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

/**
 * Chat Completions usage as agentctx counts it; only the counts the provider gave. OpenAI's own counts already nest
 * the way `Usage` does: cached tokens are part of `prompt_tokens`, reasoning tokens part of `completion_tokens`.
 */
export function fromOpenAIUsage(usage: OpenAIUsage | null | undefined): Usage | undefined {
  if (usage == null) return undefined;
  const result: Usage = {};
  if (typeof usage.prompt_tokens === 'number') result.promptTokens = usage.prompt_tokens;
  if (typeof usage.completion_tokens === 'number') result.outputTokens = usage.completion_tokens;
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') result.cachedTokens = cached;
  const written = usage.prompt_tokens_details?.cache_write_tokens;
  if (typeof written === 'number' && written > 0) result.cacheWriteTokens = written;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  if (typeof reasoning === 'number') result.reasoningTokens = reasoning;
  if (typeof usage.total_tokens === 'number') result.totalTokens = usage.total_tokens;
  return Object.keys(result).length === 0 ? undefined : result;
}

// Finish reasons that explain an empty answer: it is reported as an error rather than as silence (as ADK does).
const EMPTY_BECAUSE = new Set(['length', 'content_filter']);

function toModelResponse(answer: Answer): ModelResponse {
  const usage = fromOpenAIUsage(answer.usage);
  const withUsage = usage === undefined ? {} : { usage };
  if (!answer.answered)
    return { errorCode: 'empty_response', errorMessage: 'The provider answered without any choice.', ...withUsage };
  const parts: Part[] = [];
  if (answer.reasoning !== '') parts.push({ text: answer.reasoning, thought: true });
  if (answer.text !== '') parts.push({ text: answer.text });
  if (answer.refusal !== '') parts.push({ text: answer.refusal });
  for (const call of answer.calls) {
    parts.push({
      functionCall: {
        ...(call.id === undefined ? {} : { id: call.id }),
        name: call.name,
        args: parseToolArguments(call.arguments),
      },
    });
  }
  const finish = answer.finishReason === undefined ? {} : { finishReason: answer.finishReason };
  if (parts.length === 0 && answer.finishReason !== undefined && EMPTY_BECAUSE.has(answer.finishReason)) {
    return {
      errorCode: answer.finishReason,
      errorMessage: `The model returned no content (finish reason: ${answer.finishReason}).`,
      ...finish,
      ...withUsage,
    };
  }
  return { content: { role: 'model', parts }, ...finish, ...withUsage };
}
