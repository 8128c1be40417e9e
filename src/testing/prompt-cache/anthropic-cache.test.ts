import { describe, expect, it } from 'vitest';
import {
  AnthropicCacheRequestError,
  AnthropicCacheSimulator,
  defaultAnthropicMinCacheableTokens,
  type AnthropicCacheUsage,
} from './anthropic-cache.js';
import type { TokenCounter } from './prompt-blocks.js';

// One token per word: the canonical JSON of a block has no spaces outside its strings, so a text block of n words
// counts n tokens and the numbers below can be checked by hand.
const countWords: TokenCounter = (text) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length);
const words = (n: number): string => Array.from({ length: n }, () => 'w').join(' ');
const MODEL = 'claude-sonnet-4-5';
const MIN = 10;

function simulator(clock: { t: number }, minimum = MIN): AnthropicCacheSimulator {
  return new AnthropicCacheSimulator({
    now: () => clock.t,
    countTokens: countWords,
    minCacheableTokens: () => minimum,
  });
}

const mark5m = { type: 'ephemeral' } as const;
const mark1h = { type: 'ephemeral', ttl: '1h' } as const;
const text = (n: number, mark?: object) => ({
  type: 'text',
  text: words(n),
  ...(mark === undefined ? {} : { cache_control: mark }),
});

function usage(input: number, read: number, fiveMinutes: number, oneHour = 0, output = 0): AnthropicCacheUsage {
  return {
    input_tokens: input,
    cache_creation_input_tokens: fiveMinutes + oneHour,
    cache_read_input_tokens: read,
    cache_creation: { ephemeral_5m_input_tokens: fiveMinutes, ephemeral_1h_input_tokens: oneHour },
    output_tokens: output,
  };
}

const MINUTE = 60_000;

