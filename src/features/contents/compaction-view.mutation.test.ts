import { describe, expect, it } from 'vitest';
import type { Part } from '../../contracts/content.js';
import type { DraftMessage } from '../../contracts/draft.js';
import type { Event, EventCompaction } from '../../contracts/event.js';
import { pythonStr } from '../../engine/python/python-format.js';
import { buildContents, type ContentsOptions } from './build-contents.js';
import { SUMMARY_HEADING, substituteCompactions } from './compaction-view.js';
import { toWorkEvent } from './work-event.js';

const actions = () => ({ stateDelta: {}, artifactDelta: {} });
const ev = (id: string, timestamp: number, author: string, role: 'user' | 'model', parts: Part[]): Event => ({
  id,
  invocationId: 'inv',
  author,
  timestamp,
  actions: actions(),
  content: { role, parts },
});
const say = (id: string, timestamp: number, author = 'me') =>
  ev(id, timestamp, author, author === 'user' ? 'user' : 'model', [{ text: id }]);
const compact = (
  id: string,
  timestamp: number,
  range: [number, number],
  eventIds?: string[],
  text = `sum ${id}`,
): Event => {
  const compaction: EventCompaction = {
    startTimestamp: range[0],
    endTimestamp: range[1],
    compactedContent: { role: 'model', parts: [{ text }] },
    ...(eventIds === undefined ? {} : { eventIds }),
  };
  return { id, invocationId: 'inv', author: 'user', timestamp, actions: { ...actions(), compaction } };
};
const options: ContentsOptions = {
  agentName: 'me',
  branch: undefined,
  preserveFunctionCallIds: true,
  embed: pythonStr,
};
const lines = (messages: DraftMessage[]) =>
  messages.map(
    ({ message }) =>
      `${message.role}:${message.content.map((part) => ('text' in part ? part.text : 'functionCall' in part ? `call ${part.functionCall.id}` : 'functionResponse' in part ? `response ${part.functionResponse.id}` : '?')).join('|')}`,
  );
const summary = (text: string) => `user:${SUMMARY_HEADING}|${text}`;

