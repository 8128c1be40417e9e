import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { expect } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { Event } from '../../src/contracts/event.js';
import type { Message } from '../../src/contracts/request.js';
import type { Source } from '../../src/contracts/source.js';
import { parseEvent, parseEvents } from '../../src/engine/session/decode-event.js';
import { eventToJson, parseSession, sessionToJson } from '../../src/engine/session/session-json.js';
import { createSqliteSessionStore, type SqlSessionStore } from '../../src/stores/sqlite/index.js';
import { content, event, events } from '../reliability/arbitraries.js';
import { defineRows } from '../reliability/rows.js';
import { scratch } from '../reliability/support.js';
import {
  ACTION_KEYS,
  EVENT_KEYS,
  EVENT_VECTORS,
  expectKeyOrder,
  expectVerdict,
  plain,
  replacement,
  reversedKeys,
  SESSION_KEYS,
} from '../support/codec-oracle.js';
import { propertyRuns } from '../support/property-runs.js';

// Part 2, the store codecs: the JSON form of events and sessions, and what the SQL store writes and reads back
// (events, state rows, model calls stored as differences from the previous call). Every expectation comes from the
// generated value or from hand-written rules and vectors (test/support/codec-oracle.ts), never from the codec itself.
const tmp = scratch();
const databases = new Map<string, Promise<string>>();
/** One SQLite file per row, made once (a fresh file per run would spend the run on migrations). */
const databaseFor = (row: string): Promise<string> => {
  const path = databases.get(row) ?? tmp.dir().then((dir) => join(dir, `${row}.db`));
  databases.set(row, path);
  return path;
};
let runs = 0;
/** A key of its own for each property run: its `app:` and `user:` state are shared with no other run. */
const freshKey = () => ((runs += 1), { appName: `a${runs}`, userId: `u${runs}`, sessionId: 's' });

/** Throws what `run` throws unless it is an agentctx error: garbage must be refused, never crash the reader. */
function onlyTypedErrors(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    if (!AgentctxError.isInstance(error)) throw error;
  }
}

/** The documented key order of an event's JSON form, its actions' too. */
function expectEventForm(json: Event, what: string): void {
  expectKeyOrder(json, EVENT_KEYS, what);
  expectKeyOrder(json.actions, ACTION_KEYS, `${what}.actions`);
}

// Generated state keys may be anything but the one no plain object can hold as its own.
const stateKey = fc.string({ maxLength: 6 }).filter((key) => key !== '__proto__');

