import { describe, expect, it } from 'vitest';
import { calibrate } from './calibration.js';
import { countRequestTokens } from './count-request-tokens.js';
import { loadTokenCounter } from './token-counter.js';

describe('countRequestTokens', () => {
  it('counts each system block, tool and message part, and adds message framing', async () => {
    const counter = await loadTokenCounter();
    const request = {
      system: 'First block.\n\nSecond block is longer than the first.',
      tools: [{ name: 'add', description: 'Adds.', parameters: { type: 'object' } }],
      messages: [
        {
          role: 'user' as const,
          content: [{ text: 'hello world' }, { inlineData: { mimeType: 'image/png', data: 'AAAA' } }],
        },
        { role: 'model' as const, content: [{ functionCall: { name: 'add', args: { a: 1 } } }] },
      ],
      config: {},
    };
    const provenance = {
      system: [
        { start: 0, end: 12, source: { kind: 'instruction' as const, processor: 'p', agent: 'a' } },
        { start: 14, end: request.system.length, source: { kind: 'identity' as const, processor: 'p', agent: 'a' } },
      ],
      tools: [],
      messages: [],
    };
    const count = countRequestTokens(request, counter, provenance);
    expect(count.system.blocks).toEqual([
      counter.count('First block.'),
      counter.count('\n\nSecond block is longer than the first.'),
    ]);
    expect(count.messages.each[0]?.parts).toEqual([counter.count('hello world'), 258]);
    expect(count.framing).toBe(3 + 3 * 2 + 3);
    expect(count.total).toBe(count.system.total + count.tools.total + count.messages.total + count.framing);
  });

  it('counts special-token text as plain text instead of failing', async () => {
    const counter = await loadTokenCounter();
    expect(counter.count('before <|endoftext|> after')).toBeGreaterThan(3);
  });
});

describe('calibrate', () => {
  it('fits the median of billed / estimate and reports the spread', () => {
    const result = calibrate([
      { index: 1, agent: 'a', estimate: 100, billed: 110 },
      { index: 2, agent: 'a', estimate: 200, billed: 240 },
      { index: 3, agent: 'a', estimate: 50, billed: undefined },
      { index: 4, agent: 'a', estimate: 100, billed: 300 },
    ]);
    expect(result.factor).toBeCloseTo(1.2);
    expect(result.spread).toBeCloseTo(1.5);
    expect(result.rows[2]?.ratio).toBeUndefined();
    expect(calibrate([]).factor).toBeUndefined();
  });
});
