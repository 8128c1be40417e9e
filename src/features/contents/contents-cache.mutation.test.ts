import { describe, expect, it } from 'vitest';
import type { Part } from '../../contracts/content.js';
import type { DraftMessage } from '../../contracts/draft.js';
import type { Event, EventActions } from '../../contracts/event.js';
import { pythonStr } from '../../engine/python/python-format.js';
import { embedFormatter } from '../templating/value-format.js';
import { buildContents, type ContentsOptions } from './build-contents.js';
import { ContentsCache } from './contents-cache.js';

let time = 0;
const ev = (
  id: string,
  invocationId: string,
  author: string,
  role: 'user' | 'model',
  parts: Part[],
  extra: Partial<Event> = {},
  acts: Partial<EventActions> = {},
): Event => ({
  id,
  invocationId,
  author,
  timestamp: ++time,
  actions: { stateDelta: {}, artifactDelta: {}, ...acts },
  content: { role, parts },
  ...extra,
});
const say = (id: string, inv: string, author = 'me', extra: Partial<Event> = {}) =>
  ev(id, inv, author, author === 'user' ? 'user' : 'model', [{ text: id }], extra);
const call = (id: string, inv: string, ids: string[], author = 'me') =>
  ev(
    id,
    inv,
    author,
    'model',
    ids.map((callId) => ({ functionCall: { id: callId, name: 'f', args: { x: true } } })),
  );
const answer = (id: string, inv: string, ids: string[], author = 'me') =>
  ev(
    id,
    inv,
    author,
    'user',
    ids.map((callId) => ({ functionResponse: { id: callId, name: 'f', response: { ok: null } } })),
  );
const options: ContentsOptions = {
  agentName: 'me',
  branch: undefined,
  preserveFunctionCallIds: false,
  embed: pythonStr,
  compactionView: 'exact',
};
const lines = (messages: readonly DraftMessage[]) =>
  messages.map(
    ({ message }) =>
      `${message.role}:${message.content.map((part) => ('text' in part ? part.text : 'functionCall' in part ? `call ${part.functionCall.id}` : 'functionResponse' in part ? `response ${part.functionResponse.id}` : '?')).join('|')}`,
  );
const summary = (id: string, inv: string, ids: string[], range: [number, number]): Event => ({
  id,
  invocationId: inv,
  author: 'user',
  timestamp: ++time,
  actions: {
    stateDelta: {},
    artifactDelta: {},
    compaction: {
      startTimestamp: range[0],
      endTimestamp: range[1],
      eventIds: ids,
      compactedContent: { role: 'model', parts: [{ text: `sum ${id}` }] },
    },
  },
});

