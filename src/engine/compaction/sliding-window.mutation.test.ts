import { describe, expect, it } from 'vitest';
import { eventBuilders } from '../../../test/support/compaction-events.js';
import type { Event, EventCompaction } from '../../contracts/event.js';
import { planSlidingWindow } from './sliding-window.js';

// The sliding window (docs/mutation.md, module `compaction`): which invocations count as new since the last summary,
// where the window starts and ends, and when there is nothing left to summarize.

const { base, user, answer, call, result } = eventBuilders();
const withCompaction = (id: string, compaction: EventCompaction): Event => ({
  ...base(id, '', 'user'),
  actions: { stateDelta: {}, artifactDelta: {}, compaction },
});
const summary = (id: string, covered: readonly Event[]): Event =>
  withCompaction(id, {
    startTimestamp: (covered[0] as Event).timestamp,
    endTimestamp: (covered.at(-1) as Event).timestamp,
    compactedContent: { role: 'model', parts: [{ text: 'the story so far' }] },
    eventIds: covered.map((event) => event.id),
  });
const turns = (count: number, from = 1): Event[] =>
  Array.from({ length: count }, (_, i) => [
    user(`u${from + i}`, `i${from + i}`),
    answer(`a${from + i}`, `i${from + i}`),
  ]).flat();
const ids = (events: readonly Event[] | undefined) => events?.map((event) => event.id);
const every = { compactionInterval: 1, overlapSize: 0 };

describe('planSlidingWindow', () => {
  it('plans exactly the invocations after the last summary, with their range and ids', () => {
    const first = turns(1);
    const second = turns(1, 2);
    const plan = planSlidingWindow([...first, summary('s1', first), ...second], every);
    expect(plan).toStrictEqual({
      trigger: 'sliding_window',
      events: second,
      startTimestamp: (second[0] as Event).timestamp,
      endTimestamp: (second[1] as Event).timestamp,
      eventIds: ['u2', 'a2'],
    });
  });

  it('ignores a summary with an empty range (end time 0) when finding the last one', () => {
    const first = turns(1);
    const empty: EventCompaction = {
      startTimestamp: 0,
      endTimestamp: 0,
      compactedContent: { role: 'model', parts: [{ text: '' }] },
    };
    const events = [...first, summary('s1', first), ...turns(1, 2), withCompaction('s0', empty)];
    expect(ids(planSlidingWindow(events, every)?.events)).toEqual(['u2', 'a2']);
  });

  it('groups no events without an invocation id into the window', () => {
    const handWritten = [user('q0', ''), answer('r0', '')];
    expect(planSlidingWindow(handWritten, every)).toBeUndefined();
    expect(ids(planSlidingWindow([...handWritten, ...turns(1)], every)?.events)).toEqual(['u1', 'a1']);
  });

  it('counts an invocation as new when any of its events is, even if a summary took in its start', () => {
    // A token compaction during i2 summarized its question; i2 then went on.
    const head = [...turns(1), user('u2', 'i2')];
    const events = [...head, summary('s', head), call('k2', 'i2'), result('r2', 'i2', 'c-k2'), answer('a2', 'i2')];
    expect(ids(planSlidingWindow(events, every)?.events)).toEqual(['u2', 'k2', 'r2', 'a2']);
  });

  it('counts only new invocations, and ends the window at the last new one', () => {
    // i1 started, i2 ran in between and was summarized with i1's start; i1's answer came after.
    const early = [user('u1', 'i1'), user('u2', 'i2'), answer('a2', 'i2')];
    const events = [...early, summary('s', early), answer('a1', 'i1')];
    expect(ids(planSlidingWindow(events, every)?.events)).toEqual(['u1', 'u2', 'a2', 'a1']);
    expect(planSlidingWindow(events, { compactionInterval: 2, overlapSize: 0 })).toBeUndefined();
  });

  it('plans nothing when the window would start with a call still waiting (ADK’s rules)', () => {
    const events = [call('k1', 'i1'), ...turns(1, 2)];
    expect(planSlidingWindow(events, every, false)).toBeUndefined();
    // agentctx's rules take the call in: the conversation moved on from it.
    expect(ids(planSlidingWindow(events, every, true)?.events)).toEqual(['k1', 'u2', 'a2']);
  });
});
