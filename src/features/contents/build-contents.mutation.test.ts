import { describe, expect, it } from 'vitest';
import type { Content, Part } from '../../contracts/content.js';
import type { DraftMessage } from '../../contracts/draft.js';
import type { Event, EventActions } from '../../contracts/event.js';
import type { Source } from '../../contracts/source.js';
import { pythonStr } from '../../engine/python/python-format.js';
import {
  buildContents,
  buildSettledContents,
  currentTurnEvents,
  insertInstructionMessages,
  type ContentsOptions,
} from './build-contents.js';

let counter = 0;
function event(
  author: string,
  role: 'user' | 'model' | undefined,
  parts: Part[] | undefined,
  extra: Partial<Event> = {},
  acts: Partial<EventActions> = {},
): Event {
  counter += 1;
  const content: Partial<Event> =
    role === undefined && parts === undefined
      ? {}
      : { content: role === undefined ? ({ parts } as Content) : { role, parts: parts ?? [] } };
  return {
    id: `b${counter}`,
    invocationId: 'inv',
    author,
    timestamp: counter,
    actions: { stateDelta: {}, artifactDelta: {}, ...acts },
    ...content,
    ...extra,
  };
}
const options: ContentsOptions = {
  agentName: 'me',
  branch: undefined,
  preserveFunctionCallIds: false,
  embed: pythonStr,
};
const roles = (messages: DraftMessage[]) =>
  messages.map(
    ({ message }) =>
      `${message.role}:${message.content.map((part) => ('text' in part ? part.text : JSON.stringify(part))).join('|')}`,
  );

describe('buildContents: generated call ids', () => {
  const call = event('me', 'model', [
    { text: 'calling' },
    { functionCall: { id: 'adk-1', name: 't', args: {} } },
    { functionCall: { id: 'own', name: 't' } },
    { functionCall: { name: 'u' } },
  ]);
  const response = event('me', 'user', [
    { functionResponse: { id: 'adk-1', name: 't', response: { r: 1 } } },
    { functionResponse: { id: 'own', name: 't' } },
    { functionResponse: { name: 'u' } },
  ]);

  it("hides ids the runner generated (prefix adk-) and keeps the provider's own", () => {
    expect(buildContents([call, response], options).map((m) => m.message)).toEqual([
      {
        role: 'model',
        content: [
          { text: 'calling' },
          { functionCall: { name: 't', args: {} } },
          { functionCall: { id: 'own', name: 't' } },
          { functionCall: { name: 'u' } },
        ],
      },
      {
        role: 'user',
        content: [
          { functionResponse: { name: 't', response: { r: 1 } } },
          { functionResponse: { id: 'own', name: 't' } },
          { functionResponse: { name: 'u' } },
        ],
      },
    ]);
  });

  it('keeps them when asked, and uses a given prefix instead of adk-', () => {
    expect(
      buildContents([call, response], { ...options, preserveFunctionCallIds: true }).map((m) => m.message.content),
    ).toEqual([call.content?.parts, response.content?.parts]);
    const custom = buildContents([call, response], { ...options, generatedCallIdPrefix: 'ow' }).map(
      (m) => m.message.content,
    );
    expect(custom).toEqual([
      [
        { text: 'calling' },
        { functionCall: { id: 'adk-1', name: 't', args: {} } },
        { functionCall: { name: 't' } },
        { functionCall: { name: 'u' } },
      ],
      [
        { functionResponse: { id: 'adk-1', name: 't', response: { r: 1 } } },
        { functionResponse: { name: 't' } },
        { functionResponse: { name: 'u' } },
      ],
    ]);
  });

  it('shares the parts of events without generated ids', () => {
    const plain = event('me', 'model', [{ functionCall: { name: 't' } }]);
    const [message] = buildContents([plain], options);
    expect(message?.message.content).toBe(plain.content?.parts);
    const text = event('me', 'model', [{ text: 'calling' }]);
    const own = event('me', 'model', [{ functionCall: { id: 'own', name: 't' } }, { functionCall: { name: 'u' } }]);
    const answers = event('me', 'user', [
      { functionResponse: { name: 'u' } },
      { functionResponse: { id: 'own', name: 't' } },
    ]);
    const events = [text, own, answers];
    const messages = buildContents(events, options);
    expect(messages).toHaveLength(3);
    messages.forEach((m, index) => expect(m.message.content).toBe(events[index]?.content?.parts));
  });
});

