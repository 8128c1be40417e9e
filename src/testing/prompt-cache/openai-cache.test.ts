import { describe, expect, it } from 'vitest';
import {
  OpenAICacheSimulator,
  openAICachedTokens,
  splitOpenAIPrompt,
  toOpenAIResponsesUsage,
  type OpenAIChatUsage,
} from './openai-cache.js';
import type { TokenCounter } from './prompt-blocks.js';

// One token per word (the canonical JSON of a message has no spaces outside its strings).
const countWords: TokenCounter = (text) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length);
const words = (n: number): string => Array.from({ length: n }, () => 'w').join(' ');
const MODEL = 'gpt-4.1';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function simulator(clock: { t: number }): OpenAICacheSimulator {
  return new OpenAICacheSimulator({ now: () => clock.t, countTokens: countWords });
}

const chat = (...sizes: number[]) => ({
  model: MODEL,
  messages: sizes.map((size, index) => ({
    role: index === 0 ? 'system' : index % 2 === 1 ? 'user' : 'assistant',
    content: words(size),
  })),
});

const usage = (prompt: number, cached: number, completion = 0): OpenAIChatUsage => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  prompt_tokens_details: { cached_tokens: cached },
});

describe('openAICachedTokens', () => {
  it('counts 1024 and then whole steps of 128', () => {
    expect(openAICachedTokens(1023)).toBe(0);
    expect(openAICachedTokens(1024)).toBe(1024);
    expect(openAICachedTokens(1151)).toBe(1024);
    expect(openAICachedTokens(1152)).toBe(1152);
    expect(openAICachedTokens(5000)).toBe(4992);
  });
});

describe('OpenAICacheSimulator', () => {
  it('hits the longest prefix seen before, rounded to 1024 + 128k', () => {
    const sim = simulator({ t: 0 });
    expect(sim.bill(chat(1100, 10), { completionTokens: 9 })).toEqual(usage(1110, 0, 9));
    // Shares the system message only: 1100 → 1024.
    expect(sim.bill(chat(1100, 12))).toEqual(usage(1112, 1024));
    // Shares all of call 1 (1110) → 1024.
    expect(sim.bill(chat(1100, 10, 20, 300))).toEqual(usage(1430, 1024));
    // Shares all of call 3 (1430) → 1024 + 3 × 128.
    expect(sim.bill(chat(1100, 10, 20, 300, 30, 5))).toEqual(usage(1465, 1408));
    // The same prompt again: 1465 → 1408.
    expect(sim.bill(chat(1100, 10, 20, 300, 30, 5))).toEqual(usage(1465, 1408));
  });

  it('caches nothing below 1024 tokens', () => {
    const sim = simulator({ t: 0 });
    expect(sim.bill(chat(1000, 10))).toEqual(usage(1010, 0));
    expect(sim.bill(chat(1000, 10))).toEqual(usage(1010, 0));
    // Shares 1010 with the calls before, which were too short to be cached anyway.
    expect(sim.bill(chat(1000, 10, 200))).toEqual(usage(1210, 0));
    expect(sim.bill(chat(1000, 10, 200, 5))).toEqual(usage(1215, 1152));
  });

  it('routes by prompt_cache_key and model; without a key, by the first 256 tokens', () => {
    const sim = simulator({ t: 0 });
    const body = chat(1100, 10);
    expect(sim.bill({ ...body, prompt_cache_key: 'a' })).toEqual(usage(1110, 0));
    expect(sim.bill({ ...body, prompt_cache_key: 'b' })).toEqual(usage(1110, 0));
    expect(sim.bill(body)).toEqual(usage(1110, 0));
    expect(sim.bill({ ...body, prompt_cache_key: 'a' })).toEqual(usage(1110, 1024));
    expect(sim.bill(body)).toEqual(usage(1110, 1024));
    expect(sim.bill({ ...body, model: 'gpt-4o' })).toEqual(usage(1110, 0));
    expect(sim.bill({ ...body, model: 'gpt-4o', prompt_cache_key: 'a' })).toEqual(usage(1110, 0));
  });

  it('keeps in-memory prefixes 10 minutes after their last use', () => {
    const clock = { t: 0 };
    const sim = simulator(clock);
    const body = chat(1100, 10);
    sim.bill(body);
    clock.t = 10 * MINUTE - 1;
    expect(sim.bill(body)).toEqual(usage(1110, 1024));
    clock.t = 20 * MINUTE - 2;
    expect(sim.bill(body)).toEqual(usage(1110, 1024));
    clock.t = 30 * MINUTE - 2;
    expect(sim.bill(body)).toEqual(usage(1110, 0));
  });

  it("keeps '24h' prefixes a day, and an in-memory call does not shorten them", () => {
    const clock = { t: 0 };
    const sim = simulator(clock);
    const body = { ...chat(1100, 10), prompt_cache_retention: '24h' };
    sim.bill(body);
    clock.t = 1 * HOUR;
    expect(sim.bill({ ...body, prompt_cache_retention: 'in_memory' })).toEqual(usage(1110, 1024));
    clock.t = 23 * HOUR;
    expect(sim.bill(body)).toEqual(usage(1110, 1024));
    clock.t = 47 * HOUR;
    expect(sim.bill(body)).toEqual(usage(1110, 0));
  });

  it('puts tools and the response format before the messages', () => {
    const sim = simulator({ t: 0 });
    const tool = (name: string) => ({
      type: 'function',
      function: { name, description: words(600), parameters: { type: 'object' } },
    });
    const body = {
      model: MODEL,
      tools: [tool('a')],
      response_format: { type: 'json_schema', json_schema: { name: 'x', description: words(500) } },
      messages: [{ role: 'user', content: words(10) }],
    };
    expect(splitOpenAIPrompt(body).map((block) => block.kind)).toEqual(['tool', 'format', 'message']);
    expect(sim.bill(body)).toEqual(usage(1110, 0));
    expect(sim.bill({ ...body, messages: [{ role: 'user', content: words(11) }] })).toEqual(usage(1111, 1024));
    // A different tool changes the whole prefix.
    expect(sim.bill({ ...body, tools: [tool('b')] })).toEqual(usage(1110, 0));
  });

  it('bills Responses API bodies (instructions, then input) in the Responses shape', () => {
    const sim = simulator({ t: 0 });
    const body = { model: MODEL, instructions: words(1100), input: 'w w' };
    expect(sim.billResponses(body, { outputTokens: 5, reasoningTokens: 3 })).toEqual({
      input_tokens: 1102,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: 5,
      output_tokens_details: { reasoning_tokens: 3 },
      total_tokens: 1107,
    });
    const next = {
      ...body,
      input: [
        { role: 'user', content: 'w w' },
        { type: 'function_call_output', call_id: 'c', output: words(300) },
      ],
    };
    expect(sim.billResponses(next).input_tokens_details.cached_tokens).toBe(1024);
    expect(toOpenAIResponsesUsage(usage(10, 4, 2))).toEqual({
      input_tokens: 10,
      input_tokens_details: { cached_tokens: 4 },
      output_tokens: 2,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 12,
    });
  });
});
