import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import { DEFAULT_PRICES } from '../../src/analysis/cost/default-prices.js';
import { mergePriceTables, parsePriceTable } from '../../src/analysis/cost/price-table.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { cli, startInspectorProcess } from '../support/cli.js';
import { BATCHES, writeBatchSession } from './batch-session.js';
import {
  PRICED,
  PRICED_CALLS,
  PRICED_MODEL,
  PRICED_TOTAL_USD,
  UNPRICED,
  UNPRICED_MODEL_ID,
  UNPRICED_USAGE,
  writeCostSessions,
} from './cost-session.js';
import { getJson, sessionPath } from './api-requests.js';

const CLOSE = 12;
const SONNET = DEFAULT_PRICES.models.find(
  (model) => model.provider === 'anthropic' && model.model === 'claude-sonnet-4-5',
)!;
/** A user's price file: the scripted model at $1 input, $0.10 cache reads and $2 output per 1M tokens. */
const SCRIPTED_PRICES = {
  currency: 'USD',
  perTokens: 1_000_000,
  models: [
    {
      provider: 'scripted',
      model: UNPRICED_MODEL_ID,
      input: 1,
      cacheRead: 0.1,
      output: 2,
      source: 'https://prices.example/scripted',
      date: '2026-01-02',
    },
  ],
};

