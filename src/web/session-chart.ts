import type { Event } from '../contracts/event.js';
import type { LoadedCall } from './call-loader.js';
import { checkProvenanceFit } from './provenance-fit.js';

/** One call's prompt tokens, split by the source kind of each block, tool and message part. */
export type ChartCall = {
  index: number;
  agent: string;
  timestamp: number;
  total: number;
  /** Source kind → tokens; message framing is under `framing`. */
  byKind: Record<string, number>;
  /** What the provider billed as prompt tokens, when the call recorded usage. */
  billedPromptTokens: number | null;
  /** A page block (source kind `page`) from a paging processor and field the call before did not carry: something was paged in. */
  pageIn: boolean;
};

/** What the chart needs of one call's request, counted once (see chart-rows.ts): its bar, and the pages it carried. */
export type ChartRow = Omit<ChartCall, 'billedPromptTokens' | 'pageIn'> & { pages: string[] };

/** A compaction, placed after the last call recorded before it (0: before the first call). */
export type ChartCompaction = { eventId: string; afterCall: number; timestamp: number; eventCount: number };

export type SessionChart = { encoding: string; kinds: string[]; calls: ChartCall[]; compactions: ChartCompaction[] };

/** A call's tokens by source kind, and the page blocks its instruction carried. */
export function chartRow({ record, tokens }: LoadedCall): ChartRow {
  const byKind: Record<string, number> = {};
  const add = (kind: string, count: number) => {
    if (count !== 0) byKind[kind] = (byKind[kind] ?? 0) + count;
  };
  const { provenance } = record;
  // Sources that do not line up with the request (an old recording) count as 'other', as the call view shows them.
  const fit = checkProvenanceFit(record.request, provenance);
  if (provenance.system.length === 0 || !fit.system) add('other', tokens.system.total);
  else provenance.system.forEach((block, index) => add(block.source.kind, tokens.system.blocks[index] ?? 0));
  tokens.tools.each.forEach((count, index) =>
    add((fit.tools ? provenance.tools[index]?.kind : undefined) ?? 'other', count),
  );
  tokens.messages.each.forEach((message, index) =>
    message.parts.forEach((count, part) =>
      add((fit.messages ? provenance.messages[index]?.[part]?.kind : undefined) ?? 'other', count),
    ),
  );
  add('framing', tokens.framing);
  const pages = provenance.system
    .filter((block) => block.source.kind === 'page')
    .map((block) => `${block.source.processor}\u0000${block.source.field ?? ''}`);
  return {
    index: record.index,
    agent: record.agent,
    timestamp: record.timestamp,
    total: tokens.total,
    byKind,
    pages: [...new Set(pages)],
  };
}

/** Prompt tokens per call stacked by source kind, with compactions and page-ins marked. */
export function buildSessionChart(
  rows: readonly (ChartRow & { billedPromptTokens: number | null })[],
  events: readonly Event[],
  encoding: string,
): SessionChart {
  const kinds = new Set<string>();
  let previousPages = new Set<string>();
  const calls = rows.map(({ pages, ...row }): ChartCall => {
    for (const kind of Object.keys(row.byKind)) kinds.add(kind);
    const pageIn = pages.some((page) => !previousPages.has(page));
    previousPages = new Set(pages);
    return {
      index: row.index,
      agent: row.agent,
      timestamp: row.timestamp,
      total: row.total,
      byKind: row.byKind,
      billedPromptTokens: row.billedPromptTokens,
      pageIn,
    };
  });
  const compactions = events.flatMap((event): ChartCompaction[] => {
    if (event.actions.compaction === undefined) return [];
    const before = calls.filter((call) => call.timestamp <= event.timestamp).at(-1);
    return [
      {
        eventId: event.id,
        afterCall: before?.index ?? 0,
        timestamp: event.timestamp,
        eventCount: event.actions.compaction.eventIds?.length ?? 0,
      },
    ];
  });
  return { encoding, kinds: [...kinds], calls, compactions };
}
