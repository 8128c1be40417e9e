import { describe, expect, it } from 'vitest';
import { eventBuilders } from '../../../test/support/compaction-events.js';
import type { Event, EventCompaction } from '../../contracts/event.js';
import { planCompaction } from './plan-compaction.js';
import { planDueCompaction, runningTurnStart } from './plan-due.js';
import { planTokenCompaction } from './token-threshold.js';

// Compaction planning pinned where mutants survived `npm run mutate -- compaction` (docs/mutation.md): the public
// `planCompaction`, the `stored` moment of `agentctx compact` (tested otherwise only through the built CLI, which a
// mutant of src/ never reaches) and the seed of a rolling summary.

const { base, user, answer, call, result } = eventBuilders();
const summary = (id: string, covered: readonly Event[]): Event => {
  const compaction: EventCompaction = {
    startTimestamp: (covered[0] as Event).timestamp,
    endTimestamp: (covered.at(-1) as Event).timestamp,
    compactedContent: { role: 'model', parts: [{ text: 'the story so far' }] },
    eventIds: covered.map((event) => event.id),
  };
  return { ...base(id, '', 'user'), actions: { stateDelta: {}, artifactDelta: {}, compaction } };
};
/** `count` finished turns (a question and its answer), invocations i1, i2, … */
const turns = (count: number, from = 1): Event[] =>
  Array.from({ length: count }, (_, i) => [
    user(`u${from + i}`, `i${from + i}`),
    answer(`a${from + i}`, `i${from + i}`),
  ]).flat();
const ids = (events: readonly Event[] | undefined) => events?.map((event) => event.id);