describe('buildContents: visibility', () => {
  it('drops empty, thought-only and role-less events, and framework calls', () => {
    const user = event('user', 'user', [{ text: 'q' }]);
    const empty = event('me', 'model', []);
    const blank = event('me', 'model', [{ text: '' }]);
    const thought = event('me', 'model', [{ text: 'hmm', thought: true }]);
    const noContent = event('me', undefined, undefined);
    const noRole = event('me', undefined, [{ text: 'orphan' }]);
    const framework = event('me', 'model', [{ functionCall: { id: 'f', name: 'adk_request_confirmation' } }]);
    const frameworkAnswer = event('user', 'user', [{ functionResponse: { id: 'f', name: 'adk_request_credential' } }]);
    const frameworkOther = event('me', 'model', [{ functionCall: { id: 'g', name: 'adk_framework' } }]);
    const data = event('me', 'model', [{ fileData: { fileUri: 'gs://x' } }]);
    const mixed = event('me', 'model', [{ text: 'hmm', thought: true }, { text: 'answer' }]);
    const call = event('me', 'model', [{ functionCall: { id: 'k', name: 'tool' } }]);
    const otherNoRole = event('other', undefined, [{ text: 'ghost' }]);
    const events = [
      user,
      empty,
      blank,
      thought,
      noContent,
      noRole,
      otherNoRole,
      framework,
      frameworkAnswer,
      frameworkOther,
      data,
      mixed,
      call,
    ];
    expect(buildContents(events, options).map((m) => m.message)).toEqual([
      { role: 'user', content: [{ text: 'q' }] },
      { role: 'model', content: [{ fileData: { fileUri: 'gs://x' } }] },
      { role: 'model', content: [{ text: 'hmm', thought: true }, { text: 'answer' }] },
      { role: 'model', content: [{ functionCall: { id: 'k', name: 'tool' } }] },
    ]);
  });

  it('shows events of the own branch and its ancestors only', () => {
    const at = (branch: string | undefined, text: string) =>
      event('me', 'model', [{ text }], branch === undefined ? {} : { branch });
    const events = [
      at(undefined, 'none'),
      at('', 'blank'),
      at('a', 'a'),
      at('a.b', 'a.b'),
      at('a.b.c', 'child'),
      at('a.c', 'sibling'),
      at('ab', 'prefix'),
      at('b', 'other'),
    ];
    expect(roles(buildContents(events, { ...options, branch: 'a.b' }))).toEqual([
      'model:none',
      'model:blank',
      'model:a',
      'model:a.b',
    ]);
    expect(roles(buildContents(events, { ...options, branch: '' }))).toHaveLength(8);
    expect(roles(buildContents(events, options))).toHaveLength(8);
  });
});

