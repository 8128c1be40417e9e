import type { SessionStoreWithCallLog } from 'agentctx/sessions';
import type { Report } from './reports.js';
import { promptTokensPerCall, runAnalysis, type AnalysisRun } from './run-analysis.js';

export type Comparison = {
  naive: AnalysisRun & { tokens: number[] };
  paged: AnalysisRun & { tokens: number[] };
  naiveTotalTokens: number;
  pagedTotalTokens: number;
  ratio: number;
  /** Prompt tokens of the call that reads the first batch, and of the last full batch (as many reports as the first). */
  pagedFirstBatchTokens: number;
  pagedLastBatchTokens: number;
  naiveLastCallTokens: number;
};

/** Runs the naive baseline and the paged analyst on the same question and compares their prompt tokens per call. */
export async function compareRuns(
  store: SessionStoreWithCallLog,
  reports: readonly Report[],
  onCall?: () => void,
): Promise<Comparison> {
  const naiveRun = await runAnalysis({ mode: 'naive', store, reports, ...(onCall === undefined ? {} : { onCall }) });
  const pagedRun = await runAnalysis({ mode: 'paged', store, reports, ...(onCall === undefined ? {} : { onCall }) });
  const naive = { ...naiveRun, tokens: await promptTokensPerCall(store, naiveRun.sessionId) };
  const paged = { ...pagedRun, tokens: await promptTokensPerCall(store, pagedRun.sessionId) };
  const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
  // Each batch is three calls: page in, calculate (the batch in the instruction), save. The reading call is the second.
  const readingCalls = paged.tokens.filter((_, index) => index >= 2 && (index - 2) % 3 === 1);
  const fullBatches = Math.floor(reports.length / 10);
  return {
    naive,
    paged,
    naiveTotalTokens: sum(naive.tokens),
    pagedTotalTokens: sum(paged.tokens),
    ratio: sum(naive.tokens) / sum(paged.tokens),
    pagedFirstBatchTokens: readingCalls[0] ?? 0,
    pagedLastBatchTokens: readingCalls[fullBatches - 1] ?? 0,
    naiveLastCallTokens: naive.tokens.at(-1) ?? 0,
  };
}
