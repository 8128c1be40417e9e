import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { ModelCallSummary } from '../../contracts/model-call.js';
import { costOfCall } from './call-cost.js';
import { findPrice, mergePriceTables, parsePriceTable, type PriceTable } from './price-table.js';
import { costOfCalls } from './session-cost.js';

const TABLE: PriceTable = {
  currency: 'USD',
  perTokens: 1_000_000,
  models: [
    {
      provider: 'anthropic',
      model: 'claude-x',
      match: ['claude-x-*'],
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite5m: 3.75,
      cacheWrite1h: 6,
      source: 'https://example.test/a',
      date: '2026-11-01',
    },
    {
      provider: 'google',
      model: 'gemini-y',
      input: 1.25,
      output: 10,
      cacheRead: 0.125,
      cacheStoragePerHour: 4.5,
      above: { inputTokens: 200_000, input: 2.5, output: 15 },
      source: 'https://example.test/g',
      date: '2026-10-01',
    },
    {
      provider: 'openai',
      model: 'gpt-z',
      input: 2,
      output: 8,
      cacheRead: 0.5,
      source: 'https://example.test/o',
      date: '2026-09-01',
    },
  ],
};

describe('costOfCall', () => {
  it('bills each kind of token at its own price: input, cache reads, 5-minute and 1-hour writes, output', () => {
    // Anthropic's usage as normalized: prompt = input 1,000 + read 10,000 + writes 2,000 (500 of them for an hour).
    const cost = costOfCall(
      { provider: 'anthropic', modelId: 'claude-x' },
      {
        promptTokens: 13_000,
        cachedTokens: 10_000,
        cacheWriteTokens: 2_000,
        cacheWrite1hTokens: 500,
        outputTokens: 400,
      },
      TABLE,
    );
    expect(cost.tokens).toEqual({
      input: 1_000,
      cacheRead: 10_000,
      cacheWrite: 2_000,
      cacheWrite1h: 500,
      output: 400,
      reasoning: 0,
      storageTokenHours: 0,
    });
    const usd = cost.usd;
    expect(usd?.input).toBeCloseTo(0.003, 10);
    expect(usd?.cacheRead).toBeCloseTo(0.003, 10);
    expect(usd?.cacheWrite).toBeCloseTo((1_500 * 3.75 + 500 * 6) / 1e6, 10);
    expect(usd?.output).toBeCloseTo(0.006, 10);
    expect(usd?.total).toBeCloseTo(0.003 + 0.003 + 0.008625 + 0.006, 10);
    expect(cost.price).toEqual({
      provider: 'anthropic',
      model: 'claude-x',
      source: 'https://example.test/a',
      date: '2026-11-01',
    });
  });

  it('takes the long-context tier above its threshold, storage per hour, and writes as input where no write price exists', () => {
    const long = costOfCall(
      { provider: 'google', modelId: 'gemini-y' },
      { promptTokens: 300_000, cachedTokens: 100_000, outputTokens: 1_000, cacheStorageTokenHours: 50_000 },
      TABLE,
    );
    expect(long.usd?.input).toBeCloseTo((200_000 * 2.5) / 1e6, 10);
    expect(long.usd?.cacheRead).toBeCloseTo((100_000 * 0.125) / 1e6, 10);
    expect(long.usd?.output).toBeCloseTo((1_000 * 15) / 1e6, 10);
    expect(long.usd?.storage).toBeCloseTo((50_000 * 4.5) / 1e6, 10);
    const written = costOfCall(
      { provider: 'openai', modelId: 'gpt-z' },
      { promptTokens: 2_000, cacheWriteTokens: 1_000 },
      TABLE,
    );
    expect(written.usd?.cacheWrite).toBeCloseTo((1_000 * 2) / 1e6, 10);
  });

  it('guesses nothing: an unknown model, a missing usage or a missing price for a token kind used leaves USD out and says why', () => {
    expect(costOfCall({ provider: 'scripted', modelId: 'demo' }, { promptTokens: 10 }, TABLE)).toEqual({
      tokens: {
        input: 10,
        cacheRead: 0,
        cacheWrite: 0,
        cacheWrite1h: 0,
        output: 0,
        reasoning: 0,
        storageTokenHours: 0,
      },
      unpriced: 'no price known for scripted:demo',
    });
    expect(costOfCall({ provider: 'anthropic', modelId: 'claude-x' }, undefined, TABLE).unpriced).toBe(
      'the call reported no usage',
    );
    const noStorage = costOfCall(
      { provider: 'openai', modelId: 'gpt-z' },
      { promptTokens: 10, cacheStorageTokenHours: 5 },
      TABLE,
    );
    expect(noStorage.usd).toBeUndefined();
    expect(noStorage.unpriced).toBe('the price of gpt-z has no cacheStoragePerHour');
  });
});

