import { describe, expect, it } from 'vitest';
import type { Processor } from '../../contracts/agent.js';
import type { Part } from '../../contracts/content.js';
import type { Message } from '../../contracts/request.js';
import type { Event } from '../../contracts/event.js';
import { llmAgent } from '../../engine/agent/define-agent.js';
import { draftMessage } from '../../engine/assembly/draft.js';
import { createSessionMemo } from '../../engine/extensions/memo.js';
import { deriveProfile } from '../../engine/profile/profiles.js';
import { INTERRUPTED_CALL_ERROR } from '../../engine/runner/interrupted-calls.js';
import { assembleRequest } from '../../presets/assemble-request.js';
import { contentsProcessor } from './contents-processor.js';
import { CONTINUE_TEXT, EMPTY_CONTENTS_TEXT, finalizeProcessor } from './finalize.js';

let time = 0;
const ev = (
  id: string,
  invocationId: string,
  author: string,
  role: 'user' | 'model',
  parts: Part[],
  branch?: string,
): Event => ({
  id,
  invocationId,
  author,
  timestamp: ++time,
  ...(branch === undefined ? {} : { branch }),
  actions: { stateDelta: {}, artifactDelta: {} },
  content: { role, parts },
});
const say = (id: string, inv: string, author = 'me') =>
  ev(id, inv, author, author === 'user' ? 'user' : 'model', [{ text: id }]);
const source = { kind: 'custom' as const, processor: 'test', agent: 'test' };
const seed = (...texts: string[]): Processor => ({
  name: 'seed',
  process: (draft) => ({ ...draft, messages: texts.map((text) => draftMessage('user', [{ text }], source)) }),
});
const texts = (messages: readonly Message[]) =>
  messages.map(
    (message) =>
      `${message.role}:${message.content.map((part) => ('text' in part ? part.text : JSON.stringify(part))).join('|')}`,
  );

