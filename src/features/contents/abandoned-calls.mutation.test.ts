import { describe, expect, it } from 'vitest';
import type { Part } from '../../contracts/content.js';
import type { DraftMessage } from '../../contracts/draft.js';
import type { Event, EventActions } from '../../contracts/event.js';
import { pythonStr } from '../../engine/python/python-format.js';
import { INTERRUPTED_CALL_ERROR } from '../../engine/runner/interrupted-calls.js';
import { answerAbandonedCalls } from './abandoned-calls.js';
import { buildContents, type ContentsOptions } from './build-contents.js';
import { toWorkEvent } from './work-event.js';

let time = 0;
const ev = (
  id: string,
  invocationId: string,
  author: string,
  role: 'user' | 'model',
  parts: Part[],
  acts: Partial<EventActions> = {},
): Event => ({
  id,
  invocationId,
  author,
  timestamp: ++time,
  branch: 'br',
  actions: { stateDelta: {}, artifactDelta: {}, ...acts },
  content: { role, parts },
});
const user = (id: string, inv: string, parts: Part[] = [{ text: id }]) => ev(id, inv, 'user', 'user', parts);
const call = (id: string, inv: string, ids: (string | undefined)[], acts: Partial<EventActions> = {}) =>
  ev(
    id,
    inv,
    'me',
    'model',
    ids.map((callId) => ({ functionCall: { ...(callId === undefined ? {} : { id: callId }), name: 'f' } })),
    acts,
  );
const answer = (id: string, inv: string, ids: string[]) =>
  ev(
    id,
    inv,
    'me',
    'user',
    ids.map((callId) => ({ functionResponse: { id: callId, name: 'f', response: { ok: true } } })),
  );