describe('ContentsCache', () => {
  it('reuses the messages of a closed prefix and builds only the new events', () => {
    const cache = new ContentsCache();
    const first = [say('u1', 'i1', 'user'), call('m1', 'i1', ['c1']), answer('r1', 'i1', ['c1'])];
    const before = cache.build(first, options, 'python');
    const same = cache.build(first, options, 'python');
    expect(same).toEqual(before);
    expect(same).not.toBe(before);
    expect(same[0]).toBe(before[0]);
    const longer = [...first, say('t1', 'i1'), say('u2', 'i2', 'user')];
    const after = cache.build(longer, options, 'python');
    expect(after).toEqual(buildContents(longer, options));
    expect(after.slice(0, 3).every((message, index) => message === before[index])).toBe(true);
    // An equal copy of the last event counts as the same prefix.
    const copied = [...longer.slice(0, 4), { ...(longer[4] as Event) }, say('m3', 'i2')];
    const third = cache.build(copied, options, 'python');
    expect(third[4]).toBe(after[4]);
    expect(lines(third)).toEqual(['user:u1', 'model:call c1', 'user:response c1', 'model:t1', 'user:u2', 'model:m3']);
  });

  it('keeps one entry per view: agent, branch, ids, prefix, summaries and format', () => {
    const events = [
      say('u1', 'i1', 'user'),
      ev('m1', 'i1', 'other', 'model', [{ functionCall: { id: 'adk-1', name: 'f', args: { x: true } } }], {
        branch: 'a.b',
      }),
      ev('r1', 'i1', 'other', 'user', [{ functionResponse: { id: 'adk-1', name: 'f', response: { ok: null } } }], {
        branch: 'a.b',
      }),
      say('u2', 'i2', 'user'),
    ];
    const variants: ContentsOptions[] = [
      options,
      { ...options, agentName: 'other' },
      { ...options, agentName: 'other', branch: 'a.c' },
      { ...options, agentName: 'other', preserveFunctionCallIds: true },
      { ...options, agentName: 'other', generatedCallIdPrefix: 'zz' },
    ];
    const cache = new ContentsCache();
    for (const variant of [...variants, ...variants.slice().reverse()])
      expect(cache.build(events, variant, 'python')).toEqual(buildContents(events, variant));
    const json = { ...options, embed: embedFormatter('default') };
    expect(cache.build(events, json, 'default')).toEqual(buildContents(events, json));
    expect(lines(cache.build(events, json, 'default'))[1]).toBe(
      'user:For context:|[other] called tool `f` with parameters: {"x":true}',
    );
  });

  it('keeps "no prefix given" (adk-) apart from an empty prefix (every id hidden)', () => {
    const events = [
      say('u1', 'i1', 'user'),
      call('m1', 'i1', ['c-1']),
      answer('r1', 'i1', ['c-1']),
      say('u2', 'i2', 'user'),
    ];
    const cache = new ContentsCache();
    const withDefault = cache.build(events, options, 'python');
    const empty = { ...options, generatedCallIdPrefix: '' };
    expect(cache.build(events, empty, 'python')).toEqual(buildContents(events, empty));
    expect(lines(withDefault)).not.toEqual(lines(buildContents(events, empty)));
  });

  it('keeps apart the exact and ADK summary views', () => {
    const events = [say('u1', 'i1', 'user'), say('m1', 'i1'), say('u2', 'i2', 'user'), say('m2', 'i2')];
    const compacted = [
      ...events,
      summary('s', 'i2', ['u1', 'm1'], [events[0]?.timestamp ?? 0, events[1]?.timestamp ?? 0]),
    ];
    const cache = new ContentsCache();
    const adk: ContentsOptions = { ...options, compactionView: 'adk' };
    for (const view of [options, adk, options, adk])
      expect(cache.build(compacted, view, 'python')).toEqual(buildContents(compacted, view));
    const noView: ContentsOptions = {
      agentName: 'me',
      branch: undefined,
      preserveFunctionCallIds: false,
      embed: pythonStr,
    };
    const exact = cache.build(compacted, options, 'python');
    const defaulted = cache.build(compacted, noView, 'python');
    expect(defaulted).toEqual(buildContents(compacted, options));
    // Without a view the cache serves the exact one's messages.
    expect(defaulted[0]).toBe(exact[0]);
    const later = [...compacted, say('u3', 'i3', 'user')];
    expect(cache.build(later, adk, 'python')).toEqual(buildContents(later, adk));
    expect(cache.build(later, options, 'python')).toEqual(buildContents(later, options));
    // ADK's view drops an event stamped inside a summary's range even when it comes later, so such a prefix is not kept.
    const adkCache = new ContentsCache();
    adkCache.build(compacted, adk, 'python');
    const late = [...compacted, say('late', 'i3', 'user', { timestamp: events[1]?.timestamp ?? 0 })];
    expect(lines(adkCache.build(late, adk, 'python'))).toEqual(lines(buildContents(late, adk)));
    expect(lines(adkCache.build(late, adk, 'python'))).not.toContain('user:late');
  });

  it('rebuilds when the history changed under the same length', () => {
    const first = [say('u1', 'i1', 'user'), say('m1', 'i1')];
    const m1 = first[1] as Event;
    // Each change alone (id, time or invocation) tells the last event apart from the one kept.
    const text = (field: string) => ({ role: 'model' as const, parts: [{ text: `changed ${field}` }] });
    const changes: [string, Event][] = [
      ['id', { ...m1, id: 'other', content: text('id') }],
      ['time', { ...m1, timestamp: m1.timestamp + 0.5, content: text('time') }],
      ['invocation', { ...m1, invocationId: 'x', content: text('invocation') }],
    ];
    for (const [field, changed] of changes) {
      const cache = new ContentsCache();
      cache.build(first, options, 'python');
      expect(lines(cache.build([first[0] as Event, changed], options, 'python'))).toEqual([
        'user:u1',
        `model:changed ${field}`,
      ]);
    }
    const cache = new ContentsCache();
    cache.build(first, options, 'python');
    expect(lines(cache.build([first[0] as Event], options, 'python'))).toEqual(['user:u1']);
  });

  it('rebuilds in full for a rewind, a summary or a response to an earlier call', () => {
    const cache = new ContentsCache();
    const base = [say('u1', 'i1', 'user'), say('m1', 'i1'), say('u2', 'i2', 'user'), say('m2', 'i2')];
    cache.build(base, options, 'python');
    const rewound = [
      ...base,
      ev('rw', 'i3', 'me', 'model', [], {}, { rewindBeforeInvocationId: 'i2' }),
      say('u3', 'i3', 'user'),
    ];
    expect(lines(cache.build(rewound, options, 'python'))).toEqual(['user:u1', 'model:m1', 'user:u3']);
    const compacted = [...rewound, summary('s', 'i3', ['u1', 'm1'], [0, 0])];
    expect(lines(cache.build(compacted, options, 'python'))).toEqual([
      'user:Summary of the earlier conversation:|sum s',
      'user:u3',
    ]);
    const more = [...compacted, say('m3', 'i3')];
    expect(lines(cache.build(more, options, 'python'))).toEqual([
      'user:Summary of the earlier conversation:|sum s',
      'user:u3',
      'model:m3',
    ]);

    const calls = new ContentsCache();
    const pending = [
      say('u1', 'i1', 'user'),
      call('m1', 'i1', ['c1']),
      ev('r1', 'i1', 'me', 'user', [{ functionResponse: { id: 'c1', name: 'f', response: { status: 'pending' } } }]),
    ];
    calls.build(pending, options, 'python');
    const late = [...pending, say('t', 'i1'), answer('r2', 'i1', ['c1'])];
    const messages = calls.build(late, options, 'python');
    expect(lines(messages)).toEqual(['user:u1', 'model:call c1', 'user:response c1']);
    expect(messages[2]?.message.content).toEqual([
      { functionResponse: { id: 'c1', name: 'f', response: { ok: null } } },
    ]);
  });

  it('rebuilds in full when a summary arrives after a kept prefix', () => {
    const cache = new ContentsCache();
    const base = [say('u1', 'i1', 'user'), say('m1', 'i1'), say('u2', 'i2', 'user'), say('m2', 'i2')];
    cache.build(base, options, 'python');
    const compacted = [...base, summary('s', 'i2', ['u1', 'm1'], [0, 0])];
    expect(lines(cache.build(compacted, options, 'python'))).toEqual([
      'user:Summary of the earlier conversation:|sum s',
      'user:u2',
      'model:m2',
    ]);
    const more = [...compacted, say('u3', 'i3', 'user')];
    expect(lines(cache.build(more, options, 'python'))).toEqual([
      'user:Summary of the earlier conversation:|sum s',
      'user:u2',
      'model:m2',
      'user:u3',
    ]);
  });

  it('handles events without content anywhere in the history', () => {
    const stateOnly = (id: string): Event => ({
      id,
      invocationId: 'i1',
      author: 'me',
      timestamp: ++time,
      actions: { stateDelta: { k: 1 }, artifactDelta: {} },
    });
    const cache = new ContentsCache();
    expect(cache.build([answer('r0', 'i1', ['nothing'])], options, 'python')).toEqual([]);
    const events = [say('u1', 'i1', 'user'), stateOnly('s1')];
    expect(lines(cache.build(events, options, 'python'))).toEqual(['user:u1']);
    const more = [...events, call('m1', 'i1', ['c1']), stateOnly('s2'), answer('r1', 'i1', ['c1']), stateOnly('s3')];
    expect(lines(cache.build(more.slice(0, 5), options, 'python'))).toEqual([
      'user:u1',
      'model:call c1',
      'user:response c1',
    ]);
    expect(lines(cache.build(more, options, 'python'))).toEqual(['user:u1', 'model:call c1', 'user:response c1']);
  });

  it('does not keep a prefix ending in a response to a call further back', () => {
    const cache = new ContentsCache();
    const events = [
      say('u1', 'i1', 'user'),
      call('m1', 'i1', ['c1', 'c2']),
      answer('r1', 'i1', ['c1']),
      say('t', 'i1'),
      answer('r2', 'i1', ['c2']),
    ];
    expect(lines(cache.build(events, options, 'python'))).toEqual([
      'user:u1',
      'model:call c1|call c2',
      'user:response c1|response c2',
    ]);
    const later = [...events, say('u2', 'i2', 'user')];
    expect(lines(cache.build(later, options, 'python'))).toEqual([
      'user:u1',
      'model:call c1|call c2',
      'user:response c1|response c2',
      'model:t',
      'user:u2',
    ]);
  });

  it('does not keep a prefix with a call still open, which may later be answered as interrupted', () => {
    const abandon: ContentsOptions = { ...options, answerAbandonedCalls: true };
    const cache = new ContentsCache();
    const events = [say('u1', 'i1', 'user'), call('m1', 'i1', ['c1'])];
    expect(lines(cache.build(events, abandon, 'python'))).toEqual(['user:u1', 'model:call c1']);
    const later = [...events, say('u2', 'i2', 'user')];
    expect(lines(cache.build(later, abandon, 'python'))).toEqual([
      'user:u1',
      'model:call c1',
      'user:response c1',
      'user:u2',
    ]);
    const closed = [say('v1', 'i1', 'user')];
    cache.build(closed, abandon, 'python');
    const tailOpen = [...closed, call('n1', 'i1', ['d1'])];
    cache.build(tailOpen, abandon, 'python');
    const next = [...tailOpen, say('v2', 'i2', 'user')];
    expect(lines(cache.build(next, abandon, 'python'))).toEqual([
      'user:v1',
      'model:call d1',
      'user:response d1',
      'user:v2',
    ]);
  });
});

