import type { ModelCallParent, ModelCallRecord, ModelCallSummary } from '../contracts/model-call.js';
import type { SessionKey } from '../contracts/session.js';
import type {
  CacheExplanation,
  CallCacheEntry,
  SessionCacheReport,
  SessionCacheTotals,
} from '../analysis/cache/cache-types.js';
import { explainSessionCache } from '../analysis/cache/explain-cache.js';
import type { CallLoader } from './call-loader.js';
import { trustedProvenance } from './provenance-fit.js';

/** The call view's `cache`: the call against its agent's previous call, or `{ first: true }` when there is none. */
export type CallCacheView = CacheExplanation | { first: true };

/** `GET …/cache`: every call of the session against its agent's previous call, and the tokenizer that counted. */
export type SessionCacheView = {
  appName: string;
  userId: string;
  sessionId: string;
  tokenizer: string;
} & SessionCacheReport;

export type CacheReports = {
  /** Every listed call of a session (`summaries` from `listModelCalls`), compared with its agent's previous call. */
  session(key: SessionKey, summaries: readonly ModelCallSummary[]): Promise<SessionCacheReport>;
  /** One listed call's entry; undefined when `index` is not listed. */
  call(key: SessionKey, summaries: readonly ModelCallSummary[], index: number): Promise<CallCacheEntry | undefined>;
};

const LIMIT = 20_000;

/**
 * Cache explanations kept in the server's memory per (session, call index), as the chart rows are: an entry depends on
 * the call and on its agent's previous call, both of which never change once they have ended, so a session opened
 * again reads and counts only its new calls (and those still pending, which are never kept). An entry is kept with
 * what identifies both recordings (time, invocation, request size), so a session run again under the same id is
 * explained afresh. The calls explained together are counted with one memo: each distinct text is tokenized once.
 */
export function createCacheReports(calls: CallLoader, limit: number = LIMIT): CacheReports {
  const kept = new Map<string, { identity: string; entry: CallCacheEntry }>();
  const slot = (key: SessionKey, index: number) => [key.appName, key.userId, key.sessionId, index].join('\u0000');

  const entries = async (
    key: SessionKey,
    summaries: readonly ModelCallSummary[],
    wanted: readonly ModelCallSummary[],
  ): Promise<CallCacheEntry[]> => {
    const previous = previousCalls(summaries);
    const identity = (summary: ModelCallSummary) =>
      `${identityOf(summary)}\u0001${identityOf(previous.get(summary.index))}`;
    const found = new Map<number, CallCacheEntry>();
    const missing: ModelCallSummary[] = [];
    for (const summary of wanted) {
      const entry = kept.get(slot(key, summary.index));
      if (entry === undefined || entry.identity !== identity(summary)) {
        missing.push(summary);
        continue;
      }
      kept.delete(slot(key, summary.index));
      kept.set(slot(key, summary.index), entry);
      found.set(summary.index, entry.entry);
    }
    if (missing.length > 0) {
      // Each missing call with its agent's previous call: explained among these alone, each finds the same previous call.
      const needed = new Set<number>();
      for (const summary of missing) {
        needed.add(summary.index);
        const before = previous.get(summary.index);
        if (before !== undefined) needed.add(before.index);
      }
      const records = await calls.records(
        key,
        [...needed].sort((a, b) => a - b),
      );
      const complete = records.length === needed.size;
      const counter = await calls.tokenCounter();
      const report = explainSessionCache(records.map(trusted), (text) => counter.count(text));
      const explained = new Map(report.calls.map((entry) => [entry.index, entry]));
      for (const summary of missing) {
        const entry = explained.get(summary.index);
        if (entry === undefined) continue;
        found.set(summary.index, entry);
        if (!complete || summary.status === 'pending' || previous.get(summary.index)?.status === 'pending') continue;
        kept.set(slot(key, summary.index), { identity: identity(summary), entry });
        if (kept.size > limit) kept.delete(kept.keys().next().value as string);
      }
    }
    return wanted.flatMap((summary) => found.get(summary.index) ?? []);
  };

  return {
    async session(key, summaries) {
      const ordered = [...summaries].sort((a, b) => a.index - b.index);
      const list = await entries(key, ordered, ordered);
      return { calls: list, totals: totalsOf(list) };
    },
    async call(key, summaries, index) {
      const summary = summaries.find((candidate) => candidate.index === index);
      if (summary === undefined) return undefined;
      return (await entries(key, summaries, [summary]))[0];
    },
  };
}

/** The call view's `cache` of an entry. */
export function callCacheView(entry: CallCacheEntry | undefined): CallCacheView {
  return entry?.explanation ?? { first: true };
}

/**
 * The previous call of each call, by its index: the latest earlier call of the same agent with the same parent, as
 * `findPreviousCall` chooses it, found in one pass.
 */
function previousCalls(summaries: readonly ModelCallSummary[]): Map<number, ModelCallSummary> {
  const latest = new Map<string, ModelCallSummary>();
  const previous = new Map<number, ModelCallSummary>();
  for (const summary of [...summaries].sort((a, b) => a.index - b.index)) {
    const lane = laneOf(summary.agent, summary.parent);
    const before = latest.get(lane);
    if (before !== undefined) previous.set(summary.index, before);
    latest.set(lane, summary);
  }
  return previous;
}

function laneOf(agent: string, parent: ModelCallParent | undefined): string {
  return JSON.stringify(
    parent === undefined ? [agent] : [agent, parent.functionCallId, parent.tool, parent.callIndex ?? null],
  );
}

function identityOf(summary: ModelCallSummary | undefined): string {
  if (summary === undefined) return 'first';
  return [
    summary.index,
    summary.timestamp,
    summary.invocationId,
    summary.requestChars,
    summary.agent,
    summary.model?.provider ?? '',
    summary.model?.modelId ?? '',
  ].join('\u0000');
}

/** A recording whose provenance does not line up is compared without the parts that do not (see `trustedProvenance`). */
function trusted(record: ModelCallRecord): ModelCallRecord {
  const provenance = trustedProvenance(record.request, record.provenance);
  return provenance === record.provenance ? record : { ...record, provenance };
}

/** The totals `explainSessionCache` gives, for entries gathered from memory and fresh ones. */
function totalsOf(entries: readonly CallCacheEntry[]): SessionCacheTotals {
  const totals: SessionCacheTotals = {
    calls: entries.length,
    first: 0,
    kept: 0,
    changed: 0,
    keptTokens: 0,
    rebilledTokens: 0,
  };
  for (const { explanation } of entries) {
    if (explanation === undefined) {
      totals.first++;
      continue;
    }
    if (explanation.kept) totals.kept++;
    else totals.changed++;
    totals.keptTokens += explanation.tokens.kept;
    totals.rebilledTokens += explanation.tokens.rebilled;
  }
  return totals;
}
