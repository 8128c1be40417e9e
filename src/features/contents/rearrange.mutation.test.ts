import { describe, expect, it } from 'vitest';
import type { Part } from '../../contracts/content.js';
import type { DraftMessage } from '../../contracts/draft.js';
import type { Event } from '../../contracts/event.js';
import type { Source } from '../../contracts/source.js';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { pythonStr } from '../../engine/python/python-format.js';
import { buildContents, type ContentsOptions } from './build-contents.js';
import { mergeResponseEvents, rearrangeAsyncResponses, rearrangeLatestResponse } from './rearrange.js';
import { toWorkEvent, withParts } from './work-event.js';

let time = 0;
const ev = (id: string, role: 'user' | 'model', parts: Part[]): Event => ({
  id,
  invocationId: 'inv',
  author: 'me',
  timestamp: ++time,
  actions: { stateDelta: {}, artifactDelta: {} },
  content: { role, parts },
});
const call = (id: string, ids: (string | undefined)[]) =>
  ev(
    id,
    'model',
    ids.map((callId) => ({ functionCall: { ...(callId === undefined ? {} : { id: callId }), name: 'f' } })),
  );
const answer = (id: string, ids: (string | undefined)[], value = id) =>
  ev(
    id,
    'user',
    ids.map((callId) => ({
      functionResponse: { ...(callId === undefined ? {} : { id: callId }), name: 'f', response: { v: value } },
    })),
  );
const say = (id: string, role: 'user' | 'model' = 'model') => ev(id, role, [{ text: id }]);
const options: ContentsOptions = {
  agentName: 'me',
  branch: undefined,
  preserveFunctionCallIds: true,
  embed: pythonStr,
};
const lines = (messages: DraftMessage[]) =>
  messages.map(
    ({ message }) =>
      `${message.role}:${message.content
        .map((part) =>
          'text' in part
            ? part.text
            : 'functionCall' in part
              ? `call ${part.functionCall.id}`
              : 'functionResponse' in part
                ? `${part.functionResponse.id}=${String(part.functionResponse.response?.['v'])}`
                : '?',
        )
        .join('|')}`,
  );
const errorOf = (run: () => unknown): AgentctxError => {
  try {
    run();
  } catch (error) {
    return error as AgentctxError;
  }
  throw new Error('no error');
};

describe('a long-running call finishing last', () => {
  it('folds its responses since the call into one right after it, dropping what came between', () => {
    const events = [
      say('u', 'user'),
      call('m1', ['a', 'b']),
      answer('r1', ['a'], 'pending'),
      say('t1'),
      say('u2', 'user'),
      call('m2', ['z']),
      answer('rz', ['z']),
      answer('r2', ['a', 'b'], 'done'),
    ];
    expect(lines(buildContents(events, options))).toEqual(['user:u', 'model:call a|call b', 'user:a=done|b=done']);
  });

  it('takes in the earlier responses to every call of that event, not only those the last one answers', () => {
    const events = [
      say('u', 'user'),
      call('m1', ['a', 'b']),
      answer('ra', ['a'], 'a1'),
      say('t1'),
      answer('rb', ['b'], 'b1'),
    ];
    expect(lines(buildContents(events, options))).toEqual(['user:u', 'model:call a|call b', 'user:a=a1|b=b1']);
  });

  it('folds into the nearest call that matches, as ADK stops at the first one found walking back', () => {
    const events = [
      call('m0', [undefined]),
      answer('r0', [undefined]),
      say('u', 'user'),
      call('m1', [undefined]),
      say('t'),
      answer('r1', [undefined]),
    ];
    const folded = rearrangeLatestResponse(events.map(toWorkEvent));
    expect(folded.map((event) => event.id)).toEqual(['m0', 'r0', 'u', 'm1', 'r1']);
  });

  it('takes in nothing from before the call, such as an answer to an earlier call with the same id', () => {
    const earlier = ev('r0', 'user', [
      { functionResponse: { id: 'a', name: 'f', response: { v: 'old' } } },
      { text: 'note' },
    ]);
    const events = [call('m0', ['a']), earlier, call('m1', ['a']), say('t'), answer('r1', ['a'], 'new')];
    const folded = rearrangeLatestResponse(events.map(toWorkEvent));
    expect(folded.map((event) => event.id)).toEqual(['m0', 'r0', 'm1', 'r1']);
    expect(folded[3]?.parts).toEqual([{ functionResponse: { id: 'a', name: 'f', response: { v: 'new' } } }]);
  });

  it('leaves the usual tool loop as it is', () => {
    const events = [say('u', 'user'), call('m1', ['a']), answer('r1', ['a'])].map(toWorkEvent);
    expect(rearrangeLatestResponse(events)).toBe(events);
    const single = [answer('r', ['x'])].map(toWorkEvent);
    expect(rearrangeLatestResponse(single)).toBe(single);
    const noResponse = [call('m', ['x']), say('t')].map(toWorkEvent);
    expect(rearrangeLatestResponse(noResponse)).toBe(noResponse);
    expect(rearrangeLatestResponse([])).toEqual([]);
  });

  it('refuses responses to calls of different events, or to no call at all', () => {
    const split = [call('m1', ['a']), call('m2', ['b']), say('t'), answer('r', ['b', 'a'])].map(toWorkEvent);
    const error = errorOf(() => rearrangeLatestResponse(split));
    expect(error).toBeInstanceOf(AgentctxError);
    expect(error.code).toBe('invalid_history');
    expect(error.message).toBe(
      "Last response event should only contain the responses for the function calls in the same function call event. Function call ids found : {'b'}, function response ids provided: {'a', 'b'}",
    );
    expect(error.hint).toBe(
      'Every function response must follow the function call it answers; check the events of the session.',
    );
    const none = [say('u', 'user'), say('t'), answer('r', ['q', undefined, 'p'])].map(toWorkEvent);
    expect(errorOf(() => rearrangeLatestResponse(none)).message).toBe(
      "No function call event found for function responses ids: {'p', 'q', None}",
    );
  });

  it('searches back from the event before last, down to the first one', () => {
    const events = [call('m1', ['a']), say('t1'), say('t2'), answer('r', ['a'])];
    expect(lines(buildContents(events, options))).toEqual(['model:call a', 'user:a=r']);
  });
});

