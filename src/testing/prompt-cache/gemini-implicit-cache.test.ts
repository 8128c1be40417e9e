import { describe, expect, it } from 'vitest';
import {
  defaultGeminiMinCacheableTokens,
  GeminiImplicitCacheSimulator,
  splitGeminiPrompt,
  type GeminiUsageMetadata,
} from './gemini-implicit-cache.js';
import type { TokenCounter } from './prompt-blocks.js';

// One token per word (the canonical JSON of a part has no spaces outside its strings).
const countWords: TokenCounter = (text) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length);
const words = (n: number): string => Array.from({ length: n }, () => 'w').join(' ');
const MODEL = 'gemini-2.5-flash';
const MINUTE = 60_000;

function simulator(clock: { t: number }, minimum = 1024): GeminiImplicitCacheSimulator {
  return new GeminiImplicitCacheSimulator({
    now: () => clock.t,
    countTokens: countWords,
    minCacheableTokens: () => minimum,
  });
}

const body = (system: number, ...turns: number[]) => ({
  systemInstruction: { parts: [{ text: words(system) }] },
  contents: turns.map((size, index) => ({ role: index % 2 === 0 ? 'user' : 'model', parts: [{ text: words(size) }] })),
});

const usage = (prompt: number, cached: number | undefined, candidates = 0): GeminiUsageMetadata => ({
  promptTokenCount: prompt,
  ...(cached === undefined ? {} : { cachedContentTokenCount: cached }),
  candidatesTokenCount: candidates,
  totalTokenCount: prompt + candidates,
});

describe('GeminiImplicitCacheSimulator', () => {
  it('reports the shared prefix as cached once it reaches the minimum', () => {
    const sim = simulator({ t: 0 });
    expect(sim.bill(MODEL, body(1100, 3), { candidatesTokens: 8 })).toEqual(usage(1103, undefined, 8));
    // Shares the system instruction (1100), not the first turn.
    expect(sim.bill(MODEL, body(1100, 4))).toEqual(usage(1104, 1100));
    // Shares all of call 2 (1104).
    expect(sim.bill(MODEL, body(1100, 4, 6, 2))).toEqual(usage(1112, 1104));
    // No rounding: the whole of call 3 (1112).
    expect(sim.bill(MODEL, body(1100, 4, 6, 2, 9, 1))).toEqual(usage(1122, 1112));
  });

  it('reports nothing for a shared prefix below the minimum', () => {
    const sim = simulator({ t: 0 });
    sim.bill(MODEL, body(1000, 3));
    expect(sim.bill(MODEL, body(1000, 4))).toEqual(usage(1004, undefined));
    expect(sim.bill(MODEL, body(1000, 3, 30))).toEqual(usage(1033, undefined));
    // 1033 was long enough to leave its prefixes: shared 1033.
    expect(sim.bill(MODEL, body(1000, 3, 30, 1))).toEqual(usage(1034, 1033));
  });

  it('keeps one cache per model and forgets a prefix 5 minutes after its last use', () => {
    const clock = { t: 0 };
    const sim = simulator(clock);
    sim.bill(MODEL, body(1100, 3));
    expect(sim.bill('gemini-2.5-pro', body(1100, 3))).toEqual(usage(1103, undefined));
    expect(sim.bill(`models/${MODEL}`, body(1100, 3))).toEqual(usage(1103, 1103));
    clock.t = 5 * MINUTE - 1;
    expect(sim.bill(MODEL, body(1100, 3))).toEqual(usage(1103, 1103));
    clock.t = 10 * MINUTE - 1;
    expect(sim.bill(MODEL, body(1100, 3))).toEqual(usage(1103, undefined));
    // A new prefix lives exactly 5 minutes.
    sim.bill(MODEL, body(1200, 3));
    clock.t = 15 * MINUTE - 1;
    expect(sim.bill(MODEL, body(1200, 3))).toEqual(usage(1203, undefined));
  });

  it('splits system instruction, tools, tool config and content parts, in that order, in any spelling', () => {
    const request = {
      contents: [{ role: 'user', parts: [{ text: 'a' }, { text: 'b' }] }],
      tools: [{ functionDeclarations: [{ name: 'f', description: 'd' }] }],
      toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
      systemInstruction: { parts: [{ text: 's' }] },
    };
    expect(splitGeminiPrompt(request).map((block) => block.kind)).toEqual([
      'system',
      'tool',
      'toolConfig',
      'part',
      'part',
    ]);
    const snake = {
      contents: request.contents,
      tools: request.tools,
      tool_config: request.toolConfig,
      system_instruction: request.systemInstruction,
    };
    expect(splitGeminiPrompt(snake)).toEqual(splitGeminiPrompt(request));
    const sdk = {
      contents: request.contents,
      config: { systemInstruction: request.systemInstruction, tools: request.tools, toolConfig: request.toolConfig },
    };
    expect(splitGeminiPrompt(sdk)).toEqual(splitGeminiPrompt(request));
  });

  it('adds the tokens of an explicit cache a body names, and an implicit hit after them', () => {
    const sim = simulator({ t: 0 });
    const cached = { cachedContent: 'cachedContents/abc', contents: [{ role: 'user', parts: [{ text: words(3) }] }] };
    expect(sim.bill(MODEL, cached, { cachedContentTokens: 5000 })).toEqual(usage(5003, 5000));
    const next = {
      ...cached,
      contents: [
        ...cached.contents,
        { role: 'model', parts: [{ text: words(5) }] },
        { role: 'user', parts: [{ text: words(4) }] },
      ],
    };
    expect(sim.bill(MODEL, next, { cachedContentTokens: 5000 })).toEqual(usage(5012, 5003));
    // Another cache: the same contents share nothing.
    expect(sim.bill(MODEL, { ...next, cachedContent: 'cachedContents/other' }, { cachedContentTokens: 5000 })).toEqual(
      usage(5012, 5000),
    );
    expect(() => sim.bill(MODEL, cached)).toThrow(/cachedContentTokens/);
    const withLookup = new GeminiImplicitCacheSimulator({
      countTokens: countWords,
      cachedContentTokens: (name) => (name === 'cachedContents/abc' ? 2000 : 0),
    });
    expect(withLookup.bill(MODEL, cached).promptTokenCount).toBe(2003);
  });

  it('adds thinking tokens to the total', () => {
    const sim = simulator({ t: 0 });
    expect(sim.bill(MODEL, body(10, 3), { candidatesTokens: 4, thoughtsTokens: 6 })).toEqual({
      promptTokenCount: 13,
      candidatesTokenCount: 4,
      thoughtsTokenCount: 6,
      totalTokenCount: 23,
    });
  });

  it('has a documented minimum per model', () => {
    expect(defaultGeminiMinCacheableTokens('gemini-2.5-flash')).toBe(2048);
    expect(defaultGeminiMinCacheableTokens('models/gemini-2.5-pro')).toBe(2048);
    expect(defaultGeminiMinCacheableTokens('gemini-3-flash-preview')).toBe(1024);
    expect(defaultGeminiMinCacheableTokens('gemini-3-pro-preview')).toBe(4096);
    expect(defaultGeminiMinCacheableTokens('gemini-3.1-pro-preview')).toBe(4096);
    expect(defaultGeminiMinCacheableTokens('gemini-2.0-flash')).toBe(Number.POSITIVE_INFINITY);
  });
});
