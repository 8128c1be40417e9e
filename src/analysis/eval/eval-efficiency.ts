import type { EvalEfficiency } from '../../contracts/evaluation.js';
import type { Event } from '../../contracts/event.js';
import type { ModelCallSummary } from '../../contracts/model-call.js';
import { costOfCalls } from '../cost/session-cost.js';
import type { PriceTable } from '../cost/price-table.js';

/**
 * What a run of an eval case cost: its model calls (embeddings left out: they are memory's, not the answer's) priced
 * as `agentctx cost` prices them, cache reads and writes at their own rates, and the tool calls of its events.
 */
export function efficiencyOf(input: {
  calls: readonly ModelCallSummary[];
  events: readonly Event[];
  prices: PriceTable;
  wallMs: number;
}): EvalEfficiency {
  const calls = input.calls.filter((call) => call.operation !== 'embeddings');
  const { total } = costOfCalls(calls, input.prices);
  const toolCalls = input.events.reduce(
    (count, event) =>
      event.content?.role === 'model'
        ? count + event.content.parts.filter((part) => 'functionCall' in part).length
        : count,
    0,
  );
  return {
    modelCalls: calls.length,
    toolCalls,
    promptTokens: total.promptTokens,
    cachedTokens: total.tokens.cacheRead,
    outputTokens: total.tokens.output,
    cacheHitRatio: total.cacheHitRatio,
    ...(total.usd === undefined ? {} : { usd: total.usd }),
    unpricedCalls: total.unpricedCalls,
    modelLatencyMs: calls.reduce((sum, call) => sum + (call.latencyMs ?? 0), 0),
    wallMs: input.wallMs,
  };
}

/** Efficiencies added up (ratios recomputed from the sums; USD absent only when no run could be priced). */
export function sumEfficiency(runs: readonly EvalEfficiency[]): EvalEfficiency {
  const sum = (pick: (run: EvalEfficiency) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const promptTokens = sum((run) => run.promptTokens);
  const cachedTokens = sum((run) => run.cachedTokens);
  const priced = runs.filter((run) => run.usd !== undefined);
  return {
    modelCalls: sum((run) => run.modelCalls),
    toolCalls: sum((run) => run.toolCalls),
    promptTokens,
    cachedTokens,
    outputTokens: sum((run) => run.outputTokens),
    cacheHitRatio: promptTokens === 0 ? 0 : cachedTokens / promptTokens,
    ...(priced.length === 0 ? {} : { usd: priced.reduce((total, run) => total + (run.usd ?? 0), 0) }),
    unpricedCalls: sum((run) => run.unpricedCalls),
    modelLatencyMs: sum((run) => run.modelLatencyMs),
    wallMs: sum((run) => run.wallMs),
  };
}
