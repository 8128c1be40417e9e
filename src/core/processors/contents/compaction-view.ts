import type { Source } from '../../request/source.js';
import type { EventCompaction } from '../../session/event.js';
import { CONTENTS_PROCESSOR, withParts, type WorkEvent } from './work-event.js';

type Compaction = { event: WorkEvent; compaction: EventCompaction; index: number };

/**
 * Replaces summarized events by their summaries (ADK's `_process_compaction_events`): every compaction not covered by
 * a wider or later one becomes a summary at its end time, raw events inside a kept range are dropped, and the result
 * is ordered by (timestamp, position). Raw events stay in the session; only the view changes.
 */
export function substituteCompactions(events: readonly WorkEvent[]): WorkEvent[] {
  const compactions: Compaction[] = [];
  events.forEach((event, index) => {
    const compaction = event.actions.compaction;
    if (compaction !== undefined) compactions.push({ event, compaction, index });
  });
  if (compactions.length === 0) return [...events];
  const kept = compactions.filter((candidate) => !compactions.some((other) => other !== candidate && subsumes(other, candidate)));
  const items: { event: WorkEvent; index: number }[] = [];
  for (const { event, compaction, index } of kept) {
    const source: Source = {
      kind: 'summary',
      processor: CONTENTS_PROCESSOR,
      agent: event.author,
      eventIds: [event.id],
      note: `summary of the events from ${compaction.startTimestamp} to ${compaction.endTimestamp}`,
    };
    const parts = compaction.compactedContent.parts;
    const summary = withParts(
      { ...event, author: 'model', timestamp: compaction.endTimestamp, role: compaction.compactedContent.role },
      parts,
      parts.map(() => source),
    );
    items.push({ event: summary, index });
  }
  const ranges = kept.map(({ compaction }) => compaction);
  events.forEach((event, index) => {
    if (event.actions.compaction !== undefined) return;
    if (ranges.some((range) => event.timestamp >= range.startTimestamp && event.timestamp <= range.endTimestamp)) return;
    items.push({ event, index });
  });
  items.sort((a, b) => a.event.timestamp - b.event.timestamp || a.index - b.index);
  return items.map((item) => item.event);
}

// Y subsumes X when Y covers X's range and is strictly wider, or covers it exactly and comes later.
function subsumes(y: Compaction, x: Compaction): boolean {
  const covers = y.compaction.startTimestamp <= x.compaction.startTimestamp && y.compaction.endTimestamp >= x.compaction.endTimestamp;
  if (!covers) return false;
  const wider = y.compaction.startTimestamp < x.compaction.startTimestamp || y.compaction.endTimestamp > x.compaction.endTimestamp;
  return wider || y.index > x.index;
}
