import { describe, expect, it } from 'vitest';
import { createGeminiStreamAssembler, fromGeminiUsage } from './from-gemini-response.js';

describe('fromGeminiUsage', () => {
  it('counts thoughts as output and as reasoning, and cached content as cached input', () => {
    expect(
      fromGeminiUsage({
        promptTokenCount: 120,
        cachedContentTokenCount: 100,
        candidatesTokenCount: 30,
        thoughtsTokenCount: 12,
        totalTokenCount: 162,
      }),
    ).toEqual({
      promptTokens: 120,
      outputTokens: 42,
      cachedTokens: 100,
      reasoningTokens: 12,
      totalTokens: 162,
    });
  });

  it('gives only the counts Gemini gave', () => {
    expect(fromGeminiUsage({ promptTokenCount: 7, totalTokenCount: 7 })).toEqual({ promptTokens: 7, totalTokens: 7 });
    expect(fromGeminiUsage({ thoughtsTokenCount: 0 })).toEqual({ outputTokens: 0, reasoningTokens: 0 });
    expect(fromGeminiUsage(undefined)).toBeUndefined();
  });
});

describe('createGeminiStreamAssembler: usage', () => {
  it('keeps the last usageMetadata sent, as Gemini sent it', () => {
    const assembler = createGeminiStreamAssembler();
    expect(assembler.usage()).toBeUndefined();
    const last = { promptTokenCount: 120, candidatesTokenCount: 30, thoughtsTokenCount: 12, totalTokenCount: 162 };
    assembler.add({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] } }],
      usageMetadata: { promptTokenCount: 120, totalTokenCount: 120 },
    });
    assembler.add({
      candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP' }],
      usageMetadata: last,
    });
    assembler.add({ candidates: [] });
    expect(assembler.usage()).toBe(last);
  });
});
