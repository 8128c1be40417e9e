import { describe, expect, it } from 'vitest';
import type { Event } from '../contracts/event.js';
import type { ModelCallParent, ModelCallSummary } from '../contracts/model-call.js';
import { createEvent } from '../engine/session/create-event.js';
import { buildTimeline } from './session-timeline.js';

const call = (
  index: number,
  timestamp: number,
  extra: { parent?: ModelCallParent; responseEventId?: string; invocationId?: string } = {},
): ModelCallSummary => ({
  index,
  invocationId: extra.invocationId ?? 'inv',
  agent: extra.parent === undefined ? 'root' : 'sub',
  timestamp,
  editedByCallback: false,
  status: 'answered',
  requestChars: 10,
  ...(extra.parent === undefined ? {} : { parent: extra.parent }),
  ...(extra.responseEventId === undefined ? {} : { responseEventId: extra.responseEventId }),
});

const events: Event[] = [
  createEvent({
    id: 'u',
    invocationId: 'inv',
    author: 'user',
    timestamp: 1,
    content: { role: 'user', parts: [{ text: 'go' }] },
  }),
  createEvent({
    id: 'a',
    invocationId: 'inv',
    author: 'root',
    timestamp: 3,
    content: {
      role: 'model',
      parts: [
        { functionCall: { id: 't1', name: 'helper', args: {} } },
        { functionCall: { id: 't2', name: 'other', args: {} } },
      ],
    },
  }),
  createEvent({
    id: 'r',
    invocationId: 'inv',
    author: 'root',
    timestamp: 9,
    content: { role: 'user', parts: [{ functionResponse: { id: 't1', name: 'helper', response: {} } }] },
  }),
];

const shape = (calls: ModelCallSummary[]) =>
  buildTimeline(events, calls).map((invocation) =>
    invocation.items.map((item) =>
      item.type === 'model-call'
        ? `call${item.index}@${item.depth}`
        : item.type === 'tool-call'
          ? `tool-call ${item.callId}`
          : item.type,
    ),
  );

describe('the timeline nests calls made in a tool call', () => {
  it('under their tool call, siblings in order, a grandchild right after its parent call', () => {
    const calls = [
      call(1, 2, { responseEventId: 'a' }),
      call(2, 4, { parent: { callIndex: 1, functionCallId: 't1', tool: 'helper' }, invocationId: 'sub1' }),
      call(3, 5, { parent: { callIndex: 2, functionCallId: 'x', tool: 'deep' }, invocationId: 'sub2' }),
      call(4, 6, { parent: { callIndex: 1, functionCallId: 't1', tool: 'helper' }, invocationId: 'sub1' }),
      call(5, 7, { parent: { callIndex: 1, functionCallId: 't2', tool: 'other' }, invocationId: 'sub3' }),
    ];
    expect(shape(calls)).toEqual([
      ['message', 'call1@0', 'tool-call t1', 'call2@1', 'call3@2', 'call4@1', 'tool-call t2', 'call5@1', 'tool-result'],
    ]);
  });

  it("under the tool call alone when a hook answered in the parent's place, and by time when the parent is nowhere", () => {
    const calls = [
      call(1, 5, { parent: { functionCallId: 't2', tool: 'other' }, invocationId: 'sub' }),
      call(2, 10, { parent: { callIndex: 9, functionCallId: 'none', tool: 'lost' }, invocationId: 'gone' }),
    ];
    expect(shape(calls)).toEqual([['message', 'tool-call t1', 'tool-call t2', 'call1@1', 'tool-result'], ['call2@0']]);
  });
});

