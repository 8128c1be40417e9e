import { describe, expect, it } from 'vitest';
import type { Part } from '../../contracts/content.js';
import type { DraftMessage } from '../../contracts/draft.js';
import type { Event, EventActions } from '../../contracts/event.js';
import { pythonStr } from '../../engine/python/python-format.js';
import { embedFormatter } from '../templating/value-format.js';
import { buildContents, type ContentsOptions } from './build-contents.js';
import { ContentsCache } from './contents-cache.js';

let time = 0;
const ev = (id: string, invocationId: string, author: string, role: 'user' | 'model', parts: Part[], extra: Partial<Event> = {}, acts: Partial<EventActions> = {}): Event => ({
  id,
  invocationId,
  author,
  timestamp: ++time,
  actions: { stateDelta: {}, artifactDelta: {}, ...acts },
  content: { role, parts },
  ...extra,
});
const say = (id: string, inv: string, author = 'me', extra: Partial<Event> = {}) => ev(id, inv, author, author === 'user' ? 'user' : 'model', [{ text: id }], extra);
const call = (id: string, inv: string, ids: string[], author = 'me') => ev(id, inv, author, 'model', ids.map((callId) => ({ functionCall: { id: callId, name: 'f', args: { x: true } } })));
const answer = (id: string, inv: string, ids: string[], author = 'me') => ev(id, inv, author, 'user', ids.map((callId) => ({ functionResponse: { id: callId, name: 'f', response: { ok: null } } })));
const options: ContentsOptions = { agentName: 'me', branch: undefined, preserveFunctionCallIds: false, embed: pythonStr, compactionView: 'exact' };
const lines = (messages: readonly DraftMessage[]) =>
  messages.map(({ message }) => `${message.role}:${message.content.map((part) => ('text' in part ? part.text : 'functionCall' in part ? `call ${part.functionCall.id}` : 'functionResponse' in part ? `response ${part.functionResponse.id}` : '?')).join('|')}`);