describe('buildContents: rewinds', () => {
  it('hides the rewind and everything from the first event of the named invocation', () => {
    const a = event('user', 'user', [{ text: 'one' }], { invocationId: 'i1' });
    const b = event('me', 'model', [{ text: 'two' }], { invocationId: 'i2' });
    const c = event('me', 'model', [{ text: 'three' }], { invocationId: 'i3' });
    const d = event('me', 'model', [{ text: 'four' }], { invocationId: 'i2' });
    const rewind = event('me', undefined, undefined, { invocationId: 'i4' }, { rewindBeforeInvocationId: 'i2' });
    const e = event('user', 'user', [{ text: 'five' }], { invocationId: 'i5' });
    expect(roles(buildContents([a, b, c, d, rewind, e], options))).toEqual(['user:one', 'user:five']);
  });

  it('hides only the rewind itself when the invocation is not found before it', () => {
    const a = event('user', 'user', [{ text: 'one' }], { invocationId: 'i1' });
    const rewind = event(
      'me',
      'model',
      [{ text: 'rewind text' }],
      { invocationId: 'i2' },
      { rewindBeforeInvocationId: 'i9' },
    );
    const later = event('me', 'model', [{ text: 'two' }], { invocationId: 'i9' });
    expect(roles(buildContents([a, rewind, later], options))).toEqual(['user:one', 'model:two']);
    const b = event('me', 'model', [{ text: 'b' }], { invocationId: 'i1' });
    const c = event('me', 'model', [{ text: 'c' }], { invocationId: 'i1' });
    expect(roles(buildContents([a, b, c, rewind, later], options))).toEqual([
      'user:one',
      'model:b',
      'model:c',
      'model:two',
    ]);
  });

  it('rewinds to the very first event, and applies nested rewinds from the end', () => {
    const a = event('user', 'user', [{ text: 'one' }], { invocationId: 'i1' });
    const b = event('me', 'model', [{ text: 'two' }], { invocationId: 'i2' });
    const r1 = event('me', undefined, undefined, { invocationId: 'i3' }, { rewindBeforeInvocationId: 'i1' });
    const c = event('user', 'user', [{ text: 'three' }], { invocationId: 'i4' });
    expect(roles(buildContents([a, b, r1, c], options))).toEqual(['user:three']);
    const d = event('me', 'model', [{ text: 'four' }], { invocationId: 'i5' });
    const r2 = event('me', undefined, undefined, { invocationId: 'i6' }, { rewindBeforeInvocationId: 'i5' });
    expect(roles(buildContents([a, b, c, d, r2], options))).toEqual(['user:one', 'model:two', 'user:three']);
  });
});

describe('currentTurnEvents', () => {
  it('starts at the latest visible event by the user or another agent', () => {
    const u1 = event('user', 'user', [{ text: 'first' }]);
    const m1 = event('me', 'model', [{ text: 'reply' }]);
    const other = event('other', 'model', [{ text: 'other says' }]);
    const m2 = event('me', 'model', [{ text: 'mine' }]);
    expect(currentTurnEvents([u1, m1, other, m2], 'me', undefined)).toEqual([other, m2]);
    expect(currentTurnEvents([u1, m1], 'me', undefined)).toEqual([u1, m1]);
    expect(currentTurnEvents([m1], 'me', undefined)).toEqual([]);
    expect(currentTurnEvents([], 'me', undefined)).toEqual([]);
  });

  it('skips events not on the branch and empty ones', () => {
    const u1 = event('user', 'user', [{ text: 'first' }]);
    const hidden = event('user', 'user', [{ text: 'elsewhere' }], { branch: 'x' });
    const blank = event('user', 'user', [{ text: '' }]);
    const m1 = event('me', 'model', [{ text: 'reply' }]);
    expect(currentTurnEvents([u1, hidden, blank, m1], 'me', 'y')).toEqual([u1, hidden, blank, m1]);
    expect(currentTurnEvents([u1, hidden, blank, m1], 'me', 'x')).toEqual([hidden, blank, m1]);
    const noRole = event('user', undefined, [{ text: 'no role' }]);
    expect(currentTurnEvents([u1, noRole, m1], 'me', undefined)).toEqual([u1, noRole, m1]);
  });
});

describe('currentTurnEvents: framework events', () => {
  it("skips the user's answer to a request of the framework (credentials, confirmation)", () => {
    const u1 = event('user', 'user', [{ text: 'first' }]);
    const ask = event('me', 'model', [{ functionCall: { id: 'f', name: 'adk_request_credential' } }]);
    const reply = event('user', 'user', [
      { functionResponse: { id: 'f', name: 'adk_request_credential', response: { token: 'x' } } },
    ]);
    const m1 = event('me', 'model', [{ text: 'reply' }]);
    expect(currentTurnEvents([u1, ask, reply, m1], 'me', undefined)).toEqual([u1, ask, reply, m1]);
  });
});