describe('the timeline orders rows by time', () => {
  const turn = (userAt: number, answerAt: number) => [
    createEvent({
      id: 'u',
      invocationId: 'inv',
      author: 'user',
      timestamp: userAt,
      content: { role: 'user', parts: [{ text: 'go' }] },
    }),
    createEvent({
      id: 'm',
      invocationId: 'inv',
      author: 'root',
      timestamp: answerAt,
      content: { role: 'model', parts: [{ text: 'done' }] },
    }),
  ];
  const rows = (list: Event[], calls: ModelCallSummary[]) =>
    buildTimeline(list, calls).flatMap((invocation) =>
      invocation.items.map(
        (item) => `${item.type === 'model-call' ? `call${item.index}` : item.eventId}@${item.timestamp}`,
      ),
    );

  it('even when a call was stamped after the event that carried its answer (a clock skewed by a millisecond)', () => {
    expect(rows(turn(0.023, 0.023), [call(1, 0.024, { responseEventId: 'm' })])).toEqual([
      'u@0.023',
      'm@0.023',
      'call1@0.024',
    ]);
  });

  it('at the same time: the message before the call it triggers, the call before its answer', () => {
    expect(rows(turn(5, 5), [call(1, 5, { responseEventId: 'm' })])).toEqual(['u@5', 'call1@5', 'm@5']);
  });

  it('invocations by their first row', () => {
    const later = createEvent({
      id: 'x',
      invocationId: 'early',
      author: 'user',
      timestamp: 0.5,
      content: { role: 'user', parts: [{ text: 'earlier' }] },
    });
    expect(
      buildTimeline([...turn(1, 2), later], []).map((invocation) => [invocation.invocationId, invocation.start]),
    ).toEqual([
      ['early', 0.5],
      ['inv', 1],
    ]);
  });
});

describe('the timeline shows state operations', () => {
  it('as the key, what the operation does, and its argument', () => {
    const event = createEvent({
      id: 'o',
      invocationId: 'inv',
      author: 'root',
      timestamp: 1,
      actions: {
        stateDelta: { plain: 1 },
        stateOps: [
          { op: 'add', key: 'user:turns', by: 1 },
          { op: 'add', key: 'n', by: -2 },
          { op: 'append', key: 'user:log', items: ['x'] },
          { op: 'setField', key: 'app:prefs', field: 'theme', value: 'dark' },
          { op: 'addToSet', key: 'tags', items: [1] },
        ],
      },
    });
    const items = (buildTimeline([event], [])[0]?.items ?? []).flatMap((item) =>
      item.type === 'state' ? [[item.scope, item.key, item.operation ?? '=', item.value]] : [],
    );
    expect(items).toEqual([
      ['session', 'plain', '=', '1'],
      ['user', 'user:turns', '+=', '1'],
      ['session', 'n', '-=', '2'],
      ['user', 'user:log', 'append', JSON.stringify(['x'], null, 2)],
      ['app', 'app:prefs', '.theme =', 'dark'],
      ['session', 'tags', 'addToSet', JSON.stringify([1], null, 2)],
    ]);
  });
});

describe('calls that wait for a person (issue 48)', () => {
  it('marks a long-running call waiting until the client answers it, then answered', () => {
    const asked: Event = {
      id: 'e1',
      invocationId: 'i1',
      author: 'bank',
      timestamp: 1,
      content: { role: 'model', parts: [{ functionCall: { id: 'c1', name: 'ask_for_approval', args: {} } }] },
      longRunningToolIds: ['c1'],
      actions: { stateDelta: {}, artifactDelta: {} },
    };
    const person = (events: Event[]) =>
      buildTimeline(events, [])
        .flatMap((invocation) => invocation.items)
        .flatMap((item) => (item.type === 'tool-call' ? [item.person] : []));
    expect(person([asked])).toEqual(['waiting']);
    const answer: Event = {
      id: 'e2',
      invocationId: 'i2',
      author: 'user',
      timestamp: 2,
      content: {
        role: 'user',
        parts: [{ functionResponse: { id: 'c1', name: 'ask_for_approval', response: { ok: true } } }],
      },
      actions: { stateDelta: {}, artifactDelta: {} },
    };
    expect(person([asked, answer])).toEqual(['answered']);
  });
});
