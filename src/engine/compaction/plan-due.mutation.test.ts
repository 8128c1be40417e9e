import { describe, expect, it } from 'vitest';
import { eventBuilders } from '../../../test/support/compaction-events.js';
import type { Event, EventCompaction } from '../../contracts/event.js';
import { planCompaction } from './plan-compaction.js';
import { type DueCompactionOptions, planDueCompaction, runningTurnStart } from './plan-due.js';

// When compaction is due and which trigger plans it (docs/mutation.md, module `compaction`): the runner's moments
// (before a model call, after an invocation, a stored history for `agentctx compact`) and where a turn still running
// begins. planning.mutation.test.ts covers the rest of the stored moment.

const { base, user, answer, call, result } = eventBuilders();
const compactionOf = (covered: readonly Event[]): EventCompaction => ({
  startTimestamp: (covered[0] as Event).timestamp,
  endTimestamp: (covered.at(-1) as Event).timestamp,
  compactedContent: { role: 'model', parts: [{ text: 'the story so far' }] },
  eventIds: covered.map((event) => event.id),
});
const summary = (id: string, covered: readonly Event[], invocationId = ''): Event => ({
  ...base(id, invocationId, 'user'),
  actions: { stateDelta: {}, artifactDelta: {}, compaction: compactionOf(covered) },
});
const turns = (count: number, from = 1): Event[] =>
  Array.from({ length: count }, (_, i) => [
    user(`u${from + i}`, `i${from + i}`),
    answer(`a${from + i}`, `i${from + i}`),
  ]).flat();
const ids = (events: readonly Event[] | undefined) => events?.map((event) => event.id);

const window = { compactionInterval: 1, overlapSize: 0 };
const token = [{ tokenThreshold: 10, eventRetentionSize: 0 }];
const after = (tokenCompacted: boolean, summaries: 'exact' | 'adk' = 'exact'): DueCompactionOptions => ({
  moment: { kind: 'after-invocation', tokenCompacted },
  promptTokens: 10,
  summaries,
});
const stored: DueCompactionOptions = { moment: { kind: 'stored' }, promptTokens: 10, summaries: 'exact' };

describe('planDueCompaction by moment', () => {
  it('before a model call, considers token triggers only', () => {
    const options: DueCompactionOptions = {
      moment: { kind: 'before-call', runningTurn: undefined },
      promptTokens: 10,
      summaries: 'exact',
    };
    expect(planDueCompaction(turns(2), { window }, options)).toBeUndefined();
    expect(planDueCompaction(turns(2), { window: undefined }, options)).toBeUndefined();
    expect(ids(planDueCompaction(turns(2), { token, window }, options)?.plan.events)).toEqual(['u1', 'a1', 'u2', 'a2']);
  });

  it('after an invocation whose turn already had a token compaction: nothing more under agentctx’s rules, the window under ADK’s', () => {
    expect(planDueCompaction(turns(2), { token, window }, after(true))).toBeUndefined();
    const adk = planDueCompaction(turns(2), { token, window }, after(true, 'adk'));
    expect(adk?.trigger).toBeUndefined();
    expect(adk?.plan.trigger).toBe('sliding_window');
    const fresh = planDueCompaction(turns(2), { token, window }, after(false));
    expect(fresh?.trigger).toBe(0);
    expect(planDueCompaction(turns(2), { window }, after(false))?.plan.trigger).toBe('sliding_window');
  });

  it('after an invocation left waiting on a long-running tool, the window takes that turn in up to the call', () => {
    const history = [...turns(1), user('u2', 'i2'), call('k2', 'i2')];
    const due = planDueCompaction(history, { window: { compactionInterval: 2, overlapSize: 0 } }, after(false));
    expect(ids(due?.plan.events)).toEqual(['u1', 'a1', 'u2']);
  });

  it('gives the seed of a rolling summary the id it is told to', () => {
    const first = turns(2);
    const events = [...first, summary('s1', first), ...turns(2, 3)];
    const due = planDueCompaction(
      events,
      { token: [{ tokenThreshold: 10, eventRetentionSize: 1 }] },
      { ...after(false), newId: () => 'fixed-id' },
    );
    expect(due?.plan.seed?.invocationId).toBe('fixed-id');
  });
});

