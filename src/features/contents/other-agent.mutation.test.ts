import { describe, expect, it } from 'vitest';
import type { Part } from '../../contracts/content.js';
import type { Event } from '../../contracts/event.js';
import type { Source } from '../../contracts/source.js';
import { pythonStr } from '../../engine/python/python-format.js';
import { buildContents, type ContentsOptions } from './build-contents.js';
import { findOtherAgentEvents, isOtherAgentReply, presentOtherAgentEvent } from './other-agent.js';
import { toWorkEvent, withParts } from './work-event.js';

const actions = () => ({ stateDelta: {}, artifactDelta: {} });
let counter = 0;
function event(author: string, role: 'user' | 'model', parts: Part[], extra: Partial<Event> = {}): Event {
  counter += 1;
  return {
    id: `e${counter}`,
    invocationId: 'inv',
    author,
    timestamp: counter,
    actions: actions(),
    content: { role, parts },
    ...extra,
  };
}
const history = (e: Event): Source => ({ kind: 'history', processor: 'contents', agent: e.author, eventIds: [e.id] });
const retold = (e: Event): Source => ({
  kind: 'other-agent',
  processor: 'contents',
  agent: e.author,
  eventIds: [e.id],
  note: "another agent's turn, retold as context",
});
const options: ContentsOptions = {
  agentName: 'me',
  branch: undefined,
  preserveFunctionCallIds: true,
  embed: pythonStr,
};

describe('isOtherAgentReply', () => {
  it('counts every non-user author in a live session, and other named agents otherwise', () => {
    expect(isOtherAgentReply('me', 'me', 'live')).toBe(true);
    expect(isOtherAgentReply('me', 'user', 'live')).toBe(false);
    expect(isOtherAgentReply('me', 'me', '')).toBe(false);
    expect(isOtherAgentReply('me', 'other', '')).toBe(true);
    expect(isOtherAgentReply('me', 'user')).toBe(false);
    expect(isOtherAgentReply('', 'other')).toBe(false);
    expect(isOtherAgentReply('me', 'other')).toBe(true);
  });
});

describe("another agent's turn in the messages", () => {
  it('retells text, calls and results as one user message opening with "For context:"', () => {
    const user = event('user', 'user', [{ text: 'hi' }]);
    const other = event('other', 'model', [
      { text: 'thinking', thought: true },
      { text: 'let me look' },
      { text: ' \n\t' },
      { functionCall: { id: 'c1', name: 'search', args: { q: 'x' } } },
      { functionCall: { id: 'c2', name: 'now' } },
    ]);
    const response = event('other', 'user', [
      { functionResponse: { id: 'c1', name: 'search', response: { hits: 2 } } },
      { functionResponse: { id: 'c2', name: 'now' } },
    ]);
    const mine = event('me', 'model', [{ text: 'done' }]);
    expect(buildContents([user, other, response, mine], options)).toEqual([
      { message: { role: 'user', content: [{ text: 'hi' }] }, sources: [history(user)] },
      {
        message: {
          role: 'user',
          content: [
            { text: 'For context:' },
            { text: '[other] said: let me look' },
            { text: "[other] called tool `search` with parameters: {'q': 'x'}" },
            { text: '[other] called tool `now` with parameters: None' },
          ],
        },
        sources: [retold(other), retold(other), retold(other), retold(other)],
      },
      {
        message: {
          role: 'user',
          content: [
            { text: 'For context:' },
            { text: "[other] `search` tool returned result: {'hits': 2}" },
            { text: '[other] `now` tool returned result: None' },
          ],
        },
        sources: [retold(response), retold(response), retold(response)],
      },
      { message: { role: 'model', content: [{ text: 'done' }] }, sources: [history(mine)] },
    ]);
  });

  it('keeps data parts as they are and drops a turn with nothing left to tell', () => {
    const data: Part = { inlineData: { mimeType: 'image/png', data: 'AAAA' } };
    const other = event('other', 'model', [{ text: 'look' }, data]);
    const silent = event('other', 'model', [{ text: 'hmm', thought: true }, { text: '   ' }]);
    expect(buildContents([other, silent], options)).toEqual([
      {
        message: { role: 'user', content: [{ text: 'For context:' }, { text: '[other] said: look' }, data] },
        sources: [retold(other), retold(other), retold(other)],
      },
    ]);
  });

  it('retells my own response to a call another agent made, but not one to my own or to a user call', () => {
    const call = event('other', 'model', [{ functionCall: { id: 'oc', name: 'ask' } }]);
    const answer = event('me', 'user', [{ functionResponse: { id: 'oc', name: 'ask', response: { ok: true } } }]);
    const mineCall = event('me', 'model', [{ functionCall: { id: 'mc', name: 'ask' } }]);
    const mineAnswer = event('me', 'user', [{ functionResponse: { id: 'mc', name: 'ask', response: { ok: false } } }]);
    const userCall = event('user', 'model', [{ functionCall: { id: 'uc', name: 'ask' } }]);
    const userAnswer = event('me', 'user', [{ functionResponse: { id: 'uc', name: 'ask' } }]);
    const blankCall = event('', 'model', [{ functionCall: { id: 'bc', name: 'ask' } }]);
    const blankAnswer = event('me', 'user', [{ functionResponse: { id: 'bc', name: 'ask' } }]);
    const stray = event('me', 'user', [{ functionResponse: { id: 'nowhere', name: 'ask' } }]);
    const events = [call, answer, mineCall, mineAnswer, userCall, userAnswer, blankCall, blankAnswer, stray].map(
      toWorkEvent,
    );
    const others = findOtherAgentEvents('me', events);
    expect(events.map((e) => others.has(e))).toEqual([true, true, false, false, false, false, true, false, false]);
    const messages = buildContents([call, answer, mineCall, mineAnswer], options);
    expect(messages.map((m) => m.message)).toEqual([
      {
        role: 'user',
        content: [{ text: 'For context:' }, { text: '[other] called tool `ask` with parameters: None' }],
      },
      { role: 'user', content: [{ text: 'For context:' }, { text: "[me] `ask` tool returned result: {'ok': True}" }] },
      { role: 'model', content: [{ functionCall: { id: 'mc', name: 'ask' } }] },
      { role: 'user', content: [{ functionResponse: { id: 'mc', name: 'ask', response: { ok: false } } }] },
    ]);
  });

  it('counts no agent as another when the agent has no name', () => {
    const other = event('other', 'model', [{ text: 'x' }]);
    const works = [other].map(toWorkEvent);
    expect(findOtherAgentEvents('', works).size).toBe(0);
  });
});