describe('ContentsCache: views and reuse', () => {
  const withCall = (id: string, callId: string, branch: string) =>
    ev(id, 'i1', 'me', 'model', [{ functionCall: { id: callId, name: 'f', args: { x: true } } }], { branch });
  const withAnswer = (id: string, callId: string, branch: string) =>
    ev(id, 'i1', 'me', 'user', [{ functionResponse: { id: callId, name: 'f', response: { ok: null } } }], { branch });

  it('keeps two branches apart, and two call id prefixes', () => {
    const events = [
      say('u1', 'i1', 'user'),
      withCall('l', 'zz-1', 'a.b'),
      withAnswer('lr', 'zz-1', 'a.b'),
      withCall('r', 'qq-1', 'a.c'),
      withAnswer('rr', 'qq-1', 'a.c'),
      say('u2', 'i2', 'user'),
    ];
    const views: ContentsOptions[] = [
      { ...options, branch: 'a.b' },
      { ...options, branch: 'a.c' },
      { ...options, generatedCallIdPrefix: 'zz-' },
      { ...options, generatedCallIdPrefix: 'qq-' },
    ];
    const cache = new ContentsCache();
    for (const view of [...views, ...views])
      expect(cache.build(events, view, 'python')).toEqual(buildContents(events, view));
    expect(views.map((view) => lines(cache.build(events, view, 'python')).slice(1, 3))).toEqual([
      ['model:call zz-1', 'user:response zz-1'],
      ['model:call qq-1', 'user:response qq-1'],
      ['model:call undefined', 'user:response undefined'],
      ['model:call zz-1', 'user:response zz-1'],
    ]);
  });

  it('serves no branch and an empty branch (both: every event) from one entry', () => {
    const events = [say('u1', 'i1', 'user'), say('m1', 'i1')];
    const cache = new ContentsCache();
    const none = cache.build(events, options, 'python');
    const blank = cache.build(events, { ...options, branch: '' }, 'python');
    expect(blank).toEqual(none);
    expect(blank[1]).toBe(none[1]);
  });

  it('gives each setting of answerAbandonedCalls its own messages, also for a call answered out of view', () => {
    // The response is on a child branch: the call is open in this view, though the history answers it.
    const events = [
      say('u1', 'i1', 'user', { branch: 'a' }),
      withCall('m1', 'c1', 'a'),
      withAnswer('r1', 'c1', 'a.b'),
      say('u2', 'i2', 'user', { branch: 'a' }),
    ];
    const answering: ContentsOptions = { ...options, branch: 'a', answerAbandonedCalls: true };
    const leaving: ContentsOptions = { ...options, branch: 'a' };
    const cache = new ContentsCache();
    for (let round = 0; round < 2; round++) {
      expect(lines(cache.build(events, answering, 'python'))).toEqual([
        'user:u1',
        'model:call c1',
        'user:response c1',
        'user:u2',
      ]);
      expect(lines(cache.build(events, leaving, 'python'))).toEqual(['user:u1', 'model:call c1', 'user:u2']);
    }
  });

  it("keeps a prefix without summaries in ADK's view", () => {
    const adk: ContentsOptions = { ...options, compactionView: 'adk' };
    const events = [say('u1', 'i1', 'user'), say('m1', 'i1')];
    const cache = new ContentsCache();
    const first = cache.build(events, adk, 'python');
    const longer = [...events, say('u2', 'i2', 'user')];
    const second = cache.build(longer, adk, 'python');
    expect(second).toEqual(buildContents(longer, adk));
    expect(second[0]).toBe(first[0]);
  });

  it('builds only new events that hold a call and its response', () => {
    const events = [say('u1', 'i1', 'user'), say('m1', 'i1')];
    const cache = new ContentsCache();
    const first = cache.build(events, options, 'python');
    const longer = [...events, call('m2', 'i1', ['c2']), answer('r2', 'i1', ['c2'])];
    const second = cache.build(longer, options, 'python');
    expect(lines(second)).toEqual(['user:u1', 'model:m1', 'model:call c2', 'user:response c2']);
    expect(second[1]).toBe(first[1]);
  });

  it('keeps a prefix ending in a response to the call just before, even when it also answers an earlier call', () => {
    const events = [
      say('u1', 'i1', 'user'),
      call('m0', 'i1', ['c0']),
      call('m1', 'i1', ['c1']),
      answer('r', 'i1', ['c1', 'c0']),
    ];
    const cache = new ContentsCache();
    const first = cache.build(events, options, 'python');
    const longer = [...events, say('u2', 'i2', 'user')];
    const second = cache.build(longer, options, 'python');
    expect(second).toEqual(buildContents(longer, options));
    expect(second[0]).toBe(first[0]);
  });

  it('keeps the full build a rewind or a late response forced, for the requests after it', () => {
    const cache = new ContentsCache();
    const base = [say('u1', 'i1', 'user'), say('m1', 'i1'), say('u2', 'i2', 'user'), say('m2', 'i2')];
    cache.build(base, options, 'python');
    const rewound = [
      ...base,
      ev('rw', 'i3', 'me', 'model', [], {}, { rewindBeforeInvocationId: 'i2' }),
      say('u3', 'i3', 'user'),
    ];
    const rebuilt = cache.build(rewound, options, 'python');
    const next = cache.build([...rewound, say('m3', 'i3')], options, 'python');
    expect(lines(next)).toEqual(['user:u1', 'model:m1', 'user:u3', 'model:m3']);
    expect(next[2]).toBe(rebuilt[2]);

    const calls = new ContentsCache();
    const pending = [
      say('u1', 'i1', 'user'),
      call('m1', 'i1', ['c1']),
      ev('r1', 'i1', 'me', 'user', [{ functionResponse: { id: 'c1', name: 'f', response: { status: 'pending' } } }]),
      say('t', 'i1'),
    ];
    calls.build(pending, options, 'python');
    const late = [...pending, answer('r2', 'i1', ['c1']), say('u2', 'i2', 'user')];
    const folded = calls.build(late, options, 'python');
    expect(folded).toEqual(buildContents(late, options));
    const after = calls.build([...late, say('m2', 'i2')], options, 'python');
    expect(lines(after)).toEqual(['user:u1', 'model:call c1', 'user:response c1', 'model:t', 'user:u2', 'model:m2']);
    expect(after[4]).toBe(folded[4]);
  });
});

