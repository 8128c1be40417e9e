import type { ModelCallSummary } from '../contracts/model-call.js';
import type { SessionKey } from '../contracts/session.js';
import type { CallLoader } from './call-loader.js';
import { chartRow, type ChartRow } from './session-chart.js';

export type ChartRows = {
  /** The chart rows of these calls of a session (from `listModelCalls`), each with what the provider billed. */
  of(
    key: SessionKey,
    summaries: readonly ModelCallSummary[],
  ): Promise<(ChartRow & { billedPromptTokens: number | null })[]>;
};

const LIMIT = 20_000;

/**
 * Chart rows kept in the server's memory per (session, call index). A call that has ended never changes, so a
 * session's chart opened again loads and counts only its new calls and those still pending (which are never kept).
 * A row is kept with what identifies the recording (time, invocation, request size): a session deleted and run again
 * under the same id is counted afresh.
 */
export function createChartRows(calls: CallLoader, limit: number = LIMIT): ChartRows {
  const kept = new Map<string, { identity: string; row: ChartRow }>();
  const slot = (key: SessionKey, index: number) => [key.appName, key.userId, key.sessionId, index].join('\u0000');
  const identity = (summary: ModelCallSummary) =>
    [summary.timestamp, summary.invocationId, summary.requestChars].join('\u0000');
  return {
    async of(key, summaries) {
      const rows = new Map<number, ChartRow>();
      const missing: number[] = [];
      for (const summary of summaries) {
        const entry = kept.get(slot(key, summary.index));
        if (entry === undefined || entry.identity !== identity(summary)) missing.push(summary.index);
        else {
          kept.delete(slot(key, summary.index));
          kept.set(slot(key, summary.index), entry);
          rows.set(summary.index, entry.row);
        }
      }
      const listed = new Map(summaries.map((summary) => [summary.index, summary]));
      for (const call of await calls.load(key, missing)) {
        const row = chartRow(call);
        rows.set(row.index, row);
        const summary = listed.get(row.index) as ModelCallSummary;
        if (summary.status === 'pending' || call.record.status === 'pending') continue;
        kept.set(slot(key, row.index), { identity: identity(summary), row });
        if (kept.size > limit) kept.delete(kept.keys().next().value as string);
      }
      return summaries.flatMap((summary) => {
        const row = rows.get(summary.index);
        return row === undefined ? [] : [{ ...row, billedPromptTokens: summary.usage?.promptTokens ?? null }];
      });
    },
  };
}