describe('insertInstructionMessages', () => {
  const source: Source = { kind: 'custom', processor: 'test', agent: 'test' };
  const msg = (role: 'user' | 'model', parts: Part[]): DraftMessage => ({
    message: { role, content: parts },
    sources: parts.map(() => source),
  });
  const instruction = msg('user', [{ text: 'instruction' }]);
  const texts = (messages: DraftMessage[]) =>
    messages.map(({ message }) =>
      'text' in (message.content[0] as Part) ? (message.content[0] as { text: string }).text : 'response',
    );

  it('places the messages before the trailing plain user messages', () => {
    const history = [
      msg('user', [{ text: 'u1' }]),
      msg('model', [{ text: 'm1' }]),
      msg('user', [{ text: 'u2' }]),
      msg('user', [{ text: 'u3' }]),
    ];
    expect(texts(insertInstructionMessages(history, [instruction]))).toEqual(['u1', 'm1', 'instruction', 'u2', 'u3']);
    expect(texts(insertInstructionMessages(history.slice(0, 2), [instruction]))).toEqual(['u1', 'm1', 'instruction']);
    expect(texts(insertInstructionMessages(history.slice(2), [instruction]))).toEqual(['instruction', 'u2', 'u3']);
    expect(texts(insertInstructionMessages([], [instruction]))).toEqual(['instruction']);
  });

  it('never between a call and its response', () => {
    const history = [
      msg('model', [{ functionCall: { id: 'c', name: 't' } }]),
      msg('user', [{ text: 'see' }, { functionResponse: { id: 'c', name: 't' } }]),
      msg('user', [{ text: 'u' }]),
    ];
    expect(texts(insertInstructionMessages(history, [instruction]))).toEqual(['response', 'see', 'instruction', 'u']);
  });

  it('returns a copy when there is nothing to insert', () => {
    const history = [msg('user', [{ text: 'u1' }])];
    const result = insertInstructionMessages(history, []);
    expect(result).toEqual(history);
    expect(result).not.toBe(history);
  });
});

describe('buildSettledContents', () => {
  const call = (id: string | undefined) =>
    event('me', 'model', [{ functionCall: { ...(id === undefined ? {} : { id }), name: 't' } }]);
  const answer = (id: string | undefined, extra: Partial<Event> = {}) =>
    event('me', 'user', [{ functionResponse: { ...(id === undefined ? {} : { id }), name: 't' } }], extra);
  const user = (text: string) => event('user', 'user', [{ text }]);
  const settled = (events: Event[], view: ContentsOptions = options) => {
    const built = buildSettledContents(events, view);
    expect(built.messages).toEqual(buildContents(events, view));
    return built.settled;
  };

  it('calls a history settled when it ends in a turn or in the response to the call just before', () => {
    expect(settled([])).toBe(true);
    expect(settled([user('q'), event('me', 'model', [{ text: 'a' }])])).toBe(true);
    expect(settled([user('q'), call('c1'), answer('c1')])).toBe(true);
    expect(settled([call(undefined), answer(undefined)])).toBe(true);
    // A response that came late is settled once something follows it: it then stays right after its call.
    expect(settled([call('c1'), user('meanwhile'), answer('c1'), user('next')])).toBe(true);
  });

  it('not when its last response is folded back to an earlier call, or a call shown has no response', () => {
    expect(settled([call('c1'), user('meanwhile'), answer('c1')])).toBe(false);
    expect(
      settled([call('c1'), user('meanwhile'), answer('c1'), event('me', 'model', [{ text: 'hmm', thought: true }])]),
    ).toBe(false);
    expect(settled([user('q'), call('c1')])).toBe(false);
    expect(settled([user('q'), call('c1'), answer('c2'), user('next')])).toBe(false);
    expect(settled([user('q'), call(undefined), user('next')])).toBe(false);
    const branches = [{ ...user('q'), branch: 'a' }, { ...call('c1'), branch: 'a' }, answer('c1', { branch: 'a.b' })];
    expect(settled(branches, { ...options, branch: 'a.b' })).toBe(true);
    expect(settled(branches, { ...options, branch: 'a' })).toBe(false);
  });
});
