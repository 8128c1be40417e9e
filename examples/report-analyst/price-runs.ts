// What a recorded run would cost on Anthropic with prompt caching: every call's exact Messages API body, as the
// adapter would send it (its cache breakpoints placed by the request's stable prefix), billed in order by a simulator
// of Anthropic's documented cache rules and priced from agentctx's price table. Offline: nothing is sent anywhere.
import type { SessionStoreWithCallLog } from 'agentctx/sessions';
import { costOfCall, DEFAULT_PRICES, findPrice, stablePrefixOf, sumCosts, type CallCost } from 'agentctx/cost';
import { toAnthropicRequest, toUsage } from 'agentctx/models/anthropic';
import { createAnthropicCacheSimulator } from 'agentctx/testing';
import { loadTokenCounter } from 'agentctx/tokens';
import { APP } from './run-analysis.js';
import type { Report } from './reports.js';

export const PRICED_MODEL = 'claude-sonnet-4-6';
// Simulated time between calls: an agent's step, well inside the cache's 5-minute lifetime.
const STEP_MS = 5_000;

export type PricedRun = { usd: number; cacheHitRatio: number; calls: CallCost[] };

export async function priceRun(store: SessionStoreWithCallLog, sessionId: string): Promise<PricedRun> {
  const { count } = await loadTokenCounter();
  let now = 0;
  const cache = createAnthropicCacheSimulator({ countTokens: count, now: () => now });
  const key = { appName: APP, userId: 'analyst', sessionId };
  const calls: CallCost[] = [];
  for (const summary of await store.listModelCalls(key)) {
    const record = await store.getModelCall({ ...key, index: summary.index });
    if (record === undefined) continue;
    const body = toAnthropicRequest(record.request, { model: PRICED_MODEL, cache: {}, stablePrefix: stablePrefixOf(record.request, record.provenance) });
    const usage = toUsage(cache.bill(body, { outputTokens: count(JSON.stringify(record.response?.content?.parts ?? [])) }));
    calls.push(costOfCall({ provider: 'anthropic', modelId: PRICED_MODEL }, usage, DEFAULT_PRICES));
    now += STEP_MS;
  }
  const total = sumCosts(calls);
  return { usd: total.usd ?? 0, cacheHitRatio: total.cacheHitRatio, calls };
}

/** The floor: every report body billed once at the input price — what reading the reports costs at the very least. */
export async function floorUsd(reports: readonly Report[]): Promise<number> {
  const { count } = await loadTokenCounter();
  const input = findPrice(DEFAULT_PRICES, 'anthropic', PRICED_MODEL)?.input ?? Number.NaN;
  return (reports.reduce((sum, report) => sum + count(report.text), 0) * input) / DEFAULT_PRICES.perTokens;
}

/** Where the price comes from, for the output. */
export function priceSource(): string {
  const price = findPrice(DEFAULT_PRICES, 'anthropic', PRICED_MODEL);
  return price === undefined ? 'no price known' : `${price.source} (${price.date})`;
}
