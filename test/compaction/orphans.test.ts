import { describe, expect, it } from 'vitest';
import type { Event, EventInput } from '../../src/contracts/event.js';
import { abandonedCalls } from '../../src/engine/compaction/pending-calls.js';
import { planTokenCompaction } from '../../src/engine/compaction/token-threshold.js';
import { pythonStr } from '../../src/engine/python/python-format.js';
import { findUnansweredCalls } from '../../src/engine/runner/unanswered-calls.js';
import { createEvent } from '../../src/engine/session/create-event.js';
import { compactionEvent } from '../../src/features/compaction/compaction-event.js';
import { buildContents } from '../../src/features/contents/build-contents.js';
import { ContentsCache } from '../../src/features/contents/contents-cache.js';
import { INTERRUPTED_CALL_ERROR } from '../../src/engine/runner/interrupted-calls.js';

// Calls left without a response by a run that stopped: which ones the runner answers, and how compaction plans past
// them (test/runner/orphan-calls.test.ts has the rows).
let time = 0;
const event = (input: EventInput & { id: string }): Event => createEvent({ timestamp: ++time, ...input });
const user = (id: string, inv: string, text = id): Event =>
  event({ id, author: 'user', invocationId: inv, content: { role: 'user', parts: [{ text }] } });
const call = (id: string, inv: string, callIds: string[], branch?: string): Event =>
  event({
    id,
    author: 'a',
    invocationId: inv,
    ...(branch === undefined ? {} : { branch }),
    content: { role: 'model', parts: callIds.map((callId) => ({ functionCall: { id: callId, name: 'f', args: {} } })) },
  });
const answer = (
  id: string,
  inv: string,
  callIds: string[],
  branch?: string,
  response: Record<string, unknown> = { ok: true },
): Event =>
  event({
    id,
    author: 'a',
    invocationId: inv,
    ...(branch === undefined ? {} : { branch }),
    content: {
      role: 'user',
      parts: callIds.map((callId) => ({ functionResponse: { id: callId, name: 'f', response } })),
    },
  });
const text = (id: string, inv: string): Event =>
  event({ id, author: 'a', invocationId: inv, content: { role: 'model', parts: [{ text: id }] } });
const unanswered = (events: readonly Event[]) =>
  findUnansweredCalls(events).map(({ event: found, calls }) => `${found.id}:${calls.map((item) => item.id).join(',')}`);
const contents = (events: readonly Event[], view: 'exact' | 'adk') =>
  buildContents(events, {
    agentName: 'a',
    branch: undefined,
    preserveFunctionCallIds: true,
    embed: pythonStr,
    compactionView: view,
  });

describe('which calls are unanswered', () => {
  it('pairs by id on the call’s branch; leaves out calls without ids, calls waiting for a person and rewound invocations', () => {
    const events = [
      user('u1', 'i1'),
      call('m1', 'i1', ['p', 'q'], 'par.left'),
      answer('r1', 'i1', ['p'], 'par.right'),
      answer('r2', 'i1', ['q'], 'par'),
      event({
        id: 'm2',
        author: 'a',
        invocationId: 'i1',
        content: {
          role: 'model',
          parts: [
            { functionCall: { name: 'f', args: {} } },
            { functionCall: { id: 'ask', name: 'adk_request_confirmation', args: {} } },
          ],
        },
      }),
      user('u2', 'i2'),
      call('m3', 'i2', ['gone']),
      event({ id: 'rw', author: 'user', invocationId: 'i3', actions: { rewindBeforeInvocationId: 'i2' } }),
      call('m4', 'i3', ['open']),
    ];
    // `p` was answered on a sibling branch only; `q` on an ancestor. The rewound call `gone` is out of view.
    expect(unanswered(events)).toEqual(['m1:p', 'm4:open']);
    expect(findUnansweredCalls(events, new Set(['open'])).map((found) => found.event.id)).toEqual(['m1']);
  });
});

