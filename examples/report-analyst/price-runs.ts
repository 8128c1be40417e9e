// What a run costs on Anthropic with prompt caching. Each call was billed as it ran (run-analysis.ts): its exact
// Messages API body, as the adapter would send it (cache breakpoints placed by the request's stable prefix), billed in
// order by a simulator of Anthropic's documented cache rules, the usage recorded with the call. Priced here exactly as
// `agentctx cost` prices the session, so both print the same USD. Offline: nothing is sent anywhere.
import type { SessionStoreWithCallLog } from 'agentctx/sessions';
import { costOfCalls, DEFAULT_PRICES, findPrice, type CallCost } from 'agentctx/cost';
import { loadTokenCounter } from 'agentctx/tokens';
import { APP, PRICED_MODEL } from './run-analysis.js';
import type { Report } from './reports.js';

export { PRICED_MODEL };

export type PricedRun = { usd: number; cacheHitRatio: number; calls: CallCost[] };

export async function priceRun(store: SessionStoreWithCallLog, sessionId: string): Promise<PricedRun> {
  const report = costOfCalls(
    await store.listModelCalls({ appName: APP, userId: 'analyst', sessionId }),
    DEFAULT_PRICES,
  );
  return { usd: report.total.usd ?? 0, cacheHitRatio: report.total.cacheHitRatio, calls: report.calls };
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
