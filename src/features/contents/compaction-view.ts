import type { EventCompaction } from '../../contracts/event.js';
import type { Source } from '../../contracts/source.js';
import { keptCompactions, listCompactions } from '../../engine/compaction/compaction-ranges.js';
import { CONTENTS_PROCESSOR, withParts, type WorkEvent } from './work-event.js';

/** How summaries replace the events they stand for. */
export type CompactionView = 'exact' | 'adk';

/** The line that introduces a summary in agentctx's view, so the model reads it as a recap, not as a turn. */
export const SUMMARY_HEADING = 'Summary of the earlier conversation:';

/**
 * Replaces summarized events by their summaries. Raw events stay in the session; only the view changes.
 *
 * `exact` (agentctx): each summary not subsumed by another replaces exactly the events it lists (or, for a compaction
 * written without a list, the events in its time range), in place, as a user message that opens with
 * {@link SUMMARY_HEADING}; nothing else moves.
 *
 * `adk` (ADK's `_process_compaction_events`): each such summary becomes a model turn at its end time, every raw event
 * whose time falls inside a kept range is dropped (with one that merely shares the end time), and the whole history
 * is re-sorted by (timestamp, position).
 */
export function substituteCompactions(events: readonly WorkEvent[], view: CompactionView): WorkEvent[] {
  const entries = listCompactions(events);
  if (entries.length === 0) return [...events];
  return view === 'adk'
    ? adkView(events, keptCompactions(entries, false))
    : exactView(events, keptCompactions(entries, true));
}

type Entry = { event: WorkEvent; compaction: EventCompaction; index: number };

function exactView(events: readonly WorkEvent[], kept: readonly Entry[]): WorkEvent[] {
  const covered = new Set<string>();
  // Each summary goes where the last event it stands for was; one whose events are all out of view, where it was written.
  const placeAt = new Map<number, WorkEvent[]>();
  for (const entry of kept) {
    const ids = coveredIds(events, entry.compaction);
    let at = -1;
    events.forEach((event, index) => {
      if (event.actions.compaction === undefined && ids.has(event.id)) at = index;
    });
    for (const id of ids) covered.add(id);
    const position = at === -1 ? entry.index : at;
    // Stryker disable next-line StringLiteral: summaryEvent treats every view but 'adk' as exact
    placeAt.set(position, [...(placeAt.get(position) ?? []), summaryEvent(entry, 'exact', [...ids])]);
  }
  const summarizedCalls = new Set(
    events.flatMap((event) =>
      covered.has(event.id) ? event.calls.flatMap((call) => (call.id === undefined ? [] : [call.id])) : [],
    ),
  );
  const result: WorkEvent[] = [];
  events.forEach((event, index) => {
    if (event.actions.compaction === undefined && !covered.has(event.id)) {
      const kept = event.responses.some((response) => response.id !== undefined && summarizedCalls.has(response.id))
        ? withoutResponsesTo(event, summarizedCalls)
        : event;
      if (kept !== undefined) result.push(kept);
    }
    const summaries = placeAt.get(index);
    if (summaries !== undefined) result.push(...summaries);
  });
  return result;
}

/**
 * The event without its responses to calls a summary took in. agentctx's planning never summarizes a call without its
 * responses, but an answer can come after the summary: the runner's `interrupted` answer to a call a stopped run
 * abandoned, or the late result of a call that was still running in another process. With its call only in the
 * summary's words, such a response has nothing to pair with in a request, so it is left out as its call is.
 */
function withoutResponsesTo(event: WorkEvent, calls: ReadonlySet<string>): WorkEvent | undefined {
  const keep = event.parts.map(
    (part) =>
      !('functionResponse' in part && part.functionResponse.id !== undefined && calls.has(part.functionResponse.id)),
  );
  if (!keep.includes(true)) return undefined;
  return withParts(
    event,
    event.parts.filter((_part, index) => keep[index]),
    event.sources.filter((_source, index) => keep[index]),
  );
}

function coveredIds(events: readonly WorkEvent[], compaction: EventCompaction, byIds = true): Set<string> {
  if (byIds && compaction.eventIds !== undefined) return new Set(compaction.eventIds);
  const { startTimestamp: start, endTimestamp: end } = compaction;
  return new Set(
    events
      .filter((event) => event.actions.compaction === undefined && event.timestamp >= start && event.timestamp <= end)
      .map((event) => event.id),
  );
}

function adkView(events: readonly WorkEvent[], kept: readonly Entry[]): WorkEvent[] {
  const items: { event: WorkEvent; index: number }[] = kept.map((entry) => ({
    event: summaryEvent(entry, 'adk', [...coveredIds(events, entry.compaction, false)]),
    index: entry.index,
  }));
  events.forEach((event, index) => {
    if (event.actions.compaction !== undefined) return;
    if (
      kept.some(
        ({ compaction }) => event.timestamp >= compaction.startTimestamp && event.timestamp <= compaction.endTimestamp,
      )
    )
      return;
    items.push({ event, index });
  });
  items.sort((a, b) => a.event.timestamp - b.event.timestamp || a.index - b.index);
  return items.map((item) => item.event);
}

// The summary's source lists the raw events it stands for, so an inspector can show them.
function summaryEvent({ event, compaction }: Entry, view: CompactionView, covered: string[]): WorkEvent {
  const source: Source = {
    kind: 'summary',
    processor: CONTENTS_PROCESSOR,
    agent: event.author,
    eventIds: covered,
    note: `summary of ${covered.length} events (${compaction.startTimestamp} to ${compaction.endTimestamp}), written by compaction event ${event.id}`,
  };
  const parts = compaction.compactedContent.parts;
  if (view === 'adk') {
    // ADK presents the summary as a turn by author 'model', so a named agent reads it as another agent's message.
    return withParts(
      { ...event, author: 'model', timestamp: compaction.endTimestamp, role: compaction.compactedContent.role },
      parts,
      parts.map(() => source),
    );
  }
  const withHeading = [{ text: SUMMARY_HEADING }, ...parts];
  return withParts(
    { ...event, author: 'user', role: 'user' },
    withHeading,
    withHeading.map(() => source),
  );
}