describe('price tables', () => {
  it('finds a model by its id, then by the longest pattern, per provider', () => {
    expect(findPrice(TABLE, 'anthropic', 'claude-x-20261101')?.model).toBe('claude-x');
    expect(findPrice(TABLE, 'openai', 'claude-x')).toBeUndefined();
    expect(findPrice(TABLE, 'openai', 'gpt-z-mini')).toBeUndefined();
  });

  it("puts a user's entries over the built-in ones of the same model, converting their unit", () => {
    const mine = parsePriceTable({
      currency: 'USD',
      perTokens: 1000,
      models: [
        { provider: 'openai', model: 'gpt-z', input: 0.001, output: 0.004, source: 'contract', date: '2026-12-01' },
      ],
    });
    const merged = mergePriceTables(TABLE, mine);
    expect(findPrice(merged, 'openai', 'gpt-z')).toMatchObject({ input: 1, output: 4, source: 'contract' });
    expect(findPrice(merged, 'anthropic', 'claude-x')?.input).toBe(3);
  });

  it('names every problem of a bad table with its path', () => {
    const bad = () =>
      parsePriceTable(
        {
          currency: 'EUR',
          perTokens: 0,
          models: [{ provider: 'openai', model: 'm', input: -1, date: 'yesterday', colour: 'red' }],
        },
        'price file p.json',
      );
    expect(bad).toThrow(ValidationError);
    try {
      bad();
    } catch (error) {
      const issues = (error as ValidationError).issues.map((issue) => issue.path);
      expect(issues).toEqual([
        'currency',
        'perTokens',
        'models[0].colour',
        'models[0].source',
        'models[0].date',
        'models[0].input',
      ]);
      expect((error as ValidationError).message).toMatch(/^Invalid price file p\.json: currency: must be "USD"/);
    }
  });
});

describe('costOfCalls', () => {
  it('adds calls up per invocation and in all, with the share of the prompt read from the cache', () => {
    const call = (
      index: number,
      invocationId: string,
      usage: ModelCallSummary['usage'],
      model = { provider: 'anthropic', modelId: 'claude-x' },
    ): ModelCallSummary => ({
      index,
      invocationId,
      agent: 'a',
      timestamp: index,
      model,
      editedByCallback: false,
      status: 'answered',
      requestChars: 0,
      ...(usage === undefined ? {} : { usage }),
    });
    const report = costOfCalls(
      [
        call(1, 'i1', { promptTokens: 2_000, cacheWriteTokens: 1_500, outputTokens: 10 }),
        call(2, 'i1', { promptTokens: 2_100, cachedTokens: 1_500, outputTokens: 10 }),
        call(3, 'i2', { promptTokens: 50 }, { provider: 'scripted', modelId: 's' }),
      ],
      TABLE,
    );
    expect(report.calls.map((row) => Number(row.cacheHitRatio.toFixed(3)))).toEqual([0, 0.714, 0]);
    expect(report.invocations.map((row) => [row.invocationId, row.calls, row.unpricedCalls])).toEqual([
      ['i1', 2, 0],
      ['i2', 1, 1],
    ]);
    expect(report.total.promptTokens).toBe(4_150);
    expect(report.total.cacheHitRatio).toBeCloseTo(1_500 / 4_150, 10);
    expect(report.total.usd).toBeCloseTo((500 * 3 + 1_500 * 3.75 + 20 * 15 + 600 * 3 + 1_500 * 0.3) / 1e6, 10);
    expect(report.total.unpricedCalls).toBe(1);
  });
});
