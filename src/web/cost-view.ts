import type { ModelCallRecord, ModelCallSummary } from '../contracts/model-call.js';
import { costOfCall } from '../analysis/cost/call-cost.js';
import type { PriceTable } from '../analysis/cost/price-table.js';
import { costOfCalls, type CallCostRow, type CostReport } from '../analysis/cost/session-cost.js';

/**
 * One call on the session's cumulative cost chart: its own USD (null when it could not be priced, `unpriced` says
 * why) and the running total of the priced calls up to it; and its prompt tokens read from the cache or not, with
 * their running totals (the chart's measure when no call is priced).
 */
export type CumulativeCostPoint = {
  index: number;
  agent: string;
  usd: number | null;
  cumulativeUsd: number;
  unpriced: string | null;
  cachedTokens: number;
  uncachedTokens: number;
  cumulativeCached: number;
  cumulativeUncached: number;
};

/** A session's bill (see `costOfCalls`) with the table's currency and unit, and the cumulative chart's points. */
export type SessionCostView = CostReport & {
  currency: 'USD';
  perTokens: number;
  /** `usd` when at least one call is priced; `tokens` (prompt tokens, cached and not) when none is. */
  measure: 'usd' | 'tokens';
  cumulative: CumulativeCostPoint[];
};

/** One call's bill, with its cache writes' USD split by lifetime (5 minutes, an hour) when it is priced. */
export type CallCostView = CallCostRow & { cacheWriteUsd?: { fiveMinutes: number; oneHour: number } };

/** The bill of a session's recorded calls (from `listModelCalls`) under `table`, and its running totals. */
export function buildSessionCost(summaries: readonly ModelCallSummary[], table: PriceTable): SessionCostView {
  const report = costOfCalls(summaries, table);
  let usd = 0;
  let cached = 0;
  let uncached = 0;
  const cumulative = report.calls.map((row): CumulativeCostPoint => {
    const own = row.usd?.total ?? null;
    usd += own ?? 0;
    cached += row.tokens.cacheRead;
    uncached += row.tokens.input + row.tokens.cacheWrite;
    return {
      index: row.index,
      agent: row.agent,
      usd: own,
      cumulativeUsd: usd,
      unpriced: row.unpriced ?? null,
      cachedTokens: row.tokens.cacheRead,
      uncachedTokens: row.tokens.input + row.tokens.cacheWrite,
      cumulativeCached: cached,
      cumulativeUncached: uncached,
    };
  });
  const measure = report.calls.some((row) => row.usd !== undefined) ? 'usd' : 'tokens';
  return { currency: table.currency, perTokens: table.perTokens, ...report, measure, cumulative };
}

/** One recorded call's bill under `table`, as the call view shows it. */
export function buildCallCost(record: ModelCallRecord, table: PriceTable): CallCostView {
  const { request: _request, provenance: _provenance, response: _response, wire: _wire, ...rest } = record;
  // The bill reads the call's model and usage, never the size of its request.
  const [row] = costOfCalls([{ ...rest, requestChars: 0 }], table).calls as [CallCostRow];
  const usage = record.usage;
  const oneHourTokens = row.tokens.cacheWrite1h;
  if (row.usd === undefined || usage === undefined || row.tokens.cacheWrite === 0) return row;
  // The hour-long writes alone, billed at the tier the whole prompt falls in: the rest of the writes' USD is 5-minute.
  const oneHour =
    oneHourTokens === 0
      ? 0
      : (costOfCall(
          record.model,
          { promptTokens: usage.promptTokens ?? 0, cacheWriteTokens: oneHourTokens, cacheWrite1hTokens: oneHourTokens },
          table,
        ).usd?.cacheWrite ?? 0);
  return { ...row, cacheWriteUsd: { fiveMinutes: row.usd.cacheWrite - oneHour, oneHour } };
}
