import type { Event, EventCompaction } from '../../contracts/event.js';

/** A compaction found in a history, with its position there. */
export type CompactionEntry = {
  readonly event: Event;
  readonly compaction: EventCompaction;
  readonly index: number;
};

/** The compactions of a history, in list order. */
export function listCompactions<E extends { readonly actions: Event['actions'] }>(
  events: readonly E[],
): { event: E; compaction: EventCompaction; index: number }[] {
  const entries: { event: E; compaction: EventCompaction; index: number }[] = [];
  events.forEach((event, index) => {
    const compaction = event.actions.compaction;
    if (compaction !== undefined) entries.push({ event, compaction, index });
  });
  return entries;
}

/**
 * Whether compaction `y` makes `x` redundant: it stands for everything `x` does and more, or for the same and was
 * written later (ADK's rule). Compared by event ids when both list them, so events that share a timestamp with a
 * range's edge are told apart; by timestamp range otherwise, and always with `byIds` false, as ADK does.
 */
export function subsumes(
  y: { compaction: EventCompaction; index: number },
  x: { compaction: EventCompaction; index: number },
  byIds = true,
): boolean {
  if (byIds && y.compaction.eventIds !== undefined && x.compaction.eventIds !== undefined) {
    const covered = idSet(y.compaction);
    const inner = idSet(x.compaction);
    if (inner.size > covered.size) return false;
    for (const id of inner) if (!covered.has(id)) return false;
    return covered.size > inner.size || y.index > x.index;
  }
  const a = y.compaction;
  const b = x.compaction;
  if (!(a.startTimestamp <= b.startTimestamp && a.endTimestamp >= b.endTimestamp)) return false;
  const wider = a.startTimestamp < b.startTimestamp || a.endTimestamp > b.endTimestamp;
  return wider || y.index > x.index;
}

// Rolling summaries list every event since the first, so sets are built once per compaction (events are frozen).
const idSets = new WeakMap<EventCompaction, ReadonlySet<string>>();

function idSet(compaction: EventCompaction): ReadonlySet<string> {
  let ids = idSets.get(compaction);
  if (ids === undefined) idSets.set(compaction, (ids = new Set(compaction.eventIds)));
  return ids;
}

/** The compactions no other one subsumes, in list order: the summaries a request shows. */
export function keptCompactions<C extends { compaction: EventCompaction; index: number }>(
  entries: readonly C[],
  byIds = true,
): C[] {
  return entries.filter(
    (candidate) => !entries.some((other) => other !== candidate && subsumes(other, candidate, byIds)),
  );
}

/** The last compaction in list order that no other one subsumes: where the next summary continues from. */
export function latestCompaction(events: readonly Event[], byIds = true): CompactionEntry | undefined {
  return keptCompactions(listCompactions(events), byIds).at(-1);
}

/** Whether a compaction stands for this event: listed by id, or (without ids) inside its timestamp range. */
export function coversEvent(
  compaction: EventCompaction,
  event: { readonly id: string; readonly timestamp: number },
): boolean {
  if (compaction.eventIds !== undefined) return compaction.eventIds.includes(event.id);
  return event.timestamp >= compaction.startTimestamp && event.timestamp <= compaction.endTimestamp;
}

/**
 * Which events come after what a compaction stands for. By position, after the last event it lists, when it lists
 * them (equal timestamps cannot confuse this); by timestamp otherwise, as ADK does.
 */
export function afterCompaction(
  events: readonly Event[],
  compaction: EventCompaction | undefined,
  byIds: boolean,
): (event: Event, index: number) => boolean {
  if (compaction === undefined) return () => true;
  if (byIds && compaction.eventIds !== undefined) {
    const ids = new Set(compaction.eventIds);
    let last = -1;
    events.forEach((event, index) => {
      if (ids.has(event.id)) last = index;
    });
    if (last >= 0) return (_event, index) => index > last;
  }
  return (event) => event.timestamp > compaction.endTimestamp;
}

/** The ids of every event some kept summary stands for (listed ids, or the events in its time range). */
export function coveredEventIds(events: readonly Event[]): Set<string> {
  const covered = new Set<string>();
  for (const { compaction } of keptCompactions(listCompactions(events))) {
    if (compaction.eventIds !== undefined) for (const id of compaction.eventIds) covered.add(id);
    else
      for (const event of events)
        if (event.actions.compaction === undefined && coversEvent(compaction, event)) covered.add(event.id);
  }
  return covered;
}