describe('exact compaction view', () => {
  it('replaces exactly the listed events, in place of the last one, as a user message with a heading', () => {
    const events = [
      say('a', 1, 'user'),
      say('b', 2),
      say('c', 3, 'user'),
      say('d', 4),
      compact('s', 5, [1, 3], ['a', 'b', 'd']),
      say('e', 6, 'user'),
    ];
    const messages = buildContents(events, options);
    expect(lines(messages)).toEqual(['user:c', summary('sum s'), 'user:e']);
    expect(messages[1]?.sources).toEqual([
      {
        kind: 'summary',
        processor: 'contents',
        agent: 'user',
        eventIds: ['a', 'b', 'd'],
        note: 'summary of 3 events (1 to 3), written by compaction event s',
      },
      {
        kind: 'summary',
        processor: 'contents',
        agent: 'user',
        eventIds: ['a', 'b', 'd'],
        note: 'summary of 3 events (1 to 3), written by compaction event s',
      },
    ]);
  });

  it('without a list, replaces the events in the time range, both ends included', () => {
    const events = [
      say('a', 1, 'user'),
      say('b', 2),
      say('c', 3, 'user'),
      say('d', 4),
      compact('s', 5, [2, 3]),
      say('e', 6, 'user'),
    ];
    const messages = buildContents(events, options);
    expect(lines(messages)).toEqual(['user:a', summary('sum s'), 'model:d', 'user:e']);
    expect(messages[1]?.sources[0]?.eventIds).toEqual(['b', 'c']);
  });

  it('puts a summary whose events are all out of view where it was written', () => {
    const events = [say('a', 1, 'user'), say('b', 2), compact('s', 3, [0, 0], ['gone1', 'gone2']), say('c', 4, 'user')];
    expect(lines(buildContents(events, options))).toEqual(['user:a', 'model:b', summary('sum s'), 'user:c']);
  });

  it('keeps the wider of two summaries, and places two that overlap side by side in order', () => {
    const base = [say('a', 1, 'user'), say('b', 2), say('c', 3, 'user'), say('d', 4)];
    const subsumed = [...base, compact('s1', 5, [1, 2], ['a', 'b']), compact('s2', 6, [1, 3], ['a', 'b', 'c'])];
    expect(lines(buildContents(subsumed, options))).toEqual([summary('sum s2'), 'model:d']);
    const overlapping = [...base, compact('s1', 5, [1, 3], ['a', 'c']), compact('s2', 6, [2, 3], ['b', 'c'])];
    expect(lines(buildContents(overlapping, options))).toEqual([summary('sum s1'), summary('sum s2'), 'model:d']);
  });

  it('drops the later responses to calls a summary took in, keeping the rest of their events', () => {
    const call = ev('c', 2, 'me', 'model', [
      { functionCall: { id: 'x', name: 'f' } },
      { functionCall: { id: 'y', name: 'f' } },
      { functionCall: { name: 'f' } },
    ]);
    const lateX = ev('rx', 5, 'me', 'user', [{ functionResponse: { id: 'x', name: 'f' } }]);
    const lateY = ev('ry', 6, 'me', 'user', [{ functionResponse: { id: 'y', name: 'f' } }, { text: 'note' }]);
    const other = ev('oc', 7, 'me', 'model', [{ functionCall: { id: 'z', name: 'f' } }]);
    const otherAnswer = ev('oz', 8, 'me', 'user', [
      { functionResponse: { id: 'z', name: 'f' } },
      { functionResponse: { name: 'f' } },
    ]);
    const events = [say('u', 1, 'user'), call, compact('s', 3, [1, 2], ['u', 'c']), lateX, lateY, other, otherAnswer];
    expect(lines(buildContents(events, options))).toEqual([
      summary('sum s'),
      'user:note',
      'model:call z',
      'user:response z|response undefined',
    ]);
    const work = substituteCompactions(events.map(toWorkEvent), 'exact');
    const note = work.find((event) => event.id === 'ry');
    expect(note?.sources).toEqual([{ kind: 'history', processor: 'contents', agent: 'me', eventIds: ['ry'] }]);
    expect(note?.responses).toEqual([]);
  });

  it('drops only the responses to calls a summary took in from an event that also answers others, sharing untouched events', () => {
    const call = ev('c', 2, 'me', 'model', [{ functionCall: { id: 'x', name: 'f' } }]);
    const other = ev('oc', 4, 'me', 'model', [{ functionCall: { id: 'z', name: 'f' } }]);
    const both = ev('both', 5, 'me', 'user', [
      { functionResponse: { id: 'x', name: 'f' } },
      { functionResponse: { id: 'z', name: 'f' } },
    ]);
    const later = ev('lc', 6, 'me', 'model', [{ functionCall: { id: 'w', name: 'f' } }]);
    const laterAnswer = ev('lw', 7, 'me', 'user', [{ functionResponse: { id: 'w', name: 'f' } }]);
    const events = [say('u', 1, 'user'), call, compact('s', 3, [1, 2], ['u', 'c']), other, both, later, laterAnswer];
    const messages = buildContents(events, options);
    expect(lines(messages)).toEqual([
      summary('sum s'),
      'model:call z',
      'user:response z',
      'model:call w',
      'user:response w',
    ]);
    expect(messages[4]?.message.content).toBe(laterAnswer.content?.parts);
  });

  it('places a summary after the last raw event it lists, even when its list names another summary', () => {
    const events = [
      say('a', 1, 'user'),
      say('b', 2),
      say('x', 3, 'user'),
      compact('s1', 4, [1, 1], ['a']),
      compact('s2', 5, [1, 2], ['a', 'b', 's1']),
      say('c', 6),
    ];
    expect(lines(buildContents(events, options))).toEqual([summary('sum s2'), 'user:x', 'model:c']);
  });

  it('leaves a history without summaries as it is', () => {
    const events = [say('a', 1, 'user'), say('b', 2)].map(toWorkEvent);
    const result = substituteCompactions(events, 'exact');
    expect(result).toEqual(events);
    expect(result).not.toBe(events);
    // ADK's view re-sorts by time only around a summary.
    const unordered = [say('late', 5, 'user'), say('early', 1)].map(toWorkEvent);
    expect(substituteCompactions(unordered, 'adk')).toEqual(unordered);
  });
});

