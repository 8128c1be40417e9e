import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Part } from '../../contracts/content.js';
import type { Event } from '../../contracts/event.js';
import { propertyRuns } from '../../../test/support/property-runs.js';
import { UnansweredIndex, findUnansweredCalls, type UnansweredCalls } from './unanswered-calls.js';

// The rule read the plain way, the whole history at once: the oracle the incremental index must agree with.
function reference(events: readonly Event[], answered: ReadonlySet<string>): UnansweredCalls[] {
  const related = (a: string | undefined, b: string | undefined) =>
    a === undefined ||
    a === '' ||
    b === undefined ||
    b === '' ||
    a === b ||
    a.startsWith(`${b}.`) ||
    b.startsWith(`${a}.`);
  const waiting = new Set<string>();
  const responses: { id: string; index: number; branch: string | undefined }[] = [];
  const hidden = new Set<number>();
  events.forEach((event, index) => {
    for (const id of Object.keys({
      ...event.actions.requestedToolConfirmations,
      ...event.actions.requestedAuthConfigs,
    }))
      waiting.add(id);
    for (const part of event.content?.parts ?? [])
      if ('functionResponse' in part && part.functionResponse.id !== undefined)
        responses.push({ id: part.functionResponse.id, index, branch: event.branch });
    const target = event.actions.rewindBeforeInvocationId;
    if (target !== undefined) {
      const first = events.findIndex((candidate) => candidate.invocationId === target);
      for (let at = first === -1 ? index : first; at <= index; at++) hidden.add(at);
    }
  });
  const found: UnansweredCalls[] = [];
  events.forEach((event, index) => {
    if (event.author === 'user' || event.partial === true || event.content?.role !== 'model' || hidden.has(index))
      return;
    const calls = event.content.parts.flatMap((part) => {
      if (!('functionCall' in part)) return [];
      const call = part.functionCall;
      if (
        call.id === undefined ||
        call.id === '' ||
        ['adk_framework', 'adk_request_credential', 'adk_request_confirmation'].includes(call.name) ||
        waiting.has(call.id) ||
        answered.has(call.id)
      )
        return [];
      return responses.some(
        (response) => response.id === call.id && response.index > index && related(event.branch, response.branch),
      )
        ? []
        : [call];
    });
    if (calls.length > 0) found.push({ event, calls });
  });
  return found;
}

const ids = ['a', 'b', 'c', 'd', ''];
const part = fc.oneof(
  fc
    .record({
      functionCall: fc.record({
        id: fc.option(fc.constantFrom(...ids), { nil: undefined }),
        name: fc.constantFrom('f', 'g', 'adk_request_confirmation'),
        args: fc.constant({}),
      }),
    })
    .map((value) => {
      const { id, ...rest } = value.functionCall;
      return { functionCall: id === undefined ? rest : { ...rest, id } } as Part;
    }),
  fc.record({
    functionResponse: fc.record({ id: fc.constantFrom(...ids), name: fc.constant('f'), response: fc.constant({}) }),
  }) as fc.Arbitrary<Part>,
  fc.constant({ text: 'hm' } as Part),
);
const event = fc
  .record({
    author: fc.constantFrom('agent', 'user'),
    role: fc.constantFrom('model', 'user'),
    invocation: fc.constantFrom('i1', 'i2', 'i3', 'i4'),
    branch: fc.option(fc.constantFrom('', 'x', 'x.y', 'z'), { nil: undefined }),
    parts: fc.array(part, { maxLength: 3 }),
    partial: fc.boolean(),
    rewind: fc.option(fc.constantFrom('i1', 'i2', 'i3', 'i4'), { nil: undefined, freq: 8 }),
    confirm: fc.option(fc.constantFrom(...ids), { nil: undefined, freq: 8 }),
  })
  .map(
    (drawn): Omit<Event, 'id'> => ({
      invocationId: drawn.invocation,
      author: drawn.author,
      timestamp: 1,
      ...(drawn.branch === undefined ? {} : { branch: drawn.branch }),
      ...(drawn.partial ? { partial: true } : {}),
      content: { role: drawn.role as 'model' | 'user', parts: drawn.parts },
      actions: {
        stateDelta: {},
        artifactDelta: {},
        ...(drawn.rewind === undefined ? {} : { rewindBeforeInvocationId: drawn.rewind }),
        ...(drawn.confirm === undefined ? {} : { requestedToolConfirmations: { [drawn.confirm]: { hint: '' } } }),
      },
    }),
  );
const history = fc
  .array(event, { maxLength: 24 })
  .map((drawn) => drawn.map((each, index) => ({ ...each, id: `e${index}` }) as Event));

describe('UnansweredIndex', () => {
  it('agrees with the whole-history rule after every event, read as the session grows', () => {
    fc.assert(
      fc.property(history, fc.subarray(ids), (events, answeredIds) => {
        const answered = new Set(answeredIds);
        const index = new UnansweredIndex();
        for (let length = 0; length <= events.length; length++) {
          const prefix = events.slice(0, length);
          expect(index.find(prefix, answered)).toEqual(reference(prefix, answered));
        }
        expect(findUnansweredCalls(events, answered)).toEqual(reference(events, answered));
      }),
      propertyRuns(400),
    );
  });

  it('reads a different history from the start (a session loaded anew)', () => {
    fc.assert(
      fc.property(history, history, (first, second) => {
        const index = new UnansweredIndex();
        index.find(first);
        const renamed = second.map((each) => ({ ...each, id: `other-${each.id}` }));
        expect(index.find(renamed)).toEqual(reference(renamed, new Set()));
      }),
      propertyRuns(200),
    );
  });
});