let dir: string;
let dbPath: string;
let store: SessionStoreWithCallLog;
let app: ReturnType<typeof createInspectorApp>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-web-cost-'));
  dbPath = join(dir, 'agentctx.db');
  store = createSqliteSessionStore({ path: dbPath });
  await writeCostSessions(store);
  await writeBatchSession(store);
  app = createInspectorApp({
    store,
    version: 'test',
    onError: (error) => {
      throw error;
    },
  });
}, 60_000);
afterAll(async () => {
  await store?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

const path = sessionPath;
const json = getJson;

describe('the inspector API on what calls cost', () => {
  it('bills each call of a claude-sonnet-4-5 session at the built-in prices, exactly, with the price source and date', async () => {
    expect(SONNET).toMatchObject({ input: 3, output: 15, cacheRead: 0.3, cacheWrite5m: 3.75, cacheWrite1h: 6 });
    const cost = await json(app, `${path(PRICED)}/cost`);
    expect(cost).toMatchObject({ currency: 'USD', perTokens: 1_000_000, measure: 'usd' });
    expect(cost.calls).toHaveLength(PRICED_CALLS.length);
    cost.calls.forEach((row: any, at: number) => {
      const expected = PRICED_CALLS[at]!;
      expect(row).toMatchObject({
        index: at + 1,
        agent: 'billing_agent',
        status: 'answered',
        model: PRICED_MODEL,
        price: { provider: 'anthropic', model: 'claude-sonnet-4-5', source: SONNET.source, date: SONNET.date },
      });
      expect(row.unpriced).toBeUndefined();
      for (const key of ['input', 'cacheRead', 'cacheWrite', 'output', 'total'] as const)
        expect(row.usd[key], `call ${at + 1} ${key}`).toBeCloseTo(expected.usd[key], CLOSE);
      expect(row.usd.storage).toBe(0);
      expect(row.cacheHitRatio).toBeCloseTo(expected.cacheHit, CLOSE);
    });
    expect(cost.calls.map((row: any) => row.tokens)).toEqual([
      {
        input: 2_000,
        cacheRead: 0,
        cacheWrite: 8_000,
        cacheWrite1h: 0,
        output: 1_000,
        reasoning: 0,
        storageTokenHours: 0,
      },
      {
        input: 2_000,
        cacheRead: 8_000,
        cacheWrite: 2_000,
        cacheWrite1h: 0,
        output: 1_000,
        reasoning: 0,
        storageTokenHours: 0,
      },
      {
        input: 2_000,
        cacheRead: 10_000,
        cacheWrite: 2_000,
        cacheWrite1h: 2_000,
        output: 2_000,
        reasoning: 0,
        storageTokenHours: 0,
      },
    ]);
    expect(cost.total).toMatchObject({ calls: 3, unpricedCalls: 0, promptTokens: 36_000 });
    expect(cost.total.usd).toBeCloseTo(PRICED_TOTAL_USD, CLOSE);
    expect(cost.total.cacheHitRatio).toBeCloseTo(18_000 / 36_000, CLOSE);
    // One invocation per turn, and a running total that ends at the session's.
    expect(cost.invocations.map((invocation: any) => invocation.calls)).toEqual([1, 1, 1]);
    expect(cost.cumulative.map((point: any) => point.index)).toEqual([1, 2, 3]);
    [0.051, 0.0819, 0.1329].forEach((total, at) => expect(cost.cumulative[at].cumulativeUsd).toBeCloseTo(total, CLOSE));
    expect(cost.cumulative.map((point: any) => [point.cumulativeCached, point.cumulativeUncached])).toEqual([
      [0, 10_000],
      [8_000, 14_000],
      [18_000, 18_000],
    ]);
  });

  it('puts the same report in the session and the call row in the call view, with the cache writes split by lifetime', async () => {
    const session = await json(app, path(PRICED));
    expect(session.cost).toEqual(await json(app, `${path(PRICED)}/cost`));
    expect(session.calls).toEqual(await store.listModelCalls(PRICED));
    const first = await json(app, `${path(PRICED)}/calls/1`);
    expect(first.cost).toEqual({
      ...session.cost.calls[0],
      cacheWriteUsd: { fiveMinutes: first.cost.usd.cacheWrite, oneHour: 0 },
    });
    expect(first.cost.cacheWriteUsd.fiveMinutes).toBeCloseTo(0.03, CLOSE);
    const third = await json(app, `${path(PRICED)}/calls/3`);
    expect(third.cost.cacheWriteUsd.fiveMinutes).toBeCloseTo(0, CLOSE);
    expect(third.cost.cacheWriteUsd.oneHour).toBeCloseTo(0.012, CLOSE);
    expect(third.cost.usd.total).toBeCloseTo(0.051, CLOSE);
    // The rest of the call view is unchanged.
    expect(third).toMatchObject({ index: 3, status: 'answered', model: PRICED_MODEL, usage: PRICED_CALLS[2]!.usage });
  });

  it('says why a scripted call has no USD, and charts its prompt tokens cached and not instead', async () => {
    const cost = await json(app, `${path(UNPRICED)}/cost`);
    expect(cost.measure).toBe('tokens');
    expect(cost.calls.map((row: any) => [row.unpriced, row.usd, row.price])).toEqual([
      [`no price known for scripted:${UNPRICED_MODEL_ID}`, undefined, undefined],
      [`no price known for scripted:${UNPRICED_MODEL_ID}`, undefined, undefined],
    ]);
    expect(cost.total).toMatchObject({ calls: 2, unpricedCalls: 2, promptTokens: 2_500 });
    expect(cost.total.usd).toBeUndefined();
    expect(
      cost.cumulative.map((point: any) => [
        point.usd,
        point.cumulativeUsd,
        point.cumulativeCached,
        point.cumulativeUncached,
      ]),
    ).toEqual([
      [null, 0, 600, 400],
      [null, 0, 1_600, 900],
    ]);
    expect(cost.calls.map((row: any) => row.cacheHitRatio)).toEqual([0.6, 1_000 / 1_500]);
    expect((await json(app, `${path(UNPRICED)}/calls/2`)).cost).toMatchObject({
      unpriced: `no price known for scripted:${UNPRICED_MODEL_ID}`,
      tokens: { input: 500, cacheRead: 1_000, output: 120 },
    });
    expect(UNPRICED_USAGE).toHaveLength(2);
    // Calls recorded without usage or a model say so.
    const batches = await json(app, `${path(BATCHES)}/cost`);
    expect(new Set(batches.calls.map((row: any) => row.unpriced))).toEqual(new Set(['the call reported no usage']));
  });

  it('bills at the prices it is given: a price file for the scripted model prices its calls', async () => {
    const prices = mergePriceTables(DEFAULT_PRICES, parsePriceTable(SCRIPTED_PRICES));
    const priced = createInspectorApp({
      store,
      prices,
      onError: (error) => {
        throw error;
      },
    });
    const cost = await json(priced, `${path(UNPRICED)}/cost`);
    expect(cost.measure).toBe('usd');
    // Call 1: 400 input ($0.0004), 600 read ($0.00006), 100 output ($0.0002); call 2: 500, 1,000 and 120.
    expect(cost.calls[0].usd.total).toBeCloseTo(0.00066, CLOSE);
    expect(cost.calls[1].usd.total).toBeCloseTo(0.0005 + 0.0001 + 0.00024, CLOSE);
    expect(cost.calls[0].price).toEqual({
      provider: 'scripted',
      model: UNPRICED_MODEL_ID,
      source: 'https://prices.example/scripted',
      date: '2026-01-02',
    });
    // The built-in prices still bill the other session.
    expect((await json(priced, `${path(PRICED)}/cost`)).total.usd).toBeCloseTo(PRICED_TOTAL_USD, CLOSE);
  });

  it('answers a missing session or bad call with 4xx, never 500', async () => {
    const missing = `/api/apps/${PRICED.appName}/users/${PRICED.userId}/sessions/missing`;
    for (const url of [
      `${missing}/cost`,
      `${missing}`,
      `${path(PRICED)}/cost/more`,
      `${path(PRICED)}/calls/9`,
      '/api/apps/%E0%A4%A/users/%ZZ/sessions/%/cost',
    ]) {
      const response = await app.request(url, { headers: { host: '127.0.0.1' } });
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(response.status, url).toBeLessThan(500);
    }
    expect((await app.request(`${missing}/cost`, { headers: { host: '127.0.0.1' } })).status).toBe(404);
    expect((await app.request(`${path(PRICED)}/cost?x=%ZZ`, { headers: { host: '127.0.0.1' } })).status).toBe(200);
  });
});

describe('agentctx web --prices', () => {
  it('refuses a price file it cannot read or that is not a price table, in one line', async () => {
    const missing = await cli(['web', '--store', dbPath, '--prices', join(dir, 'missing.json')], { env: {} });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/price file .*missing\.json cannot be read/);
    await writeFile(join(dir, 'bad.json'), JSON.stringify({ currency: 'EUR', perTokens: 1_000_000, models: [] }));
    const bad = await cli(['web', '--store', dbPath, '--prices', join(dir, 'bad.json')], { env: {} });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/currency/);
  });

  it('serves the inspector with the price file merged into the built-in prices', async () => {
    const file = join(dir, 'prices.json');
    await writeFile(file, JSON.stringify(SCRIPTED_PRICES));
    const web = await startInspectorProcess(['--store', dbPath, '--port', '0', '--prices', file]);
    const url = web.url;
    try {
      const cost = (await (await fetch(`${url}${path(UNPRICED).slice(1)}/cost`)).json()) as {
        total: { usd?: number };
        calls: { price?: { source: string } }[];
      };
      expect(cost.total.usd).toBeCloseTo(0.00066 + 0.00084, CLOSE);
      expect(cost.calls[0]?.price?.source).toBe('https://prices.example/scripted');
      const sonnet = (await (await fetch(`${url}${path(PRICED).slice(1)}/cost`)).json()) as { total: { usd?: number } };
      expect(sonnet.total.usd).toBeCloseTo(PRICED_TOTAL_USD, CLOSE);
      expect(await web.stop()).toBe(0);
    } finally {
      web.kill();
    }
  });
});
