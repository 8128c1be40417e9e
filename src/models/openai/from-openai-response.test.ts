import { describe, expect, it } from 'vitest';
import { createStreamAssembler, fromOpenAIUsage } from './from-openai-response.js';

describe('fromOpenAIUsage', () => {
  it('reads cached and reasoning tokens from their details, which the totals already include', () => {
    expect(
      fromOpenAIUsage({
        prompt_tokens: 2006,
        completion_tokens: 300,
        total_tokens: 2306,
        prompt_tokens_details: { cached_tokens: 1920 },
        completion_tokens_details: { reasoning_tokens: 256 },
      }),
    ).toEqual({ promptTokens: 2006, outputTokens: 300, cachedTokens: 1920, reasoningTokens: 256, totalTokens: 2306 });
  });

  it('gives only the counts the provider gave, zeros included', () => {
    expect(
      fromOpenAIUsage({
        prompt_tokens: 5,
        completion_tokens_details: { reasoning_tokens: 0 },
        prompt_tokens_details: null,
      }),
    ).toEqual({ promptTokens: 5, reasoningTokens: 0 });
    expect(fromOpenAIUsage({ completion_tokens_details: { reasoning_tokens: null } })).toBeUndefined();
    expect(fromOpenAIUsage(null)).toBeUndefined();
  });
});

describe('createStreamAssembler: usage', () => {
  it('keeps the usage of the last chunk that had one, as the provider sent it', () => {
    const assembler = createStreamAssembler();
    expect(assembler.usage()).toBeUndefined();
    const usage = {
      prompt_tokens: 10,
      completion_tokens: 2,
      total_tokens: 12,
      completion_tokens_details: { reasoning_tokens: 1 },
    };
    assembler.add({ choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }], usage: null });
    assembler.add({ choices: [], usage });
    expect(assembler.usage()).toBe(usage);
    expect(assembler.finish().usage).toEqual({
      promptTokens: 10,
      outputTokens: 2,
      reasoningTokens: 1,
      totalTokens: 12,
    });
  });
});