export const rows = defineRows(
  import.meta.url,
  'fuzzing',
  [
    {
      id: 'fuzz.codec.event-roundtrip',
      entry: 'store codecs',
      tried:
        "random events (every part kind and optional field, tricky text), their keys in any order, written as JSON and read back; hand-written vectors (every field, the fewest, ADK's form)",
      expected:
        '`eventToJson` keeps exactly the generated fields, in the documented key order whatever the input order; `parseEvent` of the JSON text gives the generated event back; each vector comes back as its exact canonical bytes',
      run: () => {
        for (const vector of EVENT_VECTORS) {
          const once = JSON.stringify(eventToJson(parseEvent(JSON.parse(vector.text))));
          expect(once, vector.name).toBe(vector.canonical);
          expect(JSON.stringify(eventToJson(parseEvent(JSON.parse(once)))), vector.name).toBe(vector.canonical);
        }
        fc.assert(
          fc.property(event, (value) => {
            const text = JSON.stringify(value);
            const expected = JSON.parse(text) as Event;
            const written = eventToJson(value);
            expect(plain(written)).toEqual(expected);
            expectEventForm(written, 'eventToJson');
            expect(JSON.stringify(eventToJson(reversedKeys(value)))).toBe(JSON.stringify(written));
            expect(parseEvent(JSON.parse(text))).toEqual(expected);
          }),
          propertyRuns(300),
        );
      },
    },
    {
      id: 'fuzz.codec.garbage',
      entry: 'store codecs',
      tried:
        'valid events with one field replaced by any JSON value or a hand-judged near miss (empty ids, negative times, bad roles, fractional counts…), and arbitrary values as event lists and sessions',
      expected:
        "each replacement is refused with a ValidationError naming that field, or read back exactly, as the format's rules say; nothing but a ValidationError is ever thrown",
      run: () =>
        fc.assert(
          fc.property(
            event,
            replacement,
            fc.anything({ maxDepth: 3 }),
            (value, { field, value: swapped, verdict }, anything) => {
              const valid = plain(value) as unknown as Record<string, unknown>;
              const broken = { ...valid, [field]: swapped };
              expectVerdict(() => parseEvent(broken), valid, field, verdict);
              onlyTypedErrors(() => parseEvents([broken, anything]));
              onlyTypedErrors(() =>
                parseSession({ appName: 'a', userId: 'u', id: 's', events: [broken], state: anything }),
              );
              onlyTypedErrors(() => parseSession(anything));
            },
          ),
          propertyRuns(600),
        ),
    },
    {
      id: 'fuzz.codec.session-roundtrip',
      entry: 'store codecs',
      tried:
        'random sessions (state of any JSON, events, any revision and time) written by `sessionToJson` and read by `parseSession`',
      expected:
        'the JSON is the generated session with `schemaVersion: 1`, keys in the documented order; reading it gives the generated session back; without `revision` it is the number of events',
      run: () =>
        fc.assert(
          fc.property(
            events(6),
            fc.dictionary(stateKey, fc.jsonValue({ maxDepth: 2 })),
            fc.nat(),
            fc.integer({ min: 0, max: 2e9 }),
            (list, state, revision, time) => {
              const generated = plain({
                appName: 'a',
                userId: 'u',
                id: 's',
                state,
                events: list,
                lastUpdateTime: time / 1000,
                revision,
              });
              const written = sessionToJson(generated);
              // The JSON form, built by hand from the generated session.
              const expected = { schemaVersion: 1, ...generated };
              expect(plain(written)).toEqual(expected);
              expectKeyOrder(written, SESSION_KEYS, 'sessionToJson');
              written.events.forEach((item, index) => expectEventForm(item, `events[${index}]`));
              expect(parseSession(JSON.parse(JSON.stringify(expected)))).toEqual(generated);
              const { revision: _revision, schemaVersion: _version, ...bare } = expected;
              expect(parseSession(plain(bare))).toEqual({ ...generated, revision: list.length });
            },
          ),
          propertyRuns(200),
        ),
    },
    {
      id: 'fuzz.codec.sqlite-events',
      entry: 'store codecs',
      tried:
        'random events (with `temp:` keys added) appended to a SQLite file, then read by a new store on that file, whole and as windows',
      expected:
        'each event comes back as generated (minus `temp:` keys), from `appendEvent` and from the file; state is the deltas folded in order (no `temp:` key); revision = events; a window is the last N',
      run: async () =>
        fc.assert(
          fc.asyncProperty(events(8), fc.nat({ max: 9 }), async (list, window) => {
            const path = await databaseFor('events');
            const key = freshKey();
            const withTemp = list.map((item, index) => ({
              ...item,
              partial: false,
              actions: { ...item.actions, stateDelta: { ...item.actions.stateDelta, [`temp:t${index % 2}`]: index } },
            }));
            // The oracle: the generated events as plain JSON, `temp:` keys out, and their deltas folded by hand.
            const expected = list.map((item) => plain({ ...item, partial: false }));
            const state: Record<string, unknown> = { 'app:start': 1 };
            for (const item of expected) Object.assign(state, item.actions.stateDelta);
            let writer: SqlSessionStore | undefined = createSqliteSessionStore({ path });
            try {
              const session = await writer.createSession({ ...key, state: { 'app:start': 1, 'temp:gone': true } });
              const returned = [];
              for (const item of withTemp) returned.push(await writer.appendEvent({ session, event: item }));
              expect(plain(returned)).toEqual(expected);
              await writer.close();
              writer = undefined;
              const reader = createSqliteSessionStore({ path });
              try {
                const loaded = await reader.getSession(key);
                expect(plain(loaded?.events)).toEqual(expected);
                expect(loaded?.revision).toBe(list.length);
                expect(loaded?.state).toEqual(state);
                expect(loaded?.lastUpdateTime).toBe(expected.at(-1)?.timestamp ?? loaded?.lastUpdateTime);
                const recent = await reader.getSession({ ...key, numRecentEvents: window });
                expect(plain(recent?.events)).toEqual(window === 0 ? [] : expected.slice(-window));
              } finally {
                await reader.close();
              }
            } finally {
              await writer?.close();
            }
          }),
          propertyRuns(60),
        ),
    },
    {
      id: 'fuzz.codec.model-calls',
      entry: 'store codecs',
      tried:
        'random sequences of recorded requests and wire bodies (messages reused from call to call as the runner does, so they are stored as differences) that grow, shrink, restart, change their system text, and outlive a store reopened or the session deleted and made again by another store',
      expected:
        'every call reads back exactly as recorded, through a new store on the file too; most calls are stored as differences',
      run: async () =>
        fc
          .assert(
            fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 60, size: 'medium' }), async (steps) => {
              const path = await databaseFor('calls');
              const key = freshKey();
              let store = createSqliteSessionStore({ path });
              let time = 0;
              try {
                await store.createSession(key);
                // Messages and their sources keep their identity from call to call, as in the runner.
                let messages: Message[] = [];
                let sources: Source[][] = [];
                let system = '';
                let recorded: { request: unknown; provenance: unknown; body: string }[] = [];
                for (const move of steps) {
                  if (move.kind === 'add') {
                    messages = [...messages, { role: move.value.role, content: move.value.parts }];
                    sources = [
                      ...sources,
                      move.value.parts.map(() => ({
                        kind: 'history' as const,
                        processor: 'contents',
                        agent: 'a',
                        eventIds: [`e${sources.length}`],
                      })),
                    ];
                  } else if (move.kind === 'drop') {
                    messages = messages.slice(0, Math.max(0, messages.length - move.count));
                    sources = sources.slice(0, messages.length);
                  } else if (move.kind === 'restart') [messages, sources] = [[], []];
                  else if (move.kind === 'system') system = move.system;
                  else if (move.kind === 'reopen') {
                    await store.close();
                    store = createSqliteSessionStore({ path });
                    continue;
                  } else {
                    const other = createSqliteSessionStore({ path });
                    await other.deleteSession(key);
                    await other.createSession(key);
                    await other.close();
                    recorded = [];
                    continue;
                  }
                  const request = { system, tools: [], messages, config: {} };
                  const provenance = { system: [], tools: [], messages: sources };
                  const body = JSON.stringify({ system, padding: 'x'.repeat(80), messages });
                  recorded.push(plain({ request, provenance, body }));
                  await store.recordModelCall({
                    ...key,
                    call: {
                      invocationId: 'i',
                      agent: 'a',
                      timestamp: ++time,
                      request,
                      provenance,
                      editedByCallback: false,
                      status: 'answered',
                      latencyMs: 1,
                      wire: { url: 'u', method: 'POST', body, attempts: 1 },
                    },
                  });
                }
                await store.close();
                store = createSqliteSessionStore({ path });
                for (const [index, expected] of recorded.entries()) {
                  const call = await store.getModelCall({ ...key, index: index + 1 });
                  expect(
                    { request: call?.request, provenance: call?.provenance, body: call?.wire?.body },
                    `call ${index + 1}`,
                  ).toEqual(expected);
                }
                expect(await store.getModelCall({ ...key, index: recorded.length + 1 })).toBeUndefined();
              } finally {
                await store.close();
              }
            }),
            propertyRuns(40),
          )
          .then(async () => {
            // The differences must be exercised, or the test above reads whole rows only.
            const counted = countDifferences(await databaseFor('calls'));
            expect(counted.stored / counted.calls).toBeGreaterThan(0.4);
          }),
    },
  ],
  { afterAll: () => tmp.cleanup() },
);

const step = fc.oneof(
  { weight: 6, arbitrary: content.map((value) => ({ kind: 'add' as const, value })) },
  { weight: 2, arbitrary: fc.nat({ max: 3 }).map((count) => ({ kind: 'drop' as const, count })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
  { weight: 1, arbitrary: fc.string().map((system) => ({ kind: 'system' as const, system })) },
  { weight: 1, arbitrary: fc.constantFrom({ kind: 'reopen' as const }, { kind: 'recreate' as const }) },
);

/** How many calls the file holds, and how many of them are stored as a difference from another call. */
function countDifferences(path: string): { calls: number; stored: number } {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare('SELECT count(*) AS calls, count(base_call_index) AS stored FROM agentctx_model_calls').get() as {
      calls: number;
      stored: number;
    };
  } finally {
    db.close();
  }
}
