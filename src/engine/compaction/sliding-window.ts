import type { CompactionPlan, SlidingWindow } from '../../contracts/compaction.js';
import type { Event } from '../../contracts/event.js';
import { afterCompaction, coveredEventIds } from './compaction-ranges.js';
import { abandonedCalls, closeOverPairs, cutAtPending } from './pending-calls.js';

/**
 * The sliding-window compaction due after an invocation (ADK's `_run_compaction_for_sliding_window`): once
 * `compactionInterval` invocations have completed since the last compaction, summarize all of them, starting
 * `overlapSize` invocations back, up to (not including) any call still waiting for its response or for a person.
 * With `byIds` (agentctx), the last compaction is placed by the events it lists rather than by its end time, and the
 * window also stops before a call answered only after it (ADK lets a long-running tool's call be summarized away).
 */
export function planSlidingWindow(
  events: readonly Event[],
  window: SlidingWindow,
  byIds = true,
): CompactionPlan | undefined {
  // ADK takes the last compaction in list order here (not the widest), whatever it covers.
  const last = events.findLast(
    (event) => event.actions.compaction !== undefined && event.actions.compaction.endTimestamp !== 0,
  )?.actions.compaction;
  const isNew = afterCompaction(events, last, byIds);
  // Invocations in order of first appearance, each with the position (and time) of its last event.
  const invocations = new Map<string, { first: number; last: number; fresh: boolean }>();
  events.forEach((event, index) => {
    if (event.actions.compaction !== undefined || event.invocationId === '') return;
    const seen = invocations.get(event.invocationId);
    if (seen === undefined)
      invocations.set(event.invocationId, { first: index, last: index, fresh: isNew(event, index) });
    else {
      seen.last = index;
      // ADK compares the invocation's latest timestamp, so one new event makes the invocation new.
      seen.fresh ||= isNew(event, index);
    }
  });
  const order = [...invocations.values()];
  const firstNew = order.findIndex((invocation) => invocation.fresh);
  if (firstNew === -1) return undefined;
  const fresh = order.slice(firstNew).filter((invocation) => invocation.fresh);
  if (fresh.length < window.compactionInterval) return undefined;
  const start = order[Math.max(0, firstNew - window.overlapSize)] as { first: number };
  const end = fresh.at(-1) as { last: number };
  const slice = events.slice(start.first, end.last + 1).filter((event) => event.actions.compaction === undefined);
  // agentctx's rules plan past calls a stopped run abandoned (ADK stops at them for good).
  const settled = byIds ? abandonedCalls(events) : undefined;
  const cut = cutAtPending(slice, events, settled);
  const covered = byIds ? closeOverPairs(cut, events, coveredEventIds(events), settled) : cut;
  if (covered.length === 0) return undefined;
  return {
    trigger: 'sliding_window',
    events: covered,
    startTimestamp: (covered[0] as Event).timestamp,
    endTimestamp: (covered.at(-1) as Event).timestamp,
    eventIds: covered.map((event) => event.id),
  };
}
