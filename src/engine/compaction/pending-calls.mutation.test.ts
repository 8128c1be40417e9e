import { describe, expect, it } from 'vitest';
import { eventBuilders } from '../../../test/support/compaction-events.js';
import type { Event, EventCompaction } from '../../contracts/event.js';
import {
  abandonedCalls,
  closeOverPairs,
  cutAtPendingCall,
  cutAtPendingRequest,
  summarizedCallIds,
} from './pending-calls.js';
import { planTokenCompaction } from './token-threshold.js';

// Never splitting a function call from its response (docs/mutation.md, module `compaction`): which calls a stopped run
// abandoned, where a run of events is cut at a call or a request still waiting, and how a summary's edge is closed
// over call/response pairs.

const { base, user, answer, call, result } = eventBuilders();
/** A model turn that says something and calls a tool in the same message. */
const sayAndCall = (id: string, invocationId: string, callId = `c-${id}`): Event => ({
  ...base(id, invocationId, 'agent'),
  content: {
    role: 'model',
    parts: [{ text: 'let me look that up' }, { functionCall: { id: callId, name: 'tool', args: {} } }],
  },
});
const ids = (events: readonly Event[] | undefined) => events?.map((event) => event.id);

describe('abandonedCalls', () => {
  it('lists an unanswered call once the conversation moved on to another invocation, even at the very start', () => {
    expect([...abandonedCalls([call('k1', 'i1'), user('u2', 'i2'), answer('a2', 'i2')])]).toEqual(['c-k1']);
  });

  it('leaves a call of the turn still running, or one answered, alone', () => {
    expect([...abandonedCalls([user('u1', 'i1'), call('k1', 'i1')])]).toEqual([]);
    expect([...abandonedCalls([user('u1', 'i1'), call('k1', 'i1'), user('u1b', 'i1')])]).toEqual([]);
    expect([
      ...abandonedCalls([user('u1', 'i1'), call('k1', 'i1'), user('u2', 'i2'), result('r1', 'i2', 'c-k1')]),
    ]).toEqual([]);
  });

  it('in histories without invocation ids, counts any later user message as moving on', () => {
    expect([...abandonedCalls([user('q1', ''), call('k1', ''), user('q2', ''), answer('a2', '')])]).toEqual(['c-k1']);
    expect([...abandonedCalls([user('q1', ''), call('k1', '')])]).toEqual([]);
  });

  it('counts only user messages with text: a bare function response or a summary does not move on', () => {
    const history = [user('u1', 'i1'), call('k1', 'i1')];
    // A person's answer to a request arrives as a user event holding only a function response.
    expect([...abandonedCalls([...history, result('r-x', 'i2', 'confirm-x', 'user')])]).toEqual([]);
    const compaction: EventCompaction = {
      startTimestamp: 0,
      endTimestamp: 1,
      compactedContent: { role: 'model', parts: [{ text: 'summary' }] },
      eventIds: ['u0'],
    };
    const summaryWithText: Event = { ...user('s', 'i2'), actions: { stateDelta: {}, artifactDelta: {}, compaction } };
    expect([...abandonedCalls([...history, summaryWithText])]).toEqual([]);
    // A message with text and an attachment is a message.
    const withImage: Event = {
      ...base('u2', 'i2', 'user'),
      content: { role: 'user', parts: [{ text: 'see this' }, { inlineData: { mimeType: 'image/png', data: 'AA==' } }] },
    };
    expect([...abandonedCalls([...history, withImage])]).toEqual(['c-k1']);
  });

  it('never lists a call without an id, nor ADK’s own request calls', () => {
    const moved = [user('u2', 'i2'), answer('a2', 'i2')];
    expect([...abandonedCalls([user('u1', 'i1'), call('k1', 'i1', null), ...moved])]).toEqual([]);
    expect([
      ...abandonedCalls([user('u1', 'i1'), call('k1', 'i1', 'c1', 'adk_request_confirmation'), ...moved]),
    ]).toEqual([]);
    expect([...abandonedCalls([user('u1', 'i1'), call('k1', 'i1', 'c1', 'lookup_adk_'), ...moved])]).toEqual(['c1']);
  });
});

