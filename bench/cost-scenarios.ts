// The runs the cost benchmark prices: the report analyst (naive history, paging in the system text, paging in the
// history) and the 200-turn compaction conversation (none, window, token), each billed call by call under one
// provider's prompt-caching rules (bench/cost-billing.ts), then priced by agentctx's own cost engine.
import { createInMemorySessionStore } from 'agentctx';
import { costOfCalls, DEFAULT_PRICES, type CostTotal } from 'agentctx/cost';
import { loadTokenCounter } from 'agentctx/tokens';
import type { Mode as AnalystMode } from '../examples/report-analyst/agents.js';
import { expectedAnswer, type Report } from '../examples/report-analyst/reports.js';
import { APP, runAnalysis } from '../examples/report-analyst/run-analysis.js';
import { runConversation, type Mode as CompactionMode } from './compaction-conversation.js';
import { createBilling, PRICED_MODEL, type BillingOptions, type Provider } from './cost-billing.js';

/** One priced run: its total and the USD of every call in order, for the chart. */
export type PricedRun = { total: CostTotal; usdPerCall: number[] };

function priced(report: ReturnType<typeof costOfCalls>): PricedRun {
  return { total: report.total, usdPerCall: report.calls.map((call) => call.usd?.total ?? 0) };
}

/** The analyst once, in a fresh session and cache; refuses a wrong answer (a cheap run that read nothing is no result). */
export async function priceAnalyst(
  mode: AnalystMode,
  reports: readonly Report[],
  billing: BillingOptions,
  onCall?: () => void,
): Promise<PricedRun> {
  const store = createInMemorySessionStore();
  const bill = createBilling(billing);
  let id = 0;
  const run = await runAnalysis({
    mode,
    store,
    reports,
    wrapModel: bill.wrap,
    newId: () => `id-${++id}`,
    ...(onCall === undefined ? {} : { onCall }),
  });
  if (!run.answer.endsWith(expectedAnswer(reports)))
    throw new Error(`the ${mode} analyst answered wrongly under ${billing.provider}: ${run.answer}`);
  return priced(
    costOfCalls(
      await store.listModelCalls({ appName: APP, userId: 'analyst', sessionId: run.sessionId }),
      DEFAULT_PRICES,
    ),
  );
}

export async function priceConversation(
  mode: CompactionMode,
  turns: number,
  billing: BillingOptions,
  onTurn?: (turn: number) => void,
): Promise<PricedRun> {
  const bill = createBilling(billing);
  const run = await runConversation({ mode, turns, wrapModel: bill.wrap, ...(onTurn === undefined ? {} : { onTurn }) });
  if (run.pairProblems.length > 0) throw new Error(`compaction split a call from its result: ${run.pairProblems[0]}`);
  return priced(costOfCalls(run.summaries, DEFAULT_PRICES));
}

/**
 * The floor: every report body billed once at the provider's base input price — what reading the reports costs at
 * the very least, whatever the context strategy (local o200k count of each body).
 */
export async function floorUsd(
  reports: readonly Report[],
  provider: Provider,
): Promise<{ tokens: number; usd: number }> {
  const counter = await loadTokenCounter();
  const tokens = reports.reduce((sum, report) => sum + counter.count(report.text), 0);
  const price = DEFAULT_PRICES.models.find(
    (model) => model.provider === provider && model.model === PRICED_MODEL[provider],
  );
  if (price?.input === undefined)
    throw new Error(`no input price for ${provider}:${PRICED_MODEL[provider]} in assets/prices.json`);
  return { tokens, usd: (tokens * price.input) / DEFAULT_PRICES.perTokens };
}
