import { describe, expect, it } from 'vitest';
import type { Event, EventCompaction } from '../../contracts/event.js';
import {
  afterCompaction,
  coveredEventIds,
  coversEvent,
  keptCompactions,
  latestCompaction,
  subsumes,
} from './compaction-ranges.js';

// Which summaries a history keeps and what they stand for (docs/mutation.md, module `compaction`): subsumption by
// listed ids (agentctx) or by time range (ADK), the edges of a range, and events that share a timestamp with an edge.

const range = (startTimestamp: number, endTimestamp: number, eventIds?: string[]): EventCompaction => ({
  startTimestamp,
  endTimestamp,
  compactedContent: { role: 'model', parts: [{ text: 'summary' }] },
  ...(eventIds === undefined ? {} : { eventIds }),
});
const at = (index: number, compaction: EventCompaction) => ({ compaction, index });
const event = (id: string, timestamp: number): Event => ({
  id,
  invocationId: 'i',
  author: 'agent',
  timestamp,
  content: { role: 'model', parts: [{ text: id }] },
  actions: { stateDelta: {}, artifactDelta: {} },
});
const summary = (id: string, timestamp: number, compaction: EventCompaction): Event => ({
  id,
  invocationId: 'i',
  author: 'user',
  timestamp,
  actions: { stateDelta: {}, artifactDelta: {}, compaction },
});

// a (t1) and b (t2) summarized by SA, listing both; c shares b's timestamp and is summarized later, alone, by SB.
// By listed ids both summaries are needed; by time range SA (1–2) swallows SB (2–2), and c is lost as in ADK.
const sharedEdge = [
  event('a', 1),
  event('b', 2),
  summary('SA', 3, range(1, 2, ['a', 'b'])),
  event('c', 2),
  summary('SB', 4, range(2, 2, ['c'])),
];
const A = at(2, range(1, 2, ['a', 'b']));
const B = at(4, range(2, 2, ['c']));

describe('subsumes', () => {
  it('by listed ids: a superset subsumes wherever it stands, the same set only when written later', () => {
    const wide = at(0, range(1, 3, ['a', 'b', 'c']));
    const narrow = at(5, range(1, 2, ['a', 'b']));
    expect(subsumes(wide, narrow)).toBe(true);
    expect(subsumes(narrow, wide)).toBe(false);
    const first = at(1, range(1, 2, ['a', 'b']));
    const again = at(4, range(1, 2, ['b', 'a']));
    expect(subsumes(again, first)).toBe(true);
    expect(subsumes(first, again)).toBe(false);
    expect(subsumes(first, first)).toBe(false);
    // Overlapping sets: neither stands for the other.
    expect(subsumes(at(3, range(1, 3, ['a', 'c'])), at(2, range(1, 2, ['b'])))).toBe(false);
  });

  it('compares by listed ids by default, by time range when told to (ADK)', () => {
    expect(subsumes(A, B)).toBe(false);
    expect(subsumes(A, B, true)).toBe(false);
    expect(subsumes(A, B, false)).toBe(true);
  });

  it('falls back to time ranges when either summary lists no ids', () => {
    // By time the first covers the second; by ids (an unlisted summary is an empty set) it would not.
    expect(subsumes(at(0, range(1, 5)), at(1, range(2, 3, ['b'])))).toBe(true);
    // By time the first does not cover the second; an empty set of ids would make it look covered.
    expect(subsumes(at(0, range(2, 3, ['b'])), at(1, range(1, 5)))).toBe(false);
  });

  it('by time range: wider at either end subsumes whatever its position, the same range only when later', () => {
    expect(subsumes(at(0, range(1, 3)), at(1, range(2, 3)), false)).toBe(true);
    expect(subsumes(at(0, range(2, 4)), at(1, range(2, 3)), false)).toBe(true);
    expect(subsumes(at(0, range(2, 3)), at(1, range(1, 3)), false)).toBe(false);
    expect(subsumes(at(1, range(2, 3)), at(0, range(2, 3)), false)).toBe(true);
    expect(subsumes(at(0, range(2, 3)), at(1, range(2, 3)), false)).toBe(false);
    const self = at(0, range(2, 3));
    expect(subsumes(self, self, false)).toBe(false);
  });
});