describe('cutAtPendingCall and cutAtPendingRequest', () => {
  it('cut at an unanswered call that shares its message with text', () => {
    const history = [user('u1', 'i1'), sayAndCall('k1', 'i1'), answer('a1', 'i1')];
    expect(ids(cutAtPendingCall(history, history))).toEqual(['u1']);
    expect(ids(cutAtPendingCall(history, history, new Set(['c-k1'])))).toEqual(['u1', 'k1', 'a1']);
  });

  it('cut at a request for a person no later response resolves, even as the first event', () => {
    const request: Event = {
      ...call('k1', 'i1'),
      actions: { stateDelta: {}, artifactDelta: {}, requestedToolConfirmations: { 'c-k1': {} } },
    };
    const waiting = [request, answer('a1', 'i1')];
    expect(ids(cutAtPendingRequest(waiting, waiting))).toEqual([]);
    const resolved = [request, result('r1', 'i1', 'c-k1', 'user'), answer('a1', 'i1')];
    expect(ids(cutAtPendingRequest(resolved, resolved))).toEqual(['k1', 'r1', 'a1']);
    // An event that is not the session's own (a copy) is judged as if before everything: answered, it does not cut.
    expect(ids(cutAtPendingRequest([{ ...request }], resolved))).toEqual(['k1']);
  });
});

describe('closeOverPairs', () => {
  const none = new Set<string>();

  it('cuts at a call answered only after the run, even in a message with text', () => {
    const session = [
      user('u1', 'i1'),
      sayAndCall('k1', 'i1'),
      user('u2', 'i2'),
      result('r1', 'i2', 'c-k1'),
      answer('a2', 'i2'),
    ];
    expect(ids(closeOverPairs(session.slice(0, 2), session, none))).toEqual(['u1']);
    expect(ids(closeOverPairs(session.slice(0, 4), session, none))).toEqual(['u1', 'k1', 'u2', 'r1']);
  });

  it('cuts at a call never answered unless settled, and a settled call answered after the run still cuts', () => {
    const unanswered = [user('u1', 'i1'), call('k1', 'i1')];
    expect(ids(closeOverPairs(unanswered, unanswered, none))).toEqual(['u1']);
    expect(ids(closeOverPairs(unanswered, unanswered, none, new Set(['c-k1'])))).toEqual(['u1', 'k1']);
    const late = [...unanswered, result('r1', 'i2', 'c-k1')];
    expect(ids(closeOverPairs(unanswered, late, none, new Set(['c-k1'])))).toEqual(['u1']);
  });

  it('cuts at a response whose call is outside the run, unless a summary covers the call', () => {
    const session = [user('u1', 'i1'), call('k1', 'i1'), result('r1', 'i1', 'c-k1'), answer('a1', 'i1')];
    expect(ids(closeOverPairs(session.slice(2), session, none))).toEqual([]);
    expect(ids(closeOverPairs(session.slice(2), session, new Set(['u1', 'k1'])))).toEqual(['r1', 'a1']);
    // A response to a call the history does not hold at all.
    const orphan = [user('u1', 'i1'), result('r9', 'i1', 'gone'), answer('a1', 'i1')];
    expect(ids(closeOverPairs(orphan, orphan, none))).toEqual(['u1']);
  });
});

describe('summarizedCallIds', () => {
  it('lists the ids of calls in covered events only, skipping calls without ids and events without content', () => {
    const stateOnly = base('st', 'i1', 'agent');
    const session = [user('u1', 'i1'), call('k1', 'i1'), call('k0', 'i1', null), stateOnly, call('k2', 'i1')];
    expect([...summarizedCallIds(session, new Set(['u1', 'k1', 'k0', 'st']))]).toEqual(['c-k1']);
    expect([...summarizedCallIds(session, new Set())]).toEqual([]);
  });
});

describe('the pair-safe split of a token compaction', () => {
  it('walks back over events without content', () => {
    const history = [
      user('u1', 'i1'),
      call('k1', 'i1'),
      result('r1', 'i1', 'c-k1'),
      answer('a1', 'i1'),
      base('state', 'i1', 'agent'),
    ];
    const plan = planTokenCompaction(history, { tokenThreshold: 1, eventRetentionSize: 1 }, { promptTokens: 1 });
    expect(ids(plan?.events)).toEqual(['u1', 'k1', 'r1', 'a1']);
  });
});

describe('long-running calls (issue 48)', () => {
  const longRunning = (id: string, invocationId: string): Event => ({
    ...call(id, invocationId),
    longRunningToolIds: [`c-${id}`],
  });

  it('are never abandoned, however far the conversation moved on', () => {
    expect([
      ...abandonedCalls([user('u1', 'i1'), longRunning('k1', 'i1'), user('u2', 'i2'), answer('a2', 'i2')]),
    ]).toEqual([]);
  });

  it('cut a run until the client answers them: the tool’s own pending status is no answer', () => {
    const pending = result('p1', 'i1', 'c-k1', 'agent');
    const history = [user('u1', 'i1'), longRunning('k1', 'i1'), pending, answer('a1', 'i1')];
    expect(ids(cutAtPendingRequest(history, history))).toEqual(['u1']);
    const answered = [...history, result('r1', 'i2', 'c-k1', 'user')];
    expect(ids(cutAtPendingRequest(answered, answered))).toEqual(['u1', 'k1', 'p1', 'a1', 'r1']);
  });
});
