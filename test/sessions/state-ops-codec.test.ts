import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import type { Event } from '../../src/contracts/event.js';
import type { StateOp } from '../../src/contracts/state-op.js';
import { createEvent } from '../../src/engine/session/create-event.js';
import { parseEvent } from '../../src/engine/session/decode-event.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { eventToJson } from '../../src/engine/session/session-json.js';
import { toAdkEvent } from '../../src/server/adk/adk-json.js';
import { event as anyEvent } from '../reliability/arbitraries.js';
import { propertyRuns } from '../support/property-runs.js';

// An event's `stateOps` through the JSON form: written in a fixed key order, read back exactly, refused field by field.
const key = fc.oneof(fc.constantFrom('n', 'user:n', 'app:log', 'temp:x'), fc.stringMatching(/^[a-z]{1,6}$/));
const json = fc.jsonValue({ maxDepth: 2 }).map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const stateOp: fc.Arbitrary<StateOp> = fc.oneof(
  fc.record({
    op: fc.constant('add' as const),
    key,
    by: fc.double({ noNaN: true, noDefaultInfinity: true }).map((by) => (by === 0 ? 0 : by)),
  }),
  fc.record({ op: fc.constant('append' as const), key, items: fc.array(json, { maxLength: 3 }) }),
  fc.record({
    op: fc.constant('setField' as const),
    key,
    field: fc.string({ maxLength: 5 }).filter((field) => field !== '__proto__'),
    value: json,
  }),
  fc.record({ op: fc.constant('addToSet' as const), key, items: fc.array(json, { maxLength: 3 }) }),
);
const withOps = fc
  .tuple(anyEvent, fc.array(stateOp, { minLength: 1, maxLength: 4 }))
  .map(([event, stateOps]): Event => ({ ...event, actions: { ...event.actions, stateOps } }));

function refusal(value: unknown): string[] {
  try {
    parseEvent(value);
  } catch (error) {
    if (error instanceof ValidationError) return error.issues.map((issue) => `${issue.path}: ${issue.message}`);
    throw error;
  }
  return [];
}

describe('stateOps in the JSON form of events', () => {
  it('writes them after stateDelta, each operation as op, key, then its arguments, and reads them back exactly', () => {
    fc.assert(
      fc.property(withOps, (event) => {
        const json = eventToJson(event);
        expect(Object.keys(json.actions).slice(0, 3)).toEqual(['stateDelta', 'stateOps', 'artifactDelta']);
        for (const op of json.actions.stateOps ?? []) expect(Object.keys(op).slice(0, 2)).toEqual(['op', 'key']);
        const text = JSON.stringify(json);
        expect(JSON.stringify(eventToJson(parseEvent(JSON.parse(text))))).toBe(text);
        expect(parseEvent(JSON.parse(text)).actions.stateOps).toEqual(
          JSON.parse(JSON.stringify(event.actions.stateOps)),
        );
      }),
      propertyRuns(200),
    );
  });

  it('leaves an empty list out, and ADK’s form of the event leaves them out altogether', () => {
    const event = createEvent({ author: 'a', actions: { stateDelta: {}, stateOps: [] } });
    expect(Object.keys(eventToJson(event).actions)).toEqual(['stateDelta', 'artifactDelta']);
    expect(parseEvent({ id: 'e', author: 'a', timestamp: 1, actions: { stateOps: [] } }).actions).toEqual({
      stateDelta: {},
      artifactDelta: {},
    });
    const withAdd = createEvent({
      author: 'a',
      actions: { stateDelta: {}, stateOps: [{ op: 'add', key: 'user:n', by: 1 }] },
    });
    expect(toAdkEvent(withAdd).actions).not.toHaveProperty('stateOps');
  });

  it('refuses a bad operation naming its field', () => {
    const event = (stateOps: unknown) => ({ id: 'e', author: 'a', timestamp: 1, actions: { stateOps } });
    expect(refusal(event({}))).toEqual(['actions.stateOps: expected a list, got an object']);
    expect(
      refusal(
        event([
          'add',
          { op: 'inc', key: 'n' },
          { op: 'add', key: 'n', by: '1' },
          { op: 'add', key: 'n', by: null },
          { op: 'append', key: 'user:__proto__', items: [] },
          { op: 'append', key: 'l', items: 'x' },
          { op: 'setField', key: 'o', field: '__proto__', value: 1 },
          { op: 'setField', key: 'o', field: 'a\u0000' },
          { op: 'addToSet', key: 7, items: [] },
        ]),
      ),
    ).toEqual([
      'actions.stateOps[0]: must be a state operation ({ op, key, … })',
      'actions.stateOps[1].op: must be one of add, append, setField, addToSet',
      'actions.stateOps[2].by: must be a finite number',
      'actions.stateOps[3].by: must be a finite number',
      'actions.stateOps[4].key: is not a usable state key (it would replace the state object’s prototype); choose another name',
      'actions.stateOps[5].items: must be a list of values',
      'actions.stateOps[6].field: is not a usable field name (it would replace the object’s prototype)',
      'actions.stateOps[7].field: contains a NUL character (\\u0000) at index 1',
      'actions.stateOps[7].value: is required (use null for no value)',
      'actions.stateOps[8].key: must be a state key (a string)',
    ]);
  });

  it('is refused by a store before anything is written, naming the field', async () => {
    const store = createInMemorySessionStore();
    const session = await store.createSession({ appName: 'app', userId: 'u' });
    const bad = createEvent({
      author: 'a',
      actions: { stateDelta: { n: 1 }, stateOps: [{ op: 'add', key: 'n', by: Number.POSITIVE_INFINITY }] },
    });
    const error = await store.appendEvent({ session, event: bad }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { path: 'event.actions.stateOps[0].by', message: 'must be a finite number' },
    ]);
    expect([session.revision, session.state]).toEqual([0, {}]);
  });
});