describe('responses placed after their calls', () => {
  it("puts each call's latest response right after it, merging those of several events in order", () => {
    const events = [
      call('m1', ['a', 'b']),
      say('t1'),
      answer('ra', ['a'], 'a1'),
      answer('rb', ['b'], 'b1'),
      say('t2'),
      answer('ra2', ['a'], 'a2'),
      say('end', 'user'),
    ];
    expect(lines(buildContents(events, options))).toEqual([
      'model:call a|call b',
      'user:b=b1|a=a2',
      'model:t1',
      'model:t2',
      'user:end',
    ]);
  });

  it('drops responses without a call', () => {
    const events = [say('u', 'user'), answer('stray', ['nope']), say('t'), call('m', ['x']), say('end', 'user')];
    expect(lines(buildContents(events, options))).toEqual(['user:u', 'model:t', 'model:call x', 'user:end']);
  });

  it('keeps a single response event as it is', () => {
    const events = [call('m', ['x']), answer('r', ['x']), say('end', 'user')].map(toWorkEvent);
    const result = rearrangeAsyncResponses(events);
    expect(result[1]).toBe(events[1]);
  });
});

describe('mergeResponseEvents', () => {
  const source = (name: string): Source => ({ kind: 'history', processor: 'contents', agent: name });
  const base = {
    id: 'x',
    author: 'me',
    timestamp: 1,
    branch: undefined,
    invocationId: 'i',
    role: 'user' as const,
    actions: { stateDelta: {}, artifactDelta: {} },
  };
  const response = (id: string, v: string): Part => ({ functionResponse: { id, name: 'f', response: { v } } });

  it('replaces a response with a later one of its id in place and appends other parts, with their sources', () => {
    const first = withParts(
      { ...base, id: 'first' },
      [response('a', '1'), { text: 'note' }, response('b', '1')],
      [source('f1'), source('f2'), source('f3')],
    );
    const second = withParts(
      { ...base, id: 'second' },
      [response('b', '2'), { text: 'more' }, response('c', '2')],
      [source('s1'), source('s2'), source('s3')],
    );
    const third = withParts(
      { ...base, id: 'third' },
      [response('c', '3'), response('a', '3')],
      [source('t1'), source('t2')],
    );
    const merged = mergeResponseEvents([first, second, third]);
    expect(merged.id).toBe('first');
    expect(merged.parts).toEqual([
      response('a', '3'),
      { text: 'note' },
      response('b', '2'),
      { text: 'more' },
      response('c', '3'),
    ]);
    expect(merged.sources.map((item) => item.agent)).toEqual(['t2', 'f2', 's1', 's2', 't1']);
    expect(merged.responses.map((item) => item.response?.['v'])).toEqual(['3', '2', '3']);
  });

  it('refuses no events, or an event without parts', () => {
    const empty = withParts(base, [], []);
    const one = withParts(base, [response('a', '1')], [source('a')]);
    expect(errorOf(() => mergeResponseEvents([])).message).toBe('At least one function_response event is required.');
    expect(errorOf(() => mergeResponseEvents([empty, one])).message).toBe(
      'There should be at least one function_response part.',
    );
    expect(errorOf(() => mergeResponseEvents([one, empty])).message).toBe(
      'There should be at least one function_response part.',
    );
  });
});