const summary = (id: string, inv: string, ids: string[], range: [number, number]): Event => ({
  id,
  invocationId: inv,
  author: 'user',
  timestamp: ++time,
  actions: { stateDelta: {}, artifactDelta: {}, compaction: { startTimestamp: range[0], endTimestamp: range[1], eventIds: ids, compactedContent: { role: 'model', parts: [{ text: `sum ${id}` }] } } },
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
      ev('m1', 'i1', 'other', 'model', [{ functionCall: { id: 'adk-1', name: 'f', args: { x: true } } }], { branch: 'a.b' }),
      ev('r1', 'i1', 'other', 'user', [{ functionResponse: { id: 'adk-1', name: 'f', response: { ok: null } } }], { branch: 'a.b' }),
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
    for (const variant of [...variants, ...variants.slice().reverse()]) expect(cache.build(events, variant, 'python')).toEqual(buildContents(events, variant));
    const json = { ...options, embed: embedFormatter('default') };
    expect(cache.build(events, json, 'default')).toEqual(buildContents(events, json));
    expect(lines(cache.build(events, json, 'default'))[1]).toBe('user:For context:|[other] called tool `f` with parameters: {"x":true}');
  });

  it('keeps "no prefix given" (adk-) apart from an empty prefix (every id hidden)', () => {
    const events = [say('u1', 'i1', 'user'), call('m1', 'i1', ['c-1']), answer('r1', 'i1', ['c-1']), say('u2', 'i2', 'user')];
    const cache = new ContentsCache();
    const withDefault = cache.build(events, options, 'python');
    const empty = { ...options, generatedCallIdPrefix: '' };
    expect(cache.build(events, empty, 'python')).toEqual(buildContents(events, empty));
    expect(lines(withDefault)).not.toEqual(lines(buildContents(events, empty)));
  });

  it('keeps apart the exact and ADK summary views', () => {
    const events = [say('u1', 'i1', 'user'), say('m1', 'i1'), say('u2', 'i2', 'user'), say('m2', 'i2')];
    const compacted = [...events, summary('s', 'i2', ['u1', 'm1'], [events[0]?.timestamp ?? 0, events[1]?.timestamp ?? 0])];
    const cache = new ContentsCache();
    const adk: ContentsOptions = { ...options, compactionView: 'adk' };
    for (const view of [options, adk, options, adk]) expect(cache.build(compacted, view, 'python')).toEqual(buildContents(compacted, view));
    const noView: ContentsOptions = { agentName: 'me', branch: undefined, preserveFunctionCallIds: false, embed: pythonStr };
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
    const cache = new ContentsCache();
    const first = [say('u1', 'i1', 'user'), say('m1', 'i1')];
    cache.build(first, options, 'python');
    const m1 = first[1] as Event;
    for (const changed of [
      { ...m1, id: 'other', content: { role: 'model' as const, parts: [{ text: 'changed id' }] } },
      { ...m1, timestamp: m1.timestamp + 0.5, content: { role: 'model' as const, parts: [{ text: 'changed time' }] } },
      { ...m1, invocationId: 'x', content: { role: 'model' as const, parts: [{ text: 'changed invocation' }] } },
    ]) {
      const events = [first[0] as Event, changed];
      expect(cache.build(events, options, 'python')).toEqual(buildContents(events, options));
    }
    expect(lines(cache.build([first[0] as Event], options, 'python'))).toEqual(['user:u1']);
  });

  it('rebuilds in full for a rewind, a summary or a response to an earlier call', () => {
    const cache = new ContentsCache();
    const base = [say('u1', 'i1', 'user'), say('m1', 'i1'), say('u2', 'i2', 'user'), say('m2', 'i2')];
    cache.build(base, options, 'python');
    const rewound = [...base, ev('rw', 'i3', 'me', 'model', [], {}, { rewindBeforeInvocationId: 'i2' }), say('u3', 'i3', 'user')];
    expect(lines(cache.build(rewound, options, 'python'))).toEqual(['user:u1', 'model:m1', 'user:u3']);
    const compacted = [...rewound, summary('s', 'i3', ['u1', 'm1'], [0, 0])];
    expect(lines(cache.build(compacted, options, 'python'))).toEqual(['user:Summary of the earlier conversation:|sum s', 'user:u3']);
    const more = [...compacted, say('m3', 'i3')];
    expect(lines(cache.build(more, options, 'python'))).toEqual(['user:Summary of the earlier conversation:|sum s', 'user:u3', 'model:m3']);

    const calls = new ContentsCache();
    const pending = [say('u1', 'i1', 'user'), call('m1', 'i1', ['c1']), ev('r1', 'i1', 'me', 'user', [{ functionResponse: { id: 'c1', name: 'f', response: { status: 'pending' } } }])];
    calls.build(pending, options, 'python');
    const late = [...pending, say('t', 'i1'), answer('r2', 'i1', ['c1'])];
    const messages = calls.build(late, options, 'python');
    expect(lines(messages)).toEqual(['user:u1', 'model:call c1', 'user:response c1']);
    expect(messages[2]?.message.content).toEqual([{ functionResponse: { id: 'c1', name: 'f', response: { ok: null } } }]);
  });

  it('rebuilds in full when a summary arrives after a kept prefix', () => {
    const cache = new ContentsCache();
    const base = [say('u1', 'i1', 'user'), say('m1', 'i1'), say('u2', 'i2', 'user'), say('m2', 'i2')];
    cache.build(base, options, 'python');
    const compacted = [...base, summary('s', 'i2', ['u1', 'm1'], [0, 0])];
    expect(lines(cache.build(compacted, options, 'python'))).toEqual(['user:Summary of the earlier conversation:|sum s', 'user:u2', 'model:m2']);
    const more = [...compacted, say('u3', 'i3', 'user')];
    expect(lines(cache.build(more, options, 'python'))).toEqual(['user:Summary of the earlier conversation:|sum s', 'user:u2', 'model:m2', 'user:u3']);
  });

  it('handles events without content anywhere in the history', () => {
    const stateOnly = (id: string): Event => ({ id, invocationId: 'i1', author: 'me', timestamp: ++time, actions: { stateDelta: { k: 1 }, artifactDelta: {} } });
    const cache = new ContentsCache();
    expect(cache.build([answer('r0', 'i1', ['nothing'])], options, 'python')).toEqual([]);
    const events = [say('u1', 'i1', 'user'), stateOnly('s1')];
    expect(lines(cache.build(events, options, 'python'))).toEqual(['user:u1']);
    const more = [...events, call('m1', 'i1', ['c1']), stateOnly('s2'), answer('r1', 'i1', ['c1']), stateOnly('s3')];
    expect(lines(cache.build(more.slice(0, 5), options, 'python'))).toEqual(['user:u1', 'model:call c1', 'user:response c1']);
    expect(lines(cache.build(more, options, 'python'))).toEqual(['user:u1', 'model:call c1', 'user:response c1']);
  });

  it('does not keep a prefix ending in a response to a call further back', () => {
    const cache = new ContentsCache();
    const events = [say('u1', 'i1', 'user'), call('m1', 'i1', ['c1', 'c2']), answer('r1', 'i1', ['c1']), say('t', 'i1'), answer('r2', 'i1', ['c2'])];
    expect(lines(cache.build(events, options, 'python'))).toEqual(['user:u1', 'model:call c1|call c2', 'user:response c1|response c2']);
    const later = [...events, say('u2', 'i2', 'user')];
    expect(lines(cache.build(later, options, 'python'))).toEqual(['user:u1', 'model:call c1|call c2', 'user:response c1|response c2', 'model:t', 'user:u2']);
  });

  it('does not keep a prefix with a call still open, which may later be answered as interrupted', () => {
    const abandon: ContentsOptions = { ...options, answerAbandonedCalls: true };
    const cache = new ContentsCache();
    const events = [say('u1', 'i1', 'user'), call('m1', 'i1', ['c1'])];
    expect(lines(cache.build(events, abandon, 'python'))).toEqual(['user:u1', 'model:call c1']);
    const later = [...events, say('u2', 'i2', 'user')];
    expect(lines(cache.build(later, abandon, 'python'))).toEqual(['user:u1', 'model:call c1', 'user:response c1', 'user:u2']);
    const closed = [say('v1', 'i1', 'user')];
    cache.build(closed, abandon, 'python');
    const tailOpen = [...closed, call('n1', 'i1', ['d1'])];
    cache.build(tailOpen, abandon, 'python');
    const next = [...tailOpen, say('v2', 'i2', 'user')];
    expect(lines(cache.build(next, abandon, 'python'))).toEqual(['user:v1', 'model:call d1', 'user:response d1', 'user:v2']);
  });
});
