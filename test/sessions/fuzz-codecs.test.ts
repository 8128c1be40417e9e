import fc from 'fast-check';
import { expect } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { Message } from '../../src/contracts/request.js';
import { parseEvent, parseEvents } from '../../src/engine/session/decode-event.js';
import { eventToJson, parseSession, sessionToJson } from '../../src/engine/session/session-json.js';
import { toStoredJson } from '../../src/engine/util/json-value.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { content, event, events } from '../reliability/arbitraries.js';
import { defineRows } from '../reliability/rows.js';
import { propertyRuns } from '../support/property-runs.js';

// Part 2, the store codecs: the JSON form of events and sessions, and what the SQL store writes and reads back
// (events, state rows, model calls stored as differences from the previous call).
const storedForm = (value: unknown) => toStoredJson(eventToJson(value as never));

/** Throws what `run` throws unless it is an agentctx error: garbage must be refused, never crash the reader. */
function onlyTypedErrors(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!AgentctxError.isInstance(error)) throw error;
  }
}

export const rows = defineRows(import.meta.url, 'fuzzing', [
  {
    id: 'fuzz.codec.event-roundtrip',
    entry: 'store codecs',
    tried: 'random events (every part kind and optional field, tricky text) written as JSON and read back',
    expected: '`parseEvent` gives back exactly the stored form, and writing it again gives the same bytes',
    run: () =>
      fc.assert(
        fc.property(event, (value) => {
          const stored = storedForm(value);
          const read = parseEvent(JSON.parse(JSON.stringify(stored)));
          expect(read).toEqual(stored);
          expect(JSON.stringify(eventToJson(read))).toBe(JSON.stringify(stored));
        }),
        propertyRuns(300),
      ),
  },
  {
    id: 'fuzz.codec.garbage',
    entry: 'store codecs',
    tried: 'valid events with one field replaced by any JSON value, and arbitrary values as event lists and sessions',
    expected: 'each is read or refused with a ValidationError; nothing else is ever thrown',
    run: () =>
      fc.assert(
        fc.property(event, fc.constantFrom('id', 'author', 'timestamp', 'content', 'actions', 'usage', 'branch', 'partial'), fc.jsonValue({ maxDepth: 3 }), fc.anything({ maxDepth: 3 }), (value, field, replacement, anything) => {
          const broken = { ...storedForm(value), [field]: replacement };
          onlyTypedErrors(() => parseEvent(broken));
          onlyTypedErrors(() => parseEvents([broken, anything]));
          onlyTypedErrors(() => parseSession({ appName: 'a', userId: 'u', id: 's', events: [broken], state: anything }));
          onlyTypedErrors(() => parseSession(anything));
        }),
        propertyRuns(300),
      ),
  },
  {
    id: 'fuzz.codec.session-roundtrip',
    entry: 'store codecs',
    tried: 'random sessions (state of any JSON, events) through `sessionToJson` and `parseSession`',
    expected: 'the same session comes back',
    run: () =>
      fc.assert(
        fc.property(events(6), fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 })), (list, state) => {
          const session = toStoredJson({ appName: 'a', userId: 'u', id: 's', state, events: list.map(eventToJson), lastUpdateTime: 7, revision: list.length });
          expect(sessionToJson(parseSession(JSON.parse(JSON.stringify(sessionToJson(session)))))).toEqual(sessionToJson(session));
        }),
        propertyRuns(200),
      ),
  },
  {
    id: 'fuzz.codec.sqlite-events',
    entry: 'store codecs',
    tried: 'random events appended to a SQLite store, then the session loaded again',
    expected: 'the events come back exactly as `appendEvent` returned them; state equals the deltas folded in order; revision = events',
    run: async () =>
      fc.assert(
        fc.asyncProperty(events(8), async (list) => {
          const store = createSqliteSessionStore({ path: ':memory:' });
          try {
            const session = await store.createSession({ appName: 'a', userId: 'u', sessionId: 's' });
            const returned = [];
            for (const item of list) returned.push(await store.appendEvent({ session, event: { ...item, partial: false } }));
            const loaded = await store.getSession({ appName: 'a', userId: 'u', sessionId: 's' });
            expect(loaded?.events).toEqual(returned);
            expect(loaded?.revision).toBe(list.length);
            const folded: Record<string, unknown> = {};
            for (const item of returned) Object.assign(folded, item.actions.stateDelta);
            expect(loaded?.state).toEqual(folded);
          } finally {
            await store.close();
          }
        }),
        propertyRuns(60),
      ),
  },
  {
    id: 'fuzz.codec.model-calls',
    entry: 'store codecs',
    tried: 'random sequences of recorded requests that grow, shrink, restart and change their system text (stored as differences)',
    expected: 'every call reads back exactly as recorded',
    run: async () =>
      fc.assert(
        fc.asyncProperty(fc.array(fc.oneof(content.map((value) => ({ kind: 'add' as const, value })), fc.nat({ max: 3 }).map((count) => ({ kind: 'drop' as const, count })), fc.constant({ kind: 'restart' as const }), fc.string().map((system) => ({ kind: 'system' as const, system }))), { minLength: 1, maxLength: 25 }), async (steps) => {
          const store = createSqliteSessionStore({ path: ':memory:' });
          const key = { appName: 'a', userId: 'u', sessionId: 's' };
          try {
            await store.createSession(key);
            let messages: Message[] = [];
            let system = '';
            const recorded: unknown[] = [];
            for (const [index, step] of steps.entries()) {
              if (step.kind === 'add') messages = [...messages, { role: step.value.role, content: step.value.parts }];
              else if (step.kind === 'drop') messages = messages.slice(0, Math.max(0, messages.length - step.count));
              else if (step.kind === 'restart') messages = [];
              else system = step.system;
              const request = { system, tools: [], messages, config: {} };
              const provenance = { system: [], tools: [], messages: messages.map((_message, at) => [{ kind: 'history' as const, processor: 'contents', agent: 'a', eventIds: [`e${at}`] }]) };
              recorded.push(toStoredJson({ request, provenance }));
              await store.recordModelCall({ ...key, call: { invocationId: `i${index}`, agent: 'a', timestamp: index, request, provenance, editedByCallback: false } });
            }
            for (const [index, expected] of recorded.entries()) {
              const call = await store.getModelCall({ ...key, index: index + 1 });
              expect({ request: call?.request, provenance: call?.provenance }).toEqual(expected);
            }
          } finally {
            await store.close();
          }
        }),
        propertyRuns(60),
      ),
  },
]);