describe('keptCompactions and latestCompaction', () => {
  it('keep both summaries of a shared timestamp by ids (the default), only the wider by time', () => {
    expect(keptCompactions([A, B])).toEqual([A, B]);
    expect(keptCompactions([A, B], false)).toEqual([A]);
    expect(latestCompaction(sharedEdge)?.event.id).toBe('SB');
    expect(latestCompaction(sharedEdge, true)?.event.id).toBe('SB');
    expect(latestCompaction(sharedEdge, false)?.event.id).toBe('SA');
  });

  it('drop a summary repeated later with the same ids', () => {
    const first = at(1, range(1, 2, ['a', 'b']));
    const again = at(3, range(1, 2, ['a', 'b']));
    expect(keptCompactions([first, again])).toEqual([again]);
  });
});

describe('coversEvent', () => {
  it('goes by the listed ids when there are some, whatever the timestamps', () => {
    expect(coversEvent(range(1, 3, ['a']), { id: 'b', timestamp: 2 })).toBe(false);
    expect(coversEvent(range(1, 3, ['a']), { id: 'a', timestamp: 9 })).toBe(true);
  });

  it('without ids, takes the time range with both edges included', () => {
    const covers = (timestamp: number) => coversEvent(range(2, 4), { id: 'x', timestamp });
    expect([1, 2, 3, 4, 5].map(covers)).toEqual([false, true, true, true, false]);
  });
});

describe('afterCompaction', () => {
  const events = [event('a', 1), event('b', 2), event('c', 2), event('d', 3)];
  const fresh = (test: (event: Event, index: number) => boolean) => events.filter(test).map((e) => e.id);

  it('treats everything as new when there is no summary', () => {
    expect(fresh(afterCompaction(events, undefined, true))).toEqual(['a', 'b', 'c', 'd']);
  });

  it('starts after the last listed event by ids, after the end time by ADK’s rules', () => {
    expect(fresh(afterCompaction(events, range(1, 2, ['a', 'b']), true))).toEqual(['c', 'd']);
    expect(fresh(afterCompaction(events, range(1, 2, ['a', 'b']), false))).toEqual(['d']);
    expect(fresh(afterCompaction(events, range(1, 2), true))).toEqual(['d']);
  });

  it('falls back to the end time when none of the listed events is in the history', () => {
    expect(fresh(afterCompaction(events, range(1, 2, ['gone']), true))).toEqual(['d']);
  });
});

describe('coveredEventIds', () => {
  it('takes the listed ids, not every event in the time range', () => {
    expect([...coveredEventIds([event('a', 1), event('b', 2), summary('S', 3, range(1, 2, ['a']))])]).toEqual(['a']);
    // A listed event no longer in the history is still one the summary stands for.
    expect([...coveredEventIds([event('b', 2), summary('S', 3, range(1, 2, ['a', 'b']))])]).toEqual(['a', 'b']);
  });

  it('keeps a summary by ids that the time range would swallow (a shared timestamp)', () => {
    expect([...coveredEventIds(sharedEdge)].sort()).toEqual(['a', 'b', 'c']);
  });

  it('without ids, takes the raw events in the kept summary’s range, never a summary event', () => {
    const events = [
      event('a', 1),
      summary('S1', 2, range(1, 1)),
      event('b', 3),
      event('c', 5),
      summary('S2', 6, range(1, 3)),
    ];
    // S2 (1–3) subsumes S1 (1–1); S1's own event falls in S2's range but is no raw event.
    expect([...coveredEventIds(events)]).toEqual(['a', 'b']);
    expect([...coveredEventIds(events.slice(0, 2))]).toEqual(['a']);
  });
});
