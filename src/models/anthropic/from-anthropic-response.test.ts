import { describe, expect, it } from 'vitest';
import {
  AnthropicStreamAssembler,
  toUsage,
  type AnthropicStreamEvent,
  type AnthropicUsage,
} from './from-anthropic-response.js';

describe('toUsage', () => {
  it('counts the whole prompt, cache reads and writes included, and names each cache part', () => {
    expect(
      toUsage({ input_tokens: 120, cache_read_input_tokens: 300, cache_creation_input_tokens: 20, output_tokens: 45 }),
    ).toEqual({
      promptTokens: 440,
      outputTokens: 45,
      cachedTokens: 300,
      cacheWriteTokens: 20,
      totalTokens: 485,
    });
  });

  it('gives cache counts only when Anthropic gave them (zeros included)', () => {
    expect(toUsage({ input_tokens: 50, output_tokens: 12 })).toEqual({
      promptTokens: 50,
      outputTokens: 12,
      totalTokens: 62,
    });
    expect(
      toUsage({ input_tokens: 50, output_tokens: 12, cache_read_input_tokens: 0, cache_creation_input_tokens: null }),
    ).toEqual({ promptTokens: 50, outputTokens: 12, cachedTokens: 0, totalTokens: 62 });
  });
});

describe('AnthropicStreamAssembler: usage', () => {
  const start = (usage: AnthropicUsage | null): AnthropicStreamEvent => ({
    type: 'message_start',
    message: { content: [], stop_reason: null, usage },
  });

  it("merges message_delta's final counts over message_start's, keeping Anthropic's own fields", () => {
    const assembler = new AnthropicStreamAssembler();
    expect(assembler.usage()).toBeUndefined();
    // Fields agentctx does not read (service_tier) are kept too.
    const first = {
      input_tokens: 120,
      cache_read_input_tokens: 300,
      cache_creation_input_tokens: 20,
      output_tokens: 1,
      service_tier: 'standard',
    };
    assembler.push(start(first));
    assembler.push({
      type: 'message_delta',
      delta: { stop_reason: 'end_turn' },
      usage: { output_tokens: 45, input_tokens: null },
    });
    assembler.push({ type: 'message_stop' });
    expect(assembler.usage()).toEqual({
      input_tokens: 120,
      cache_read_input_tokens: 300,
      cache_creation_input_tokens: 20,
      output_tokens: 45,
      service_tier: 'standard',
    });
    expect(assembler.finish().usage).toEqual({
      promptTokens: 440,
      outputTokens: 45,
      cachedTokens: 300,
      cacheWriteTokens: 20,
      totalTokens: 485,
    });
  });

  it('has no usage when no event carried any, and counts zero as before', () => {
    const assembler = new AnthropicStreamAssembler();
    assembler.push(start(null));
    assembler.push({ type: 'message_stop' });
    expect(assembler.usage()).toBeUndefined();
    expect(assembler.finish().usage).toEqual({ promptTokens: 0, outputTokens: 0, totalTokens: 0 });
  });
});