describe('ContentsCache: what the view shows decides what is kept', () => {
  // Builds every prefix in turn with one cache, as a session's requests do, and gives the messages that differ from a full rebuild.
  const differences = (events: readonly Event[], view: ContentsOptions) => {
    const cache = new ContentsCache();
    return events.flatMap((_event, index) => {
      const prefix = events.slice(0, index + 1);
      const [cached, full] = [lines(cache.build(prefix, view, 'python')), lines(buildContents(prefix, view))];
      return JSON.stringify(cached) === JSON.stringify(full) ? [] : [{ length: index + 1, cached, full }];
    });
  };
  const late = [call('m1', 'i1', ['c1']), say('u1', 'i1', 'user'), answer('r1', 'i1', ['c1'])];
  const abandon: ContentsOptions = { ...options, answerAbandonedCalls: true };

  it('does not keep a late response folded back to its call when events the view does not show follow it', () => {
    const stateOnly: Event = {
      id: 's',
      invocationId: 'i1',
      author: 'me',
      timestamp: ++time,
      actions: { stateDelta: { k: 1 }, artifactDelta: {} },
    };
    const view: ContentsOptions = { ...abandon, branch: 'a' };
    for (const hidden of [
      stateOnly,
      ev('t', 'i1', 'me', 'model', [{ text: '' }]),
      say('   ', 'i1', 'other'),
      say('x', 'i1', 'me', { branch: 'b' }),
    ]) {
      const events = [...late, hidden, say('u2', 'i2', 'user')];
      expect(differences(events, view)).toEqual([]);
      // Without the last message the response is folded back to its call, and the user message between them is left out.
      expect(lines(buildContents(events.slice(0, 4), view))).toEqual(['model:call c1', 'user:response c1']);
      expect(lines(buildContents(events, view))).toEqual(['model:call c1', 'user:response c1', 'user:u1', 'user:u2']);
    }
  });

  it('does not keep a late response folded back to its call when a rewind hides what followed it', () => {
    const events = [
      ...late,
      say('m2', 'i3'),
      ev('rw', 'i4', 'me', 'model', [], {}, { rewindBeforeInvocationId: 'i3' }),
      say('u2', 'i5', 'user'),
    ];
    expect(differences(events, abandon)).toEqual([]);
  });

  it('does not keep a call whose response the view does not show, which a later turn answers as interrupted', () => {
    const onA = (event: Event): Event => ({ ...event, branch: 'a' });
    const events = [
      onA(say('u1', 'i1', 'user')),
      onA(call('m1', 'i1', ['c1'])),
      { ...answer('r1', 'i1', ['c1']), branch: 'a.b' },
      onA(say('u2', 'i2', 'user')),
    ];
    const view: ContentsOptions = { ...abandon, branch: 'a' };
    expect(differences(events, view)).toEqual([]);
    expect(lines(buildContents(events, view))).toEqual(['user:u1', 'model:call c1', 'user:response c1', 'user:u2']);
  });
});