describe('planDueCompaction for a stored history', () => {
  it('summarizes a running turn that has no user message, keeping nothing of it raw', () => {
    const history = [...turns(2), call('k3', 'i3'), result('r3', 'i3', 'c-k3')];
    expect(ids(planDueCompaction(history, { token }, stored)?.plan.events)).toEqual([
      'u1',
      'a1',
      'u2',
      'a2',
      'k3',
      'r3',
    ]);
  });

  it('keeps a summary written during the running turn when sliding the window', () => {
    // A token compaction ran in invocation i3 (after its question) and summarized i1.
    const history = [...turns(2), user('u3', 'i3'), call('k3', 'i3')];
    history.push(summary('s', history.slice(0, 2), 'i3'));
    const due = planDueCompaction(history, { window }, { ...stored, promptTokens: undefined });
    expect(ids(due?.plan.events)).toEqual(['u2', 'a2']);
  });
});

describe('runningTurnStart', () => {
  it('starts the turn at its user message even when an event of the invocation came first', () => {
    const state = base('st3', 'i3', 'agent');
    expect(runningTurnStart([...turns(2), state, user('u3', 'i3'), call('k3', 'i3')])).toBe(5);
  });

  it('does not take a summary of the running invocation for its user message', () => {
    const history = [...turns(2), call('k3', 'i3')];
    history.push(summary('s', turns(2), 'i3'), result('r3', 'i3', 'c-k3'));
    expect(runningTurnStart(history)).toBe(4);
  });

  it('does not take a summary for the last event, even one with content written by another run', () => {
    const history = [...turns(1), user('u2', 'i2'), call('k2', 'i2')];
    // `agentctx compact` writes its summary under an invocation of its own.
    const withText: Event = {
      ...summary('s', turns(1), 'compact-run'),
      content: { role: 'user', parts: [{ text: 'summary' }] },
    };
    expect(runningTurnStart([...history, withText])).toBe(2);
  });

  it('ends a turn at an error, an escalation or a skipped summarization, even on an event with a call or response', () => {
    const history = [...turns(1), user('u2', 'i2')];
    expect(runningTurnStart([...history, { ...call('k2', 'i2'), errorCode: 'MAX_TOKENS' }])).toBeUndefined();
    expect(
      runningTurnStart([
        ...history,
        { ...result('r2', 'i2', 'c'), actions: { stateDelta: {}, artifactDelta: {}, skipSummarization: true } },
      ]),
    ).toBeUndefined();
    expect(
      runningTurnStart([
        ...history,
        { ...result('r2', 'i2', 'c'), actions: { stateDelta: {}, artifactDelta: {}, skipSummarization: false } },
      ]),
    ).toBe(2);
    expect(
      runningTurnStart([
        ...history,
        { ...call('k2', 'i2'), actions: { stateDelta: {}, artifactDelta: {}, escalate: false } },
      ]),
    ).toBe(2);
  });

  it('keeps a turn running when its last message says something and calls a tool', () => {
    const sayAndCall: Event = {
      ...base('k2', 'i2', 'agent'),
      content: { role: 'model', parts: [{ text: 'one moment' }, { functionCall: { id: 'c', name: 'tool' } }] },
    };
    expect(runningTurnStart([...turns(1), user('u2', 'i2'), sayAndCall])).toBe(2);
  });

  it('in hand-written histories, starts at the latest user text, past model text, user events without content and summaries', () => {
    const thinking = answer('t2', '');
    const stateOnly = base('st', '', 'user');
    const withText: Event = {
      ...summary('s', [user('q0', '')]),
      content: { role: 'user', parts: [{ text: 'summary' }] },
    };
    expect(
      runningTurnStart([
        user('q1', ''),
        answer('a1', ''),
        user('q2', ''),
        thinking,
        stateOnly,
        withText,
        call('k2', ''),
      ]),
    ).toBe(2);
  });
});

describe('planCompaction by summary rules', () => {
  it('takes in a call a stopped run abandoned under agentctx’s rules, stops at it under ADK’s', () => {
    const history = [user('u1', 'i1'), call('k1', 'i1'), ...turns(1, 2)];
    const config = { tokenThreshold: 10, eventRetentionSize: 0 };
    expect(ids(planCompaction(history, config, { promptTokens: 10 })?.events)).toEqual(['u1', 'k1', 'u2', 'a2']);
    expect(ids(planCompaction(history, config, { promptTokens: 10, summaries: 'exact' })?.events)).toEqual([
      'u1',
      'k1',
      'u2',
      'a2',
    ]);
    expect(ids(planCompaction(history, config, { promptTokens: 10, summaries: 'adk' })?.events)).toEqual(['u1']);
  });
});