describe("ADK's compaction view", () => {
  const adk: ContentsOptions = { ...options, compactionView: 'adk' };

  it('turns each summary into a model turn at its end time, dropping every raw event in the range, and sorts by time', () => {
    const events = [
      say('a', 1, 'user'),
      say('b', 2),
      say('c', 3, 'user'),
      say('d', 4),
      compact('s', 5, [1, 3], ['a']),
      say('e', 6, 'user'),
    ];
    const messages = buildContents(events, adk);
    // 'model' is not the agent's name, so the summary reads as another agent's turn.
    expect(lines(messages)).toEqual(['user:For context:|[model] said: sum s', 'model:d', 'user:e']);
    expect(messages[0]?.sources[1]).toEqual({
      kind: 'summary',
      processor: 'contents',
      agent: 'user',
      eventIds: ['a', 'b', 'c'],
      note: "summary of 3 events (1 to 3), written by compaction event s, retold as another agent's turn (ADK behaviour)",
    });
  });

  it("shows the summary as the model's own turn to an agent named model, and orders equal times by position", () => {
    const events = [
      say('a', 1, 'user'),
      say('b', 2),
      compact('s', 9, [1, 2]),
      say('x', 3, 'user'),
      say('y', 3),
      say('z', 2.5),
    ];
    expect(lines(buildContents(events, { ...adk, agentName: 'model' }))).toEqual([
      'model:sum s',
      'user:For context:|[me] said: z',
      'user:x',
      'user:For context:|[me] said: y',
    ]);
    expect(
      substituteCompactions(events.map(toWorkEvent), 'adk').map((event) => `${event.id}@${event.timestamp}`),
    ).toEqual(['s@2', 'z@2.5', 'x@3', 'y@3']);
  });

  it('replaces the events of each of several summaries, never counting a summary among the events', () => {
    const events = [
      say('a', 1, 'user'),
      say('b', 2),
      compact('s1', 3, [1, 2]),
      say('c', 4, 'user'),
      say('d', 5),
      compact('s2', 6, [4, 5]),
      say('e', 7, 'user'),
    ];
    const work = substituteCompactions(events.map(toWorkEvent), 'adk');
    expect(work.map((event) => `${event.id}@${event.timestamp}`)).toEqual(['s1@2', 's2@5', 'e@7']);
    expect(work.map((event) => event.sources[0]?.eventIds)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    const nested = [
      say('a', 1, 'user'),
      say('b', 2),
      compact('s1', 3, [1, 2]),
      say('c', 4, 'user'),
      compact('s2', 5, [1, 4]),
      say('e', 6, 'user'),
    ];
    expect(substituteCompactions(nested.map(toWorkEvent), 'adk').map((event) => event.sources[0]?.eventIds)).toEqual([
      ['a', 'b', 'c'],
      ['e'],
    ]);
    expect(substituteCompactions(nested.map(toWorkEvent), 'exact').map((event) => event.sources[0]?.eventIds)).toEqual([
      ['a', 'b', 'c'],
      ['e'],
    ]);
  });

  it('keeps only the widest of nested summaries, by time range', () => {
    const events = [
      say('a', 1, 'user'),
      say('b', 2),
      say('c', 3, 'user'),
      compact('s1', 4, [1, 2], ['a', 'b']),
      compact('s2', 5, [1, 3], ['a']),
    ];
    expect(substituteCompactions(events.map(toWorkEvent), 'adk').map((event) => event.id)).toEqual(['s2']);
  });
});
