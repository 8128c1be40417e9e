import type { Part } from '../../contracts/content.js';
import { ModelError } from '../../contracts/errors/model-error.js';
import type { Usage } from '../../contracts/event.js';
import type { ModelResponse } from '../../contracts/model.js';

/** The usage fields of a response or a `message_delta` event (the SDK sends nulls for absent counts). */
export type AnthropicUsage = {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  /** The writes by lifetime (`cache_creation_input_tokens` is their sum). */
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
};

/** A response content block; only the fields read here (other block types are passed over). */
export type AnthropicResponseBlock = {
  type: string;
  text?: string;
  thinking?: string;
  signature?: string;
  id?: string;
  name?: string;
  input?: unknown;
  /** A `redacted_thinking` block's encrypted thinking. */
  data?: string;
};

/** The parts of a Messages API response read here. */
export type AnthropicResponse = {
  content: readonly AnthropicResponseBlock[];
  stop_reason?: string | null;
  usage?: AnthropicUsage | null;
};

/** A server-sent event of a streamed response, as the SDK parses it. */
export type AnthropicStreamEvent = {
  type: string;
  index?: number;
  message?: AnthropicResponse;
  content_block?: AnthropicResponseBlock;
  delta?: {
    type?: string;
    text?: string;
    thinking?: string;
    signature?: string;
    partial_json?: string;
    stop_reason?: string | null;
  };
  usage?: AnthropicUsage | null;
};

/** A response as a model response: text, thinking (with its signature, or redacted) and tool calls (with their ids). */
export function fromAnthropicResponse(message: AnthropicResponse): ModelResponse {
  const parts = message.content.flatMap(toPart);
  const usage = message.usage === undefined || message.usage === null ? undefined : toUsage(message.usage);
  return {
    ...(parts.length === 0 ? {} : { content: { role: 'model', parts } }),
    ...(usage === undefined ? {} : { usage }),
    ...(message.stop_reason === undefined || message.stop_reason === null ? {} : { finishReason: message.stop_reason }),
  };
}

function toPart(block: AnthropicResponseBlock): Part[] {
  switch (block.type) {
    case 'text':
      return block.text === undefined || block.text === '' ? [] : [{ text: block.text }];
    case 'thinking':
      return [
        {
          text: block.thinking ?? '',
          thought: true,
          ...(block.signature === undefined || block.signature === '' ? {} : { thoughtSignature: block.signature }),
        },
      ];
    case 'tool_use':
      return [
        {
          functionCall: { id: block.id ?? '', name: block.name ?? '', args: isRecord(block.input) ? block.input : {} },
        },
      ];
    case 'redacted_thinking':
      // Thinking the model may not show: an empty thought whose data goes back to Anthropic, and nowhere else.
      return [{ text: '', thought: true, providerMetadata: { anthropic: { redactedThinking: block.data ?? '' } } }];
    default:
      // Server-side tool blocks have no part to live in.
      return [];
  }
}

/**
 * Anthropic counts cached input apart: `input_tokens` is only what was neither read from nor written to the cache.
 * `promptTokens` adds both back, so it is the whole prompt as other providers count it; `cachedTokens` is the part
 * read from the cache and `cacheWriteTokens` the part written to it, each present when Anthropic gave it.
 */
export function toUsage(usage: AnthropicUsage): Usage {
  const cacheRead = usage.cache_read_input_tokens ?? undefined;
  const cacheWrite = usage.cache_creation_input_tokens ?? undefined;
  const promptTokens = (usage.input_tokens ?? 0) + (cacheRead ?? 0) + (cacheWrite ?? 0);
  const outputTokens = usage.output_tokens ?? 0;
  const hourWrites = usage.cache_creation?.ephemeral_1h_input_tokens ?? undefined;
  return {
    promptTokens,
    outputTokens,
    ...(cacheRead === undefined ? {} : { cachedTokens: cacheRead }),
    ...(cacheWrite === undefined ? {} : { cacheWriteTokens: cacheWrite }),
    ...(hourWrites === undefined || hourWrites === 0 ? {} : { cacheWrite1hTokens: hourWrites }),
    totalTokens: promptTokens + outputTokens,
  };
}

type OpenBlock = AnthropicResponseBlock & { json: string };

/**
 * Rebuilds a streamed response from its events (`message_start`, `content_block_start`/`_delta`/`_stop`,
 * `message_delta`, `message_stop`) into the response a non-streamed call returns.
 */
export class AnthropicStreamAssembler {
  private readonly blocks = new Map<number, OpenBlock>();
  private merged: AnthropicUsage | undefined;
  private stopReason: string | null = null;
  private stopped = false;

  /** Takes one event; returns the new answer text it carries, to show at once. */
  push(event: AnthropicStreamEvent): string | undefined {
    switch (event.type) {
      case 'message_start':
        this.merged = event.message?.usage == null ? undefined : { ...event.message.usage };
        event.message?.content.forEach((block, index) => this.blocks.set(index, { ...block, json: '' }));
        return undefined;
      case 'content_block_start':
        if (event.content_block !== undefined)
          this.blocks.set(event.index ?? this.blocks.size, { ...event.content_block, json: '' });
        return undefined;
      case 'content_block_delta':
        return this.applyDelta(event);
      case 'message_delta':
        if (event.delta?.stop_reason !== undefined) this.stopReason = event.delta.stop_reason;
        // message_delta carries running totals; a null leaves the count from message_start.
        for (const [key, value] of Object.entries(event.usage ?? {}) as [
          keyof AnthropicUsage,
          number | null | undefined,
        ][]) {
          if (value !== null && value !== undefined) (this.merged ??= {})[key] = value;
        }
        return undefined;
      case 'message_stop':
        this.stopped = true;
        return undefined;
      default:
        return undefined;
    }
  }

  /** The whole response; throws when the stream ended before `message_stop`. */
  finish(): ModelResponse {
    if (!this.stopped)
      throw new ModelError({ provider: 'anthropic', message: 'the stream ended before message_stop', retryable: true });
    const content = [...this.blocks.entries()].sort(([a], [b]) => a - b).map(([, block]) => closeBlock(block));
    return fromAnthropicResponse({ content, stop_reason: this.stopReason, usage: this.merged ?? {} });
  }

  /** The usage in Anthropic's own fields, `message_start`'s with `message_delta`'s final counts over it. */
  usage(): AnthropicUsage | undefined {
    return this.merged;
  }

  private applyDelta(event: AnthropicStreamEvent): string | undefined {
    const block = this.blocks.get(event.index ?? -1);
    const delta = event.delta;
    if (block === undefined || delta === undefined) return undefined;
    switch (delta.type) {
      case 'text_delta':
        block.text = (block.text ?? '') + (delta.text ?? '');
        return delta.text === '' ? undefined : delta.text;
      case 'thinking_delta':
        block.thinking = (block.thinking ?? '') + (delta.thinking ?? '');
        return undefined;
      case 'signature_delta':
        block.signature = (block.signature ?? '') + (delta.signature ?? '');
        return undefined;
      case 'input_json_delta':
        block.json += delta.partial_json ?? '';
        return undefined;
      default:
        return undefined;
    }
  }
}

function closeBlock(block: OpenBlock): AnthropicResponseBlock {
  const { json, ...rest } = block;
  if (rest.type !== 'tool_use' || json === '') return rest;
  try {
    return { ...rest, input: JSON.parse(json) as unknown };
  } catch (error) {
    throw new ModelError({
      provider: 'anthropic',
      message: `tool_use '${rest.name ?? ''}' arrived with arguments that are not JSON: ${json.slice(0, 200)}`,
      retryable: false,
      cause: error,
    });
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
