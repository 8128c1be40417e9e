import type { ModelCallSummary } from '../../contracts/model-call.js';
import { costOfCall, type BilledTokens, type CallCost } from './call-cost.js';
import type { PriceTable } from './price-table.js';

/** One recorded call's bill. */
export type CallCostRow = CallCost & {
  index: number;
  agent: string;
  invocationId: string;
  status: ModelCallSummary['status'];
  model?: NonNullable<ModelCallSummary['model']>;
  /** Share of the prompt read from the cache (0 when the call had no prompt tokens). */
  cacheHitRatio: number;
};

/** Calls added up: tokens, USD of the priced calls, and how many could not be priced. */
export type CostTotal = {
  calls: number;
  tokens: BilledTokens;
  /** Prompt tokens: input, cache reads and cache writes. */
  promptTokens: number;
  cacheHitRatio: number;
  /** USD of the calls that could be priced; absent when none could. */
  usd?: number;
  unpricedCalls: number;
};

export type CostReport = {
  calls: CallCostRow[];
  invocations: (CostTotal & { invocationId: string })[];
  total: CostTotal;
};

/** The bill of a session's recorded calls under `table`: per call, per invocation (in order of first call) and in all. */
export function costOfCalls(calls: readonly ModelCallSummary[], table: PriceTable): CostReport {
  const rows = calls.map((call): CallCostRow => {
    const cost = costOfCall(call.model, call.usage, table);
    return {
      index: call.index,
      agent: call.agent,
      invocationId: call.invocationId,
      status: call.status,
      ...(call.model === undefined ? {} : { model: call.model }),
      ...cost,
      cacheHitRatio: ratio(cost.tokens.cacheRead, promptOf(cost.tokens)),
    };
  });
  const byInvocation = new Map<string, CallCostRow[]>();
  for (const row of rows) byInvocation.set(row.invocationId, [...(byInvocation.get(row.invocationId) ?? []), row]);
  return {
    calls: rows,
    invocations: [...byInvocation].map(([invocationId, group]) => ({ invocationId, ...sumCosts(group) })),
    total: sumCosts(rows),
  };
}

/** Costs added up. */
export function sumCosts(rows: readonly CallCost[]): CostTotal {
  const tokens: BilledTokens = {
    input: 0,
    cacheRead: 0,
    cacheWrite: 0,
    cacheWrite1h: 0,
    output: 0,
    reasoning: 0,
    storageTokenHours: 0,
  };
  let usd: number | undefined;
  let unpricedCalls = 0;
  for (const row of rows) {
    for (const key of Object.keys(tokens) as (keyof BilledTokens)[]) tokens[key] += row.tokens[key];
    if (row.usd === undefined) unpricedCalls++;
    else usd = (usd ?? 0) + row.usd.total;
  }
  const promptTokens = promptOf(tokens);
  return {
    calls: rows.length,
    tokens,
    promptTokens,
    cacheHitRatio: ratio(tokens.cacheRead, promptTokens),
    ...(usd === undefined ? {} : { usd }),
    unpricedCalls,
  };
}

function promptOf(tokens: BilledTokens): number {
  return tokens.input + tokens.cacheRead + tokens.cacheWrite;
}

function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : part / whole;
}