describe('contentsProcessor', () => {
  const history = [
    say('u1', 'i1', 'user'),
    say('m1', 'i1'),
    say('o1', 'i2', 'other'),
    say('m2', 'i2'),
    say('u2', 'i3', 'user'),
  ];

  it('builds the whole history and places earlier messages before the trailing user turns', async () => {
    const { request } = await assembleRequest({
      agents: llmAgent({ name: 'me' }),
      events: history,
      pipeline: [seed('dynamic'), contentsProcessor],
    });
    expect(texts(request.messages)).toEqual([
      'user:u1',
      'model:m1',
      'user:For context:|[other] said: o1',
      'model:m2',
      'user:dynamic',
      'user:u2',
    ]);
  });

  it("builds only the current turn for includeContents 'none'", async () => {
    const agent = llmAgent({ name: 'me', includeContents: 'none' });
    const { request } = await assembleRequest({
      agents: agent,
      events: history.slice(0, 4),
      pipeline: [contentsProcessor],
    });
    expect(texts(request.messages)).toEqual(['user:For context:|[other] said: o1', 'model:m2']);
    const memo = createSessionMemo();
    const again = await assembleRequest({
      agents: agent,
      events: history.slice(0, 4),
      pipeline: [contentsProcessor],
      memo,
    });
    expect(texts(again.request.messages)).toEqual(['user:For context:|[other] said: o1', 'model:m2']);
  });

  it('follows the branch of the request', async () => {
    const events = [
      say('u1', 'i1', 'user'),
      ev('left', 'i1', 'me', 'model', [{ text: 'left' }], 'p.left'),
      ev('right', 'i1', 'me', 'model', [{ text: 'right' }], 'p.right'),
    ];
    const { request } = await assembleRequest({
      agents: llmAgent({ name: 'me' }),
      events,
      branch: 'p.right',
      pipeline: [contentsProcessor],
    });
    expect(texts(request.messages)).toEqual(['user:u1', 'model:right']);
  });

  const calls = [
    say('u1', 'i1', 'user'),
    ev('c', 'i1', 'other', 'model', [{ functionCall: { id: 'adk-9', name: 'look', args: { n: null, ok: true } } }]),
    ev('r', 'i1', 'other', 'user', [{ functionResponse: { id: 'adk-9', name: 'look', response: { v: [1, 'a'] } } }]),
    ev('open', 'i1', 'me', 'model', [{ functionCall: { id: 'adk-7', name: 'wait', args: {} } }]),
    say('u2', 'i2', 'user'),
  ];

  it("writes retold values in the profile's format, and answers abandoned calls with agentctx's summaries", async () => {
    for (const memo of [undefined, createSessionMemo()]) {
      const { request } = await assembleRequest({
        agents: llmAgent({ name: 'me' }),
        events: calls,
        pipeline: [contentsProcessor],
        memo,
      });
      expect(texts(request.messages)).toEqual([
        'user:u1',
        'user:For context:|[other] called tool `look` with parameters: {"n":null,"ok":true}',
        'user:For context:|[other] `look` tool returned result: {"v":[1,"a"]}',
        `model:${JSON.stringify({ functionCall: { name: 'wait', args: {} } })}`,
        `user:${JSON.stringify({ functionResponse: { name: 'wait', response: { error: INTERRUPTED_CALL_ERROR } } })}`,
        'user:u2',
      ]);
    }
  });

  it("follows ADK's profile: Python's str(), abandoned calls left open, ids kept when asked", async () => {
    for (const memo of [undefined, createSessionMemo()]) {
      const { request } = await assembleRequest({
        agents: llmAgent({ name: 'me' }),
        events: calls,
        profile: 'adk',
        preserveFunctionCallIds: true,
        pipeline: [contentsProcessor],
        memo,
      });
      expect(texts(request.messages)).toEqual([
        'user:u1',
        "user:For context:|[other] called tool `look` with parameters: {'n': None, 'ok': True}",
        "user:For context:|[other] `look` tool returned result: {'v': [1, 'a']}",
        `model:${JSON.stringify({ functionCall: { id: 'adk-7', name: 'wait', args: {} } })}`,
        'user:u2',
      ]);
    }
  });

  it("uses a profile's own formatter and call id prefix", async () => {
    const profile = deriveProfile('agentctx', {
      valueFormat: (value) => `<${typeof value}>`,
      generatedCallIdPrefix: 'zz-',
    });
    for (const memo of [undefined, createSessionMemo()]) {
      const { request } = await assembleRequest({
        agents: llmAgent({ name: 'me' }),
        events: calls,
        profile,
        pipeline: [contentsProcessor],
        memo,
      });
      expect(texts(request.messages).slice(1, 4)).toEqual([
        'user:For context:|[other] called tool `look` with parameters: <object>',
        'user:For context:|[other] `look` tool returned result: <object>',
        `model:${JSON.stringify({ functionCall: { id: 'adk-7', name: 'wait', args: {} } })}`,
      ]);
    }
  });

  it('never serves one custom formatter the messages of another', async () => {
    const memo = createSessionMemo();
    const format = (tag: string) => deriveProfile('agentctx', { valueFormat: (value) => `${tag}${typeof value}` });
    const first = await assembleRequest({
      agents: llmAgent({ name: 'me' }),
      events: calls.slice(0, 3),
      profile: format('A:'),
      pipeline: [contentsProcessor],
      memo,
    });
    const second = await assembleRequest({
      agents: llmAgent({ name: 'me' }),
      events: calls.slice(0, 3),
      profile: format('B:'),
      pipeline: [contentsProcessor],
      memo,
    });
    expect(texts(first.request.messages)[1]).toBe(
      'user:For context:|[other] called tool `look` with parameters: A:object',
    );
    expect(texts(second.request.messages)[1]).toBe(
      'user:For context:|[other] called tool `look` with parameters: B:object',
    );
  });

  it('serves the next request of the session from the memo instead of building the history again', async () => {
    const memo = createSessionMemo();
    const agent = llmAgent({ name: 'me' });
    const one = await assembleRequest({ agents: agent, events: history, pipeline: [contentsProcessor], memo });
    const two = await assembleRequest({ agents: agent, events: history, pipeline: [contentsProcessor], memo });
    const fresh = await assembleRequest({ agents: agent, events: history, pipeline: [contentsProcessor] });
    // The retold turn is a new message whenever it is built, so the same one means it came from the memo.
    expect(two.request.messages[2]?.content).toBe(one.request.messages[2]?.content);
    expect(fresh.request.messages[2]?.content).not.toBe(one.request.messages[2]?.content);
  });

  it('gives the same messages from the memo as without it, request after request', async () => {
    const memo = createSessionMemo();
    const agent = llmAgent({ name: 'me' });
    for (let length = 1; length <= history.length; length++) {
      const events = history.slice(0, length);
      const cached = await assembleRequest({ agents: agent, events, pipeline: [contentsProcessor], memo });
      const fresh = await assembleRequest({ agents: agent, events, pipeline: [contentsProcessor] });
      expect(cached.request.messages).toEqual(fresh.request.messages);
    }
  });
});

describe('finalizeProcessor', () => {
  it('asks to follow the system text when there is no message, to continue after a model turn, and leaves a user turn last', async () => {
    const agent = llmAgent({ name: 'me' });
    const empty = await assembleRequest({ agents: agent, pipeline: [finalizeProcessor] });
    expect(texts(empty.request.messages)).toEqual([`user:${EMPTY_CONTENTS_TEXT}`]);
    const afterModel = await assembleRequest({
      agents: agent,
      events: [say('u', 'i', 'user'), say('m', 'i')],
      pipeline: [contentsProcessor, finalizeProcessor],
    });
    expect(texts(afterModel.request.messages)).toEqual(['user:u', 'model:m', `user:${CONTINUE_TEXT}`]);
    const afterUser = await assembleRequest({
      agents: agent,
      events: [say('m', 'i'), say('u', 'i', 'user')],
      pipeline: [contentsProcessor, finalizeProcessor],
    });
    expect(texts(afterUser.request.messages)).toEqual(['model:m', 'user:u']);
    const note = {
      kind: 'finalize',
      processor: 'finalize',
      agent: 'me',
      note: 'added so the request ends with a user turn',
    };
    expect(empty.provenance.messages).toEqual([[note]]);
    expect(afterModel.provenance.messages.at(-1)).toEqual([note]);
    expect(afterModel.provenance.messages[0]).toEqual([
      { kind: 'history', processor: 'contents', agent: 'user', eventIds: [expect.any(String)] },
    ]);
  });
});