const options: ContentsOptions = {
  agentName: 'me',
  branch: undefined,
  preserveFunctionCallIds: true,
  embed: pythonStr,
  answerAbandonedCalls: true,
};
const interrupted = (id: string): Part => ({
  functionResponse: { id, name: 'f', response: { error: INTERRUPTED_CALL_ERROR } },
});
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
                ? `${JSON.stringify(part.functionResponse.response) === JSON.stringify({ error: INTERRUPTED_CALL_ERROR }) ? 'interrupted' : 'result'} ${part.functionResponse.id}`
                : '?',
        )
        .join('|')}`,
  );

describe('calls a stopped run left open', () => {
  it('are answered as interrupted right after the call once a user message of a later invocation follows', () => {
    const events = [user('u1', 'i1'), call('m1', 'i1', ['c1', 'c2']), user('u2', 'i2')];
    const messages = buildContents(events, options);
    expect(messages).toEqual([
      {
        message: { role: 'user', content: [{ text: 'u1' }] },
        sources: [{ kind: 'history', processor: 'contents', agent: 'user', eventIds: ['u1'] }],
      },
      messages[1],
      {
        message: { role: 'user', content: [interrupted('c1'), interrupted('c2')] },
        sources: [0, 1].map(() => ({
          kind: 'history',
          processor: 'contents',
          agent: 'me',
          eventIds: ['m1'],
          note: 'no response was stored for this call (its run stopped): answered as interrupted in the request',
        })),
      },
      messages[3],
    ]);
    const work = answerAbandonedCalls(events.map(toWorkEvent));
    expect(work[2]).toMatchObject({
      id: 'm1:interrupted',
      author: 'me',
      timestamp: events[1]?.timestamp,
      branch: 'br',
      invocationId: 'i1',
      role: 'user',
      actions: { stateDelta: {}, artifactDelta: {} },
    });
    expect(buildContents(events, { ...options, answerAbandonedCalls: false })).toHaveLength(3);
  });

  it('are merged with the responses the neighbouring calls got', () => {
    const events = [
      user('u1', 'i1'),
      call('m1', 'i1', ['c1', 'c2', 'c3']),
      answer('r1', 'i1', ['c2']),
      user('u2', 'i2'),
    ];
    expect(lines(buildContents(events, options))).toEqual([
      'user:u1',
      'model:call c1|call c2|call c3',
      'user:result c2|interrupted c1|interrupted c3',
      'user:u2',
    ]);
  });

  it('stay open while the turn goes on, or when only user function responses or thoughts follow', () => {
    const open = [user('u1', 'i1'), call('m1', 'i1', ['c1'])];
    expect(lines(buildContents([...open, user('u1b', 'i1')], options))).toEqual([
      'user:u1',
      'model:call c1',
      'user:u1b',
    ]);
    const notTurns = [
      ...open,
      user('r', 'i2', [{ functionResponse: { id: 'zz', name: 'f' } }]),
      user('t', 'i3', [{ text: 'hmm', thought: true }, { fileData: { fileUri: 'x' } }]),
    ];
    const agentText = [
      ...open,
      ev('a2', 'i2', 'me', 'user', [{ text: 'note' }]),
      ev('a3', 'i3', 'user', 'model', [{ text: 'odd' }]),
    ];
    expect(lines(buildContents(agentText, options))).toEqual(['user:u1', 'model:call c1', 'user:note', 'model:odd']);
    expect(
      lines(
        answerAbandonedCalls(notTurns.map(toWorkEvent)).map((event) => ({
          message: { role: event.role ?? 'user', content: [...event.parts] },
          sources: [],
        })),
      ),
    ).toEqual(['user:u1', 'model:call c1', 'user:result zz', 'user:hmm|?']);
  });

  it('count as moved on when the later user message is in another invocation, even if one of the same follows it', () => {
    const events = [call('m1', 'i1', ['c1']), user('u2', 'i2'), user('u3', 'i1'), user('u4', 'i1')];
    expect(lines(buildContents(events, options))).toEqual([
      'model:call c1',
      'user:interrupted c1',
      'user:u2',
      'user:u3',
      'user:u4',
    ]);
  });

  it('count as moved on when invocation ids are blank', () => {
    const events = [call('m1', '', ['c1']), user('u2', '')];
    expect(lines(buildContents(events, options))).toEqual(['model:call c1', 'user:interrupted c1', 'user:u2']);
  });

  it('leave out calls without ids and calls waiting for a confirmation or credentials', () => {
    const events = [
      call('m1', 'i1', [undefined, 'ask', 'auth', 'c1'], {
        requestedToolConfirmations: { ask: {} },
        requestedAuthConfigs: { auth: {} },
      }),
      user('u2', 'i2'),
    ];
    expect(lines(buildContents(events, options))).toEqual([
      'model:call undefined|call ask|call auth|call c1',
      'user:interrupted c1',
      'user:u2',
    ]);
  });

  it('leave a history with every call answered as it is', () => {
    const events = [user('u1', 'i1'), call('m1', 'i1', ['c1']), answer('r1', 'i1', ['c1']), user('u2', 'i2')].map(
      toWorkEvent,
    );
    const result = answerAbandonedCalls(events);
    expect(result).toEqual(events);
    expect(result).not.toBe(events);
  });

  it('answers the open calls of an event that follows an answered call', () => {
    const events = [
      user('u1', 'i1'),
      call('m1', 'i1', ['c1']),
      call('m2', 'i1', ['c2']),
      answer('r1', 'i1', ['c1']),
      user('u2', 'i2'),
    ];
    expect(lines(buildContents(events, options))).toEqual([
      'user:u1',
      'model:call c1',
      'user:result c1',
      'model:call c2',
      'user:interrupted c2',
      'user:u2',
    ]);
  });

  it('counts a user message with text beside other parts as a later turn', () => {
    const events = [
      call('m1', 'i1', ['c1']),
      user('u2', 'i2', [{ text: 'see this' }, { fileData: { fileUri: 'gs://x' } }]),
    ];
    expect(lines(buildContents(events, options))).toEqual(['model:call c1', 'user:interrupted c1', 'user:see this|?']);
  });

  it('answers the calls left open even when every event holds one', () => {
    const events = [
      call('m1', 'i1', ['c1']),
      user('u2', 'i2', [{ text: 'u2' }, { functionCall: { id: 'c9', name: 'f' } }]),
    ];
    expect(lines(buildContents(events, options))).toEqual(['model:call c1', 'user:interrupted c1', 'user:u2|call c9']);
  });

  it('does not merge the answer with a following event that answers other calls', () => {
    const events = [call('m1', 'i1', ['c1']), answer('r9', 'i1', ['zz']), user('u2', 'i2')].map(toWorkEvent);
    const result = answerAbandonedCalls(events);
    expect(result.map((event) => event.id)).toEqual(['m1', 'm1:interrupted', 'r9', 'u2']);
    expect(result[1]?.parts).toEqual([interrupted('c1')]);
    expect(result[2]).toBe(events[1]);
  });
});