describe('AnthropicCacheSimulator', () => {
  it('reads and writes breakpoints across a six-call growing conversation', () => {
    const clock = { t: 0 };
    const sim = simulator(clock);
    const system = [text(30, mark1h)];
    // Turn k: the user sends [4 words (marked while it is the newest turn), 2 words]; the assistant answers 6 words.
    const history = (turns: number) => {
      const messages: object[] = [];
      for (let k = 1; k <= turns; k++) {
        messages.push({ role: 'user', content: [text(4, k === turns ? mark5m : undefined), text(2)] });
        if (k < turns) messages.push({ role: 'assistant', content: [text(6)] });
      }
      return { model: MODEL, max_tokens: 100, system, messages };
    };
    // Call 1: S ends at 30 (1h write), the user's first block at 34 (5m write of 4); 2 tokens after the last mark.
    expect(sim.bill(history(1), { outputTokens: 7 })).toEqual(usage(2, 0, 4, 30, 7));
    // Call 2: prefix ends 30 | 34 | 36 | a1 42 | u2A 46 | 48. The mark at 46 looks back to 34 (read); writes 46 − 34.
    clock.t = 1 * MINUTE;
    expect(sim.bill(history(2))).toEqual(usage(2, 34, 12));
    clock.t = 2 * MINUTE;
    expect(sim.bill(history(3))).toEqual(usage(2, 46, 12));
    // Six minutes later every 5m entry has expired; the 1h system entry (refreshed at each call) is read.
    clock.t = 8 * MINUTE;
    expect(sim.bill(history(4))).toEqual(usage(2, 30, 40));
    clock.t = 9 * MINUTE;
    expect(sim.bill(history(5))).toEqual(usage(2, 70, 12));
    // 4 minutes after call 5, its 5m entry (at 82) is still live.
    clock.t = 13 * MINUTE;
    expect(sim.bill(history(6))).toEqual(usage(2, 82, 12));
  });

  describe('look-back', () => {
    // Call 1: S (30, unmarked) and one marked 2-word block: an entry at block 1, 32 tokens.
    const first = {
      model: MODEL,
      max_tokens: 10,
      system: words(30),
      messages: [{ role: 'user', content: [text(2, mark5m)] }],
    };
    // Call 2: the same message with `extra` 1-word blocks after it, the last one marked (and optionally another).
    const grown = (extra: number, alsoMark?: number) => {
      const blocks = [
        text(2),
        ...Array.from({ length: extra }, (_, i) => text(1, i === extra - 1 || i === alsoMark ? mark5m : undefined)),
      ];
      return { model: MODEL, max_tokens: 10, system: words(30), messages: [{ role: 'user', content: blocks }] };
    };

    it('finds an entry 19 blocks before the breakpoint', () => {
      const sim = simulator({ t: 0 });
      expect(sim.bill(first)).toEqual(usage(0, 0, 32));
      expect(sim.bill(grown(19))).toEqual(usage(0, 32, 19));
    });

    it('finds an entry exactly 20 blocks back (the breakpoint and the 20 boundaries before it are checked)', () => {
      const sim = simulator({ t: 0 });
      sim.bill(first);
      expect(sim.bill(grown(20))).toEqual(usage(0, 32, 20));
    });

    it('misses an entry 21 blocks back, and writes the whole prefix again', () => {
      const sim = simulator({ t: 0 });
      sim.bill(first);
      expect(sim.bill(grown(21))).toEqual(usage(0, 0, 53));
    });

    it('reads through a second breakpoint within reach; entries of the same request are not readable by it', () => {
      const sim = simulator({ t: 0 });
      sim.bill(first);
      // Marks at block 11 (42 tokens) and block 22 (53): the first reads 32; the second cannot see block 11's new entry.
      expect(sim.bill(grown(21, 9))).toEqual(usage(0, 32, 21));
      expect(sim.size).toBe(3);
    });
  });

  it('neither reads nor writes a prefix below the minimum', () => {
    const sim = simulator({ t: 0 }, 50);
    const small = {
      model: MODEL,
      max_tokens: 10,
      system: [text(30, mark5m)],
      messages: [{ role: 'user', content: [text(10, mark5m)] }],
    };
    expect(sim.bill(small)).toEqual(usage(40, 0, 0));
    expect(sim.bill(small)).toEqual(usage(40, 0, 0));
    expect(sim.size).toBe(0);
    // The system prefix (30) stays too short; the prefix at the message (60) is cached.
    const large = { ...small, messages: [{ role: 'user', content: [text(30, mark5m)] }] };
    expect(sim.bill(large)).toEqual(usage(0, 0, 60));
    expect(sim.bill(large)).toEqual(usage(0, 60, 0));
  });

  it('has a documented minimum per model family', () => {
    expect(defaultAnthropicMinCacheableTokens('claude-opus-4-5-20251101')).toBe(4096);
    expect(defaultAnthropicMinCacheableTokens('claude-opus-4-6')).toBe(4096);
    expect(defaultAnthropicMinCacheableTokens('claude-haiku-4-5-20251001')).toBe(4096);
    expect(defaultAnthropicMinCacheableTokens('claude-opus-4-1-20250805')).toBe(1024);
    expect(defaultAnthropicMinCacheableTokens('claude-opus-4-20250514')).toBe(1024);
    expect(defaultAnthropicMinCacheableTokens('claude-sonnet-4-5-20250929')).toBe(1024);
    expect(defaultAnthropicMinCacheableTokens('claude-3-5-haiku-20241022')).toBe(2048);
    expect(defaultAnthropicMinCacheableTokens('claude-3-haiku-20240307')).toBe(2048);
  });

  it('expires an entry after its TTL, and a read refreshes it', () => {
    const clock = { t: 0 };
    const sim = simulator(clock);
    const body = {
      model: MODEL,
      max_tokens: 10,
      system: [text(30, mark5m)],
      messages: [{ role: 'user', content: 'w w' }],
    };
    expect(sim.bill(body)).toEqual(usage(2, 0, 30));
    clock.t = 4 * MINUTE;
    expect(sim.bill(body)).toEqual(usage(2, 30, 0));
    // 8 minutes after the write, but 4 after the read that refreshed it.
    clock.t = 8 * MINUTE;
    expect(sim.bill(body)).toEqual(usage(2, 30, 0));
    // Exactly 5 minutes after the last read: gone.
    clock.t = 13 * MINUTE;
    expect(sim.bill(body)).toEqual(usage(2, 0, 30));
  });

  it('bills 1h and 5m writes apart, and keeps 1h entries for an hour', () => {
    const clock = { t: 0 };
    const sim = simulator(clock);
    const body = {
      model: MODEL,
      max_tokens: 10,
      tools: [{ name: 'lookup', description: words(20), input_schema: { type: 'object' }, cache_control: mark1h }],
      system: [text(10, mark1h)],
      messages: [{ role: 'user', content: [text(5, mark5m), text(3)] }],
    };
    expect(sim.bill(body)).toEqual(usage(3, 0, 5, 30));
    clock.t = 10 * MINUTE;
    expect(sim.bill(body)).toEqual(usage(3, 30, 5));
    clock.t = 69 * MINUTE;
    expect(sim.bill(body)).toEqual(usage(3, 30, 5));
    clock.t = 130 * MINUTE;
    expect(sim.bill(body)).toEqual(usage(3, 0, 5, 30));
  });

  it('refuses more than 4 breakpoints, and a 1h breakpoint after a 5m one, with a 400 body', () => {
    const sim = simulator({ t: 0 });
    const five = {
      model: MODEL,
      max_tokens: 10,
      messages: [{ role: 'user', content: [1, 2, 3, 4, 5].map(() => text(3, mark5m)) }],
    };
    let error: unknown;
    try {
      sim.bill(five);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AnthropicCacheRequestError);
    expect((error as AnthropicCacheRequestError).status).toBe(400);
    expect((error as AnthropicCacheRequestError).body()).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.',
      },
    });
    // Four explicit marks plus the top-level form on an unmarked last block is five.
    const four = {
      model: MODEL,
      max_tokens: 10,
      cache_control: mark5m,
      messages: [{ role: 'user', content: [...[1, 2, 3, 4].map(() => text(3, mark5m)), text(1)] }],
    };
    expect(() => sim.bill(four)).toThrow(AnthropicCacheRequestError);
    // …but not when the last block carries one of the four.
    const fourOnLast = { ...four, messages: [{ role: 'user', content: [1, 2, 3, 4].map(() => text(3, mark5m)) }] };
    expect(() => sim.bill(fourOnLast)).not.toThrow();
    const shortFirst = {
      model: MODEL,
      max_tokens: 10,
      system: [text(30, mark5m)],
      messages: [{ role: 'user', content: [text(3, mark1h)] }],
    };
    expect(() => sim.bill(shortFirst)).toThrow(/1h/);
    expect(() => sim.bill({ ...shortFirst, system: [text(30, { type: 'persistent' })] })).toThrow(
      AnthropicCacheRequestError,
    );
  });

  it('places the top-level breakpoint on the last cacheable block, moving it forward as the conversation grows', () => {
    const sim = simulator({ t: 0 });
    const call1 = {
      model: MODEL,
      max_tokens: 10,
      cache_control: mark5m,
      system: words(30),
      messages: [{ role: 'user', content: 'w w w w' }],
    };
    expect(sim.bill(call1)).toEqual(usage(0, 0, 34));
    const call2 = {
      ...call1,
      messages: [
        { role: 'user', content: 'w w w w' },
        { role: 'assistant', content: [text(6)] },
        { role: 'user', content: [text(4), { type: 'thinking', thinking: 'w w', signature: 'sig' }] },
      ],
    };
    // The thinking block cannot carry the mark: it goes on the text before it (44), read 34, 2 tokens after it.
    expect(sim.bill(call2)).toEqual(usage(2, 34, 10));
  });

  it('keeps one cache per model', () => {
    const sim = simulator({ t: 0 });
    const body = {
      model: MODEL,
      max_tokens: 10,
      system: [text(30, mark5m)],
      messages: [{ role: 'user', content: 'w' }],
    };
    expect(sim.bill(body)).toEqual(usage(1, 0, 30));
    expect(sim.bill({ ...body, model: 'claude-opus-4-1' })).toEqual(usage(1, 0, 30));
    expect(sim.bill(body)).toEqual(usage(1, 30, 0));
  });

  it('keeps the tools and system entries when tool_choice changes, and misses the messages', () => {
    const sim = simulator({ t: 0 });
    const body = {
      model: MODEL,
      max_tokens: 10,
      tools: [{ name: 'lookup', description: words(20), input_schema: { type: 'object' } }],
      system: [text(10, mark5m)],
      messages: [{ role: 'user', content: [text(5, mark5m)] }],
    };
    expect(sim.bill(body)).toEqual(usage(0, 0, 35));
    expect(sim.bill(body)).toEqual(usage(0, 35, 0));
    expect(sim.bill({ ...body, tool_choice: { type: 'any' } })).toEqual(usage(0, 30, 5));
    // A changed tool changes everything after it.
    expect(
      sim.bill({ ...body, tools: [{ name: 'lookup2', description: words(20), input_schema: { type: 'object' } }] }),
    ).toEqual(usage(0, 0, 35));
  });

  it('treats a string system or content as the equal text block, and ignores where marks sit', () => {
    const sim = simulator({ t: 0 });
    sim.bill({
      model: MODEL,
      max_tokens: 10,
      system: [text(30, mark5m)],
      messages: [{ role: 'user', content: [text(3, mark5m)] }],
    });
    expect(
      sim.bill({
        model: MODEL,
        max_tokens: 10,
        cache_control: mark5m,
        system: words(30),
        messages: [{ role: 'user', content: words(3) }],
      }),
    ).toEqual(usage(0, 33, 0));
  });
});