describe('presentOtherAgentEvent', () => {
  it('returns an event without parts as it is', () => {
    const empty = toWorkEvent(event('other', 'model', []));
    expect(presentOtherAgentEvent(empty, pythonStr)).toBe(empty);
  });

  it('retells each part with its own source, keeping what the source lists, once per distinct source', () => {
    const a: Source = {
      kind: 'history',
      processor: 'contents',
      agent: 'other',
      eventIds: ['x'],
      field: 'f',
      substitutions: [],
    };
    const b: Source = {
      kind: 'summary',
      processor: 'contents',
      agent: 'other',
      eventIds: ['y', 'z'],
      note: 'summary of 2 events',
    };
    const c: Source = { kind: 'summary', processor: 'contents', agent: 'other' };
    const base = {
      id: 'w',
      author: 'other',
      timestamp: 1,
      branch: 'b',
      invocationId: 'i',
      role: 'model' as const,
      actions: actions(),
    };
    const work = withParts(base, [{ text: 'one' }, { text: 'two' }, { text: 'three' }, { text: 'four' }], [a, a, b, c]);
    const result = presentOtherAgentEvent(work, pythonStr);
    expect(result).toEqual({
      ...base,
      author: 'user',
      role: 'user',
      parts: [
        { text: 'For context:' },
        { text: '[other] said: one' },
        { text: '[other] said: two' },
        { text: '[other] said: three' },
        { text: '[other] said: four' },
      ],
      sources: [
        {
          kind: 'other-agent',
          processor: 'contents',
          agent: 'other',
          eventIds: ['x'],
          field: 'f',
          substitutions: [],
          note: "another agent's turn, retold as context",
        },
        {
          kind: 'other-agent',
          processor: 'contents',
          agent: 'other',
          eventIds: ['x'],
          field: 'f',
          substitutions: [],
          note: "another agent's turn, retold as context",
        },
        {
          kind: 'other-agent',
          processor: 'contents',
          agent: 'other',
          eventIds: ['x'],
          field: 'f',
          substitutions: [],
          note: "another agent's turn, retold as context",
        },
        {
          kind: 'summary',
          processor: 'contents',
          agent: 'other',
          eventIds: ['y', 'z'],
          note: "summary of 2 events, retold as another agent's turn (ADK behaviour)",
        },
        {
          kind: 'summary',
          processor: 'contents',
          agent: 'other',
          note: "summary, retold as another agent's turn (ADK behaviour)",
        },
      ],
      calls: [],
      responses: [],
    });
    expect(Object.keys(result?.sources[4] ?? {})).toEqual(['kind', 'processor', 'agent', 'note']);
    expect(result?.sources[1]).toBe(result?.sources[2]);
  });
});