describe('compaction past calls a stopped run left open', () => {
  it('a call is abandoned once a later turn began; the call of the last turn is still pending', () => {
    const running = [user('u1', 'i1'), call('m1', 'i1', ['c1'])];
    expect([...abandonedCalls(running)]).toEqual([]);
    expect([...abandonedCalls([...running, user('u2', 'i2')])]).toEqual(['c1']);
    expect([...abandonedCalls([...running, user('u2', 'i2'), answer('r1', 'i1', ['c1'])])]).toEqual([]);
  });

  it('the token trigger keeps compacting after the interrupted answer of a call it already summarized arrives', () => {
    const trigger = { tokenThreshold: 1, eventRetentionSize: 2 };
    const events: Event[] = [
      user('u1', 'i1'),
      call('m1', 'i1', ['c1']),
      user('u2', 'i2'),
      text('t2', 'i2'),
      user('u3', 'i3'),
      text('t3', 'i3'),
    ];
    const first = planTokenCompaction(events, trigger, { promptTokens: 10 });
    expect(first?.eventIds).toEqual(['u1', 'm1', 'u2', 't2']);
    events.push(
      compactionEvent(
        first as NonNullable<typeof first>,
        { content: { role: 'model', parts: [{ text: 'summary' }] } },
        'i3',
        { now: () => ++time, newId: () => 'c-1' },
      ),
    );
    // The next run answers the call as interrupted, then its turn goes on.
    events.push(answer('r1', 'i1', ['c1'], undefined, { error: 'interrupted: …' }), user('u4', 'i4'), text('t4', 'i4'));
    // The answer is among the retained events; its call is in a summary already, so it holds nothing back.
    expect(
      planTokenCompaction(events, { tokenThreshold: 1, eventRetentionSize: 3 }, { promptTokens: 10 })?.events.map(
        (item) => item.id,
      ),
    ).toEqual(['u3', 't3']);
    events.push(user('u5', 'i5'), text('t5', 'i5'));
    const second = planTokenCompaction(events, trigger, { promptTokens: 10 });
    expect(second?.events.map((item) => item.id)).toEqual(['u3', 't3', 'r1', 'u4', 't4']);
    // In the request, the answer goes with its call, into the summary: no response without its call, even as the last event.
    const messages = contents(events.slice(0, 8), 'exact');
    expect(messages.flatMap(({ message }) => message.content).some((part) => 'functionResponse' in part)).toBe(false);
    expect(() => contents(events.slice(0, 8), 'adk')).toThrow(
      /No function call event found for function responses ids/,
    );
  });
});

describe('requests never hold a call without its result', () => {
  const options = {
    agentName: 'a',
    branch: undefined,
    preserveFunctionCallIds: true,
    embed: pythonStr,
    answerAbandonedCalls: true,
  };
  const shape = (events: readonly Event[]) =>
    buildContents(events, options).map(
      ({ message }) =>
        `${message.role}: ${message.content.map((part) => ('text' in part ? part.text : 'functionCall' in part ? `call ${part.functionCall.id}` : 'functionResponse' in part ? `${JSON.stringify(part.functionResponse.response) === JSON.stringify({ error: INTERRUPTED_CALL_ERROR }) ? 'interrupted' : 'result'} ${part.functionResponse.id}` : '?')).join(', ')}`,
    );

  it('a call a later turn moved on from is shown answered as interrupted, merged with the results its neighbours got', () => {
    const events = [user('u1', 'i1'), call('m1', 'i1', ['p', 'q']), answer('r1', 'i1', ['p']), user('u2', 'i2')];
    expect(shape(events)).toEqual(['user: u1', 'model: call p, call q', 'user: result p, interrupted q', 'user: u2']);
    // Still the running turn's call: left as it is (its run answers it); ADK's rules never add anything.
    expect(shape(events.slice(0, 3))).toEqual(['user: u1', 'model: call p, call q', 'user: result p']);
    expect(
      buildContents(events, { ...options, answerAbandonedCalls: false }).map(({ message }) => message.content.length),
    ).toEqual([1, 2, 1, 1]);
  });

  it('the contents cache gives what a full build gives when a call becomes abandoned, and when its answer is stored', () => {
    const cache = new ContentsCache();
    const events: Event[] = [user('u1', 'i1'), call('m1', 'i1', ['c'])];
    const same = () => expect(cache.build(events, options, 'python')).toEqual(buildContents(events, options));
    same();
    events.push(user('u2', 'i2'));
    same();
    events.push(
      text('t2', 'i2'),
      answer('r1', 'i1', ['c'], undefined, { error: INTERRUPTED_CALL_ERROR }),
      user('u3', 'i3'),
    );
    same();
    expect(shape(events)).toEqual([
      'user: u1',
      'model: call c',
      'user: interrupted c',
      'user: u2',
      'model: t2',
      'user: u3',
    ]);
  });
});