describe('planCompaction', () => {
  const history = turns(3);

  it('plans the token trigger first, keeping the last events raw and recording the prompt size', () => {
    const plan = planCompaction(
      history,
      { tokenThreshold: 100, eventRetentionSize: 2, compactionInterval: 1, overlapSize: 0 },
      { promptTokens: 100 },
    );
    expect(plan?.trigger).toBe('token_threshold');
    expect(ids(plan?.events)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(plan?.eventIds).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(plan?.promptTokens).toBe(100);
  });

  it('falls back to the sliding window when the prompt is under the threshold or unknown', () => {
    const config = { tokenThreshold: 100, eventRetentionSize: 2, compactionInterval: 3, overlapSize: 0 };
    for (const promptTokens of [99, undefined]) {
      const plan = planCompaction(history, config, { promptTokens });
      expect(plan?.trigger, String(promptTokens)).toBe('sliding_window');
      expect(ids(plan?.events)).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3']);
    }
    expect(planCompaction(history, { ...config, compactionInterval: 4 }, { promptTokens: 99 })).toBeUndefined();
  });

  it('needs both halves of a trigger', () => {
    expect(planCompaction(history, { tokenThreshold: 100 }, { promptTokens: 500 })).toBeUndefined();
    expect(planCompaction(history, { eventRetentionSize: 1 }, { promptTokens: 500 })).toBeUndefined();
    expect(planCompaction(history, { compactionInterval: 1 }, {})).toBeUndefined();
    expect(planCompaction(history, { overlapSize: 0 }, {})).toBeUndefined();
    expect(
      planCompaction(history, { tokenThreshold: 100, eventRetentionSize: 1 }, { promptTokens: 500 })?.trigger,
    ).toBe('token_threshold');
    expect(planCompaction(history, { compactionInterval: 1, overlapSize: 0 })?.trigger).toBe('sliding_window');
  });

  it('keeps the event it is told to keep raw, with everything after it', () => {
    const running = [...history, user('u4', 'i4'), call('k4', 'i4'), result('r4', 'i4', 'c-k4'), answer('a4', 'i4')];
    const config = { tokenThreshold: 10, eventRetentionSize: 1 };
    expect(ids(planCompaction(running, config, { promptTokens: 10, keepFrom: 'u4' })?.events)).toEqual([
      'u1',
      'a1',
      'u2',
      'a2',
      'u3',
      'a3',
    ]);
    expect(ids(planCompaction(running, config, { promptTokens: 10 })?.events)).toEqual([
      'u1',
      'a1',
      'u2',
      'a2',
      'u3',
      'a3',
      'u4',
      'k4',
      'r4',
    ]);
  });

  it('carries a previous summary in as the seed, with the id it is given', () => {
    const first = turns(2);
    const events = [...first, summary('s1', first), ...turns(2, 3)];
    const plan = planCompaction(
      events,
      { tokenThreshold: 10, eventRetentionSize: 1 },
      { promptTokens: 10, newId: () => 'fixed-id' },
    );
    expect(plan?.seed).toEqual({
      id: 'seed-s1',
      invocationId: 'fixed-id',
      author: 'model',
      timestamp: (first[0] as Event).timestamp,
      content: { role: 'model', parts: [{ text: 'the story so far' }] },
      actions: { stateDelta: {}, artifactDelta: {} },
    });
    expect(plan?.startTimestamp).toBe((first[0] as Event).timestamp);
    expect(plan?.eventIds).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3', 'u4']);
    expect(
      planTokenCompaction(events, { tokenThreshold: 10, eventRetentionSize: 1 }, { promptTokens: 10 })?.seed
        ?.invocationId,
    ).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('lists, under ADK’s rules, what an older summary covered by its time range', () => {
    const first = turns(2);
    const { eventIds: _listed, ...byTime } = summary('s1', first).actions.compaction as EventCompaction;
    const events = [
      ...first,
      { ...base('s1', '', 'user'), actions: { stateDelta: {}, artifactDelta: {}, compaction: byTime } },
      ...turns(2, 3),
    ];
    const plan = planCompaction(
      events,
      { tokenThreshold: 10, eventRetentionSize: 1 },
      { promptTokens: 10, summaries: 'adk' },
    );
    expect(plan?.eventIds).toEqual(['u1', 'a1', 'u2', 'a2', 'u3', 'a3', 'u4']);
  });
});

describe('runningTurnStart', () => {
  it('is undefined when the history ends with a finished turn: an answer, an error or an escalation', () => {
    expect(runningTurnStart(turns(2))).toBeUndefined();
    expect(runningTurnStart([...turns(1), { ...base('e', 'i1', 'agent'), errorCode: 'boom' }])).toBeUndefined();
    expect(
      runningTurnStart([
        ...turns(1),
        { ...call('k', 'i2'), actions: { stateDelta: {}, artifactDelta: {}, escalate: true } },
      ]),
    ).toBeUndefined();
    expect(runningTurnStart([])).toBeUndefined();
  });

  it('finds the user message of a turn left waiting on a tool, past summaries, partial and empty events', () => {
    const history = [...turns(1), user('u2', 'i2'), call('k2', 'i2')];
    expect(runningTurnStart(history)).toBe(2);
    expect(runningTurnStart([...history, result('r2', 'i2', 'c-k2')])).toBe(2);
    expect(
      runningTurnStart([
        ...history,
        { ...answer('p', 'i2'), partial: true },
        base('empty', 'i2', 'agent'),
        summary('s', turns(1, 9)),
      ]),
    ).toBe(2);
    expect(runningTurnStart([...history, { ...base('e', 'i2', 'agent'), errorCode: 'boom' }])).toBeUndefined();
  });

  it('starts a turn without a user message at its first event', () => {
    expect(runningTurnStart([...turns(1), call('k2', 'i2'), result('r2', 'i2', 'c-k2')])).toBe(2);
  });

  it('reads hand-written events without invocation ids from the latest user text', () => {
    const history = [
      user('q1', ''),
      answer('a1', ''),
      user('q2', ''),
      { ...user('ignored', ''), content: { role: 'user' as const, parts: [] } },
      call('k2', ''),
    ];
    expect(runningTurnStart(history)).toBe(2);
    expect(runningTurnStart([result('r', '', 'c')])).toBeUndefined();
  });
});

describe('planDueCompaction at the stored moment', () => {
  it('leaves the turn still running out of the sliding window', () => {
    const history = [...turns(2), user('u3', 'i3'), call('k3', 'i3')];
    const due = planDueCompaction(
      history,
      { window: { compactionInterval: 2, overlapSize: 0 } },
      { moment: { kind: 'stored' }, promptTokens: undefined, summaries: 'exact' },
    );
    expect(due?.trigger).toBeUndefined();
    expect(ids(due?.plan.events)).toEqual(['u1', 'a1', 'u2', 'a2']);
  });

  it('keeps the running question raw under a token trigger', () => {
    const history = [...turns(2), user('u3', 'i3'), call('k3', 'i3'), result('r3', 'i3', 'c-k3')];
    const due = planDueCompaction(
      history,
      { token: [{ tokenThreshold: 1, eventRetentionSize: 0 }] },
      { moment: { kind: 'stored' }, promptTokens: 5, summaries: 'exact' },
    );
    expect(due?.trigger).toBe(0);
    expect(ids(due?.plan.events)).toEqual(['u1', 'a1', 'u2', 'a2']);
  });
});
