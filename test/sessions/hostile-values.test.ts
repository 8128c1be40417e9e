import { join } from 'node:path';
import { expect } from 'vitest';
import type { NewModelCall } from '../../src/contracts/model-call.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { textArtifact } from '../../src/engine/session/artifacts.js';
import { createEvent } from '../../src/engine/session/create-event.js';
import { parseEvents } from '../../src/engine/session/decode-event.js';
import { parseSession } from '../../src/engine/session/session-json.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { findNonJson } from '../../src/engine/util/json-value.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { defineRows } from '../reliability/rows.js';
import { listModel, scratch, turn } from '../reliability/support.js';
import {
  expectRefused,
  fsArtifacts,
  nested,
  nestedJson,
  NO_POSTGRES,
  onBackends,
  type Backend,
} from './hostile-backends.js';

// Part 1: hostile values at the store boundary. One rule for identifiers (app names, user ids, session ids, event
// ids, state keys, artifact names: well-formed Unicode without NUL), one depth limit for JSON (512 levels from a
// value's own root), prototype-safe copies, and text values kept exactly by every store, checked the same way on the
// in-memory store, SQLite and PostgreSQL.
const tmp = scratch();

const LONE = ['s\ud800', 's\udfff', '\udc00\ud800'];
const NUL = 's\u0000x';
const key = { appName: 'app', userId: 'u', sessionId: 's' };

async function idsRefused({ store, reload }: Backend): Promise<void> {
  for (const bad of [...LONE, NUL]) {
    const problem = bad === NUL ? /NUL character/ : /lone surrogate \(\\u[0-9a-f]{4}\) at index \d/;
    const refused = await expectRefused(
      () => store.createSession({ appName: 'app', userId: 'u', sessionId: bad }),
      'sessionId',
      problem,
    );
    expect(refused.hint).toMatch(/well-formed Unicode text without NUL/);
    await expectRefused(() => store.createSession({ appName: 'app', userId: bad }), 'userId', problem);
    await expectRefused(() => store.createSession({ appName: bad, userId: 'u' }), 'appName', problem);
    await expectRefused(() => store.getSession({ appName: 'app', userId: 'u', sessionId: bad }), 'sessionId', problem);
    await expectRefused(() => store.listSessions({ appName: 'app', userId: bad }), 'userId', problem);
    await expectRefused(() => store.deleteSession({ appName: bad, userId: 'u', sessionId: 's' }), 'appName', problem);
    await expectRefused(() => store.listModelCalls({ appName: 'app', userId: bad, sessionId: 's' }), 'userId', problem);
  }
  const session = await store.createSession({ appName: 'app', userId: 'u', sessionId: 'ok' });
  await expectRefused(
    () => store.appendEvent({ session: { ...session, id: 's\ud800' }, event: createEvent({ author: 'user' }) }),
    'sessionId',
    /lone surrogate/,
  );
  // A pair is well-formed: an astral id is stored and found under exactly the id it was listed with.
  await store.createSession({ appName: 'app', userId: 'u', sessionId: 's😀' });
  const listed = await reload().listSessions({ appName: 'app' });
  expect(listed.map((found) => found.id).sort()).toEqual(['ok', 's😀']);
  for (const found of listed)
    expect((await reload().getSession({ appName: 'app', userId: found.userId, sessionId: found.id }))?.id).toBe(
      found.id,
    );
}

async function stateKeysRefused({ store, reload }: Backend): Promise<void> {
  const keys: [string, RegExp][] = [
    ['k\ud800', /is not a usable state key: it contains a lone surrogate/],
    ['user:k\u0000', /is not a usable state key: it contains a NUL character/],
    ['app:\udc00', /lone surrogate/],
    ['temp:\ud83d', /lone surrogate/],
    ['app:__proto__', /is not a usable state key \(it would replace/],
  ];
  for (const [bad, message] of keys) {
    const at = `[${JSON.stringify(bad)}]`;
    await expectRefused(() => store.createSession({ ...key, state: { fine: 1, [bad]: 1 } }), `state${at}`, message);
    const session = await store.createSession({ ...key, sessionId: `s-${keys.findIndex(([k]) => k === bad)}` });
    await expectRefused(
      () =>
        store.appendEvent({ session, event: createEvent({ author: 'user', actions: { stateDelta: { [bad]: 1 } } }) }),
      `event.actions.stateDelta${at}`,
      message,
    );
    expect(await reload().getSession({ ...key, sessionId: session.id })).toMatchObject({
      revision: 0,
      state: {},
      events: [],
    });
  }
  const session = await store.createSession({ ...key, sessionId: 'ids' });
  await expectRefused(
    () => store.appendEvent({ session, event: createEvent({ id: 'e\ud800', author: 'user' }) }),
    'event.id',
    /lone surrogate/,
  );
  // Through the runner too: its user message is refused before anything is written.
  const runner = createRunner({ agents: llmAgent({ name: 'app' }), model: listModel([]), sessions: store });
  await expectRefused(
    () => turn(runner, { userId: 'u', sessionId: 'ids', message: 'hi', stateDelta: { 'k\ud800': 1 } }),
    'event.actions.stateDelta["k\\ud800"]',
    /lone surrogate/,
  );
  expect((await reload().listSessions({ appName: 'app' })).map((found) => found.id).sort()).toEqual([
    'ids',
    's-0',
    's-1',
    's-2',
    's-3',
    's-4',
  ]);
  expect(await reload().getSession({ ...key, sessionId: 'ids' })).toMatchObject({ revision: 0, events: [] });
}

const ODD = {
  text: 'nul \u0000, lone \ud800 and \udfff, a pair 😀',
  nested: { 'key \u0000': ['\ud800'], 'lone \udc00 key': null },
};

async function textValuesKept({ store, reload, artifacts }: Backend): Promise<void> {
  const session = await store.createSession({ ...key, state: { odd: ODD, 'user:odd': ODD, 'app:odd': ODD } });
  const event = createEvent({
    author: 'user',
    content: { role: 'user', parts: [{ text: ODD.text }, { functionCall: { name: 'f', args: ODD } }] },
    actions: { stateDelta: { later: ODD } },
  });
  const persisted = await store.appendEvent({ session, event });
  const loaded = await reload().getSession(key);
  expect(loaded?.state).toEqual({ odd: ODD, later: ODD, 'app:odd': ODD, 'user:odd': ODD });
  expect(session.state).toEqual(loaded?.state);
  expect(JSON.stringify(loaded?.events)).toBe(JSON.stringify([persisted]));
  expect(loaded?.events[0]?.content?.parts[0]).toEqual({ text: ODD.text });
  const files = await fsArtifacts();
  try {
    for (const store of [artifacts, files.artifacts]) {
      await expectRefused(
        () => store.save({ ...key, filename: 'a.txt', artifact: textArtifact('lone \ud800') }),
        'artifact.text',
        /lone surrogate at index 5/,
      );
      await store.save({ ...key, filename: 'b.txt', artifact: textArtifact('nul \u0000 and 😀') });
      expect(await store.load({ ...key, filename: 'b.txt' })).toMatchObject({ text: 'nul \u0000 and 😀', version: 0 });
      expect(await store.list(key)).toEqual(['b.txt']);
    }
  } finally {
    await files.cleanup();
  }
}

async function depthLimited({ store, reload }: Backend): Promise<void> {
  const tooDeep = /^cannot be stored as JSON \(found more than 512 levels of nesting\)$/;
  await expectRefused(
    () => store.createSession({ ...key, state: { deep: nested(20_000) } }),
    /^state\.deep(\.a){8}…\(512 levels down\)$/,
    tooDeep,
  );
  await expectRefused(() => store.createSession({ ...key, state: { deep: nested(513) } }), /^state\.deep\.a/, tooDeep);
  // 512 levels is the limit, in a new session's state and in an event's delta and response alike.
  const session = await store.createSession({ ...key, state: { deep: nested(512) } });
  const stateDelta = { deep: nested(3_000) };
  await expectRefused(
    () => store.appendEvent({ session, event: createEvent({ author: 'user', actions: { stateDelta } }) }),
    /^event\.actions\.stateDelta\.deep(\.a){8}…\(512 levels down\)$/,
    tooDeep,
  );
  const response = (levels: number) =>
    createEvent({
      author: 'tool',
      content: {
        role: 'user',
        parts: [{ functionResponse: { name: 'f', response: nested(levels) as Record<string, unknown> } }],
      },
    });
  await expectRefused(
    () => store.appendEvent({ session, event: response(513) }),
    /^event\.content\.parts\[0\]\.functionResponse\.response\.a.*\(512 levels down\)$/,
    tooDeep,
  );
  await store.appendEvent({ session, event: response(512) });
  await store.appendEvent({
    session,
    event: createEvent({ author: 'user', actions: { stateDelta: { more: nested(512) } } }),
  });
  const loaded = await reload().getSession(key);
  expect({ revision: loaded?.revision, deep: loaded?.state['deep'], more: loaded?.state['more'] }).toEqual({
    revision: 2,
    deep: nested(512),
    more: nested(512),
  });
  // The runner: a run's delta is refused before its transaction; a tool's result too deep becomes an { error }.
  const deepTool = functionTool({
    name: 'deep',
    description: 'Returns a deep value.',
    jsonSchema: { type: 'object' },
    execute: () => nested(600) as Record<string, unknown>,
  });
  const model = listModel([{ content: { role: 'model', parts: [{ functionCall: { name: 'deep', args: {} } }] } }]);
  const runner = createRunner({ agents: llmAgent({ name: 'app', tools: [deepTool] }), model, sessions: store });
  await expectRefused(
    () => turn(runner, { userId: 'u', sessionId: 's', message: 'hi', stateDelta }),
    /^event\.actions\.stateDelta\.deep/,
    tooDeep,
  );
  expect((await reload().getSession(key))?.revision).toBe(2);
  const events = await turn(runner, { userId: 'u', sessionId: 's', message: 'go' });
  expect(events[2]?.content?.parts[0]).toMatchObject({
    functionResponse: {
      response: {
        error: expect.stringMatching(
          /^Tool 'deep' returned a value that cannot be stored as JSON \(response\.a.*found more than 512 levels of nesting\)/,
        ),
      },
    },
  });
  expect((await reload().getSession(key))?.events.at(-1)?.content?.parts).toEqual([{ text: 'done' }]);
}

const systemOf = (request: unknown) => JSON.stringify((request as LlmRequest).system);

async function protoKept({ store, reload }: Backend): Promise<void> {
  const delta = JSON.parse('{"profile": {"__proto__": {"isAdmin": true}, "name": "eve"}}') as Record<string, unknown>;
  const seen: unknown[] = [];
  const whoami = functionTool({
    name: 'whoami',
    description: 'Reads the profile.',
    jsonSchema: { type: 'object' },
    execute: (_args, context) => {
      const profile = context.state.get<Record<string, unknown>>('profile') ?? {};
      seen.push(profile['isAdmin'], Object.getPrototypeOf(profile) === Object.prototype);
      return { isAdmin: profile['isAdmin'] ?? null };
    },
  });
  const agents = llmAgent({ name: 'app', instruction: 'Profile: {profile}', tools: [whoami] });
  const first = listModel([{ content: { role: 'model', parts: [{ functionCall: { name: 'whoami', args: {} } }] } }]);
  const runner = createRunner({ agents, model: first, sessions: store });
  await runner.createSession({ userId: 'u', sessionId: 's' });
  await turn(runner, { userId: 'u', sessionId: 's', message: 'hi', stateDelta: delta });
  const again = listModel([{ content: { role: 'model', parts: [{ functionCall: { name: 'whoami', args: {} } }] } }]);
  await turn(createRunner({ agents, model: again, sessions: reload() }), {
    userId: 'u',
    sessionId: 's',
    message: 'again',
  });
  // No prototype was set anywhere: the key is an ordinary key, rendered the same before and after the reload.
  expect(seen).toEqual([undefined, true, undefined, true]);
  expect(({} as Record<string, unknown>)['isAdmin']).toBeUndefined();
  expect(systemOf(first.requests[0])).toContain('__proto__');
  expect(systemOf(again.requests[0])).toBe(systemOf(first.requests[0]));
  expect(systemOf(first.requests[1])).toBe(systemOf(first.requests[0]));
  const stored = await reload().getSession({ appName: 'app', userId: 'u', sessionId: 's' });
  const profile = stored?.state['profile'] as object;
  expect({ keys: Object.keys(profile), prototype: Object.getPrototypeOf(profile) === Object.prototype }).toEqual({
    keys: ['__proto__', 'name'],
    prototype: true,
  });
  expect(JSON.stringify(stored?.events[0]?.actions.stateDelta)).toBe(
    '{"profile":{"__proto__":{"isAdmin":true},"name":"eve"}}',
  );
}

async function callTextKept({ store, reload }: Backend): Promise<void> {
  await store.createSession(key);
  const call = (n: number): NewModelCall => ({
    invocationId: 'inv-1',
    agent: 'a',
    timestamp: 1_700_000_000 + n,
    model: { provider: 'compatible', modelId: 'm\u0000odel' },
    parent: { callIndex: 1, functionCallId: 'call-\ud800', tool: 'helper' },
    request: {
      system: `S ${ODD.text}`,
      tools: [],
      messages: [{ role: 'user', content: [{ text: ODD.text }] }],
      config: { model: 'm' },
    },
    provenance: { system: [], tools: [], messages: [[]] },
    editedByCallback: false,
  });
  await store.recordModelCall({ ...key, call: call(1) });
  await store.recordModelCall({
    ...key,
    call: { ...call(2), status: 'failed', latencyMs: 5, error: 'upstream said \u0000 and \udfff' },
  });
  await store.completeModelCall({
    ...key,
    index: 1,
    outcome: { status: 'failed', latencyMs: 7, error: 'boom \ud800\u0000 😀' },
  });
  const first = await reload().getModelCall({ ...key, index: 1 });
  const second = await reload().getModelCall({ ...key, index: 2 });
  // Free text in plain columns: lone surrogates and NUL become U+FFFD on every store; the request, JSON, is kept exactly.
  expect({ model: first?.model, parent: first?.parent, error: first?.error, second: second?.error }).toEqual({
    model: { provider: 'compatible', modelId: 'm\ufffdodel' },
    parent: { callIndex: 1, functionCallId: 'call-\ufffd', tool: 'helper' },
    error: 'boom \ufffd\ufffd 😀',
    second: 'upstream said \ufffd and \ufffd',
  });
  expect(first?.request).toEqual(call(1).request);
  expect((await reload().listModelCalls(key)).map((summary) => summary.error)).toEqual([
    'boom \ufffd\ufffd 😀',
    'upstream said \ufffd and \ufffd',
  ]);
}

const CHECKS = {
  ids: idsRefused,
  'state-keys': stateKeysRefused,
  'text-values': textValuesKept,
  depth: depthLimited,
  proto: protoKept,
  calls: callTextKept,
};

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'hostile.ids',
      entry: 'state',
      tried:
        'a lone surrogate (`s\\ud800`, `s\\udfff`, `\\udc00\\ud800`) or a NUL in an app name, user id or session id: create, get, list, append, delete, list calls (memory and SQLite)',
      expected:
        'ValidationError naming the field (`sessionId: contains a lone surrogate (\\ud800) at index 1…`) with the rule as its hint, before any lookup or write; an astral id (`s😀`) is listed and found under the same id; before the fix SQLite stored `s\\ufffd\\ufffd\\ufffd`, listed under an id `getSession` could not find',
      run: () => onBackends(['memory', 'sqlite'], CHECKS.ids),
    },
    {
      id: 'hostile.state-keys',
      entry: 'state',
      tried:
        'state keys `k\\ud800`, `user:k\\u0000`, `app:\\udc00`, `temp:\\ud83d`, `app:__proto__` in a new session’s state and an appended delta; an event id `e\\ud800`; a run whose delta has such a key',
      expected:
        'ValidationError naming the key (`state["k\\ud800"]: is not a usable state key: it contains a lone surrogate…`, `event.id`); nothing written; before the fix SQLite changed the key to `k\\ufffd\\ufffd\\ufffd` and `app:__proto__` vanished from state while its event kept it',
      run: () => onBackends(['memory', 'sqlite'], CHECKS['state-keys']),
    },
    {
      id: 'hostile.text-values',
      entry: 'state',
      tried:
        'NUL and lone surrogates inside state values, nested keys, message text and call arguments; a text artifact with a lone surrogate (memory, SQLite, files)',
      expected:
        'values are kept exactly (stored as JSON, whose escapes hold both) and read back equal after a reload on every store; the text artifact is refused on every artifact store (`artifact.text: has a lone surrogate…`: UTF-8 cannot hold it); NUL in a text artifact is kept; before the fix SQLite and the files stored U+FFFD instead',
      run: () => onBackends(['memory', 'sqlite'], CHECKS['text-values']),
    },
    {
      id: 'hostile.depth',
      entry: 'state',
      tried:
        'a 20,000-deep and a 513-deep initial state, a 3,000-deep appended delta and run `stateDelta`, a 513-deep function response, a tool returning 600 levels; 100,000 levels given to `findNonJson`',
      expected:
        'ValidationError `state.deep.a.a…(512 levels down): cannot be stored as JSON (found more than 512 levels of nesting)` before any transaction, revision unchanged; the tool’s result becomes an `{ error }` response; 512 levels are stored and read back; before the fix a RangeError from `JSON.stringify` inside the transaction',
      run: async () => {
        expect(findNonJson(nested(100_000), 'v')).toEqual({
          path: 'v.a.a.a.a.a.a.a.a…(512 levels down)',
          found: 'more than 512 levels of nesting',
        });
        await onBackends(['memory', 'sqlite'], CHECKS.depth);
      },
    },
    {
      id: 'hostile.depth-events',
      entry: 'events JSON',
      tried:
        'an events file whose call arguments nest 100,000 levels, and a session file whose state nests 600 levels and has a state key `k\\ud800`',
      expected:
        'ValidationError naming `[0].content.parts[0].functionCall.args.a…(512 levels down)`, and `state.deep…` and `state["k\\ud800"]` in one error; never a RangeError',
      run: () => {
        const events = JSON.parse(
          `[{"id": "e1", "author": "model", "timestamp": 1, "content": {"role": "model", "parts": [{"functionCall": {"name": "f", "args": ${nestedJson(100_000)}}}]}}]`,
        ) as unknown;
        expect(() => parseEvents(events)).toThrow(
          /\[0\]\.content\.parts\[0\]\.functionCall\.args\.a\.a.*…\(512 levels down\): cannot be stored as JSON \(found more than 512 levels of nesting\)/,
        );
        const session = { appName: 'a', userId: 'u', id: 's', state: { deep: nested(600), 'k\ud800': 1 }, events: [] };
        expect(() => parseSession(session)).toThrow(
          /state\["k\\ud800"\]: is not a usable state key.*state\.deep\.a.*more than 512 levels/,
        );
      },
    },
    {
      id: 'hostile.proto-nested',
      entry: 'state',
      tried:
        '`stateDelta: {"profile": {"__proto__": {"isAdmin": true}, "name": "eve"}}` (as JSON.parse makes it) in a run; a tool reads `state.get(\'profile\').isAdmin`; `{profile}` rendered before and after a reload',
      expected:
        'the tool reads `undefined` and the profile’s prototype is Object’s: `__proto__` stays an ordinary key in every copy; the request bytes are the same before and after the reload, on every store; before the fix the tool read `true`, the memory store dropped the key and SQLite rendered `{profile}` differently after a reload',
      run: () => onBackends(['memory', 'sqlite'], CHECKS.proto),
    },
    {
      id: 'hostile.call-text',
      entry: 'model response',
      tried:
        'a recorded model call whose model id, parent call id and error (as a provider or a model can send them) hold NUL and lone surrogates, and whose request holds them too',
      expected:
        'the call is recorded and completed on every store; its plain-text fields come back with U+FFFD in place of each NUL and lone surrogate, the same on every store, and its request exactly; before the fix PostgreSQL refused the write (`invalid byte sequence for encoding "UTF8": 0x00`) and SQLite changed lone surrogates its own way',
      run: () => onBackends(['memory', 'sqlite'], CHECKS.calls),
    },
    {
      id: 'hostile.http',
      entry: 'HTTP API body',
      tried:
        '`POST …/sessions {"sessionId": "\\ud800"}` (twice), a user id `a%00b` in the path, a run with a 3,000-deep `stateDelta`, a session with a 20,000-deep `state`',
      expected:
        '400 `invalid_input` naming `sessionId` (no `Location` built), `userId`, `stateDelta.deep…` and `state.deep…`; nothing written (the retry is a 400 again, not a 409; the list stays empty, the revision 0); nothing reported as unexpected, so no stack trace on stderr; before the fix a 500 from `encodeURIComponent` after the session was written',
      run: async () => {
        const { api, pipelineRunner, resources } = await import('../server/helpers.js');
        const res = resources();
        const unexpected: unknown[] = [];
        try {
          const { url } = await res.serve({
            runner: await pipelineRunner(res.sqlite(join(await tmp.dir(), 'http.db'))),
            onError: (error) => unexpected.push(error),
          });
          const client = api(url);
          const sessions = '/apps/draft_and_review/users/ann/sessions';
          for (let attempt = 0; attempt < 2; attempt++) {
            const reply = await client.post(sessions, '{"sessionId": "\\ud800"}');
            expect({
              status: reply.status,
              code: reply.json.error.code,
              path: reply.json.error.issues[0].path,
              location: reply.headers.get('location'),
            }).toEqual({ status: 400, code: 'invalid_input', path: 'sessionId', location: null });
          }
          expect((await client.get(sessions)).json.sessions).toEqual([]);
          for (const reply of [
            await client.get('/apps/draft_and_review/users/a%00b/sessions'),
            await client.post('/apps/draft_and_review/users/a%00b/sessions', {}),
          ]) {
            expect({ status: reply.status, path: reply.json.error.issues[0].path }).toEqual({
              status: 400,
              path: 'userId',
            });
          }
          await client.post(sessions, { sessionId: 'p1' });
          const deep = await client.post(
            `${sessions}/p1/run`,
            `{"message": "hi", "stateDelta": {"deep": ${nestedJson(3_000)}}}`,
          );
          expect({ status: deep.status, message: deep.json.error.message }).toEqual({
            status: 400,
            message: expect.stringMatching(/event\.actions\.stateDelta\.deep\.a.*more than 512 levels/),
          });
          expect((await client.get(`${sessions}/p1`)).json.revision).toBe(0);
          const deepState = await client.post(
            sessions,
            `{"sessionId": "p2", "state": {"deep": ${nestedJson(20_000)}}}`,
          );
          expect({ status: deepState.status, message: deepState.json.error.message }).toEqual({
            status: 400,
            message: expect.stringMatching(/state\.deep\.a.*more than 512 levels/),
          });
          expect((await client.get(sessions)).json.sessions.map((session: { id: string }) => session.id)).toEqual([
            'p1',
          ]);
          expect(unexpected).toEqual([]);
        } finally {
          await res.cleanup();
        }
      },
    },
    {
      id: 'hostile.postgres',
      entry: 'state',
      tried: 'rows `hostile.ids`, `state-keys`, `text-values`, `depth`, `proto-nested` and `call-text` on PostgreSQL',
      expected:
        'the same as on SQLite and in memory; before the fix NUL in an id or a state key failed in the driver (`invalid byte sequence for encoding "UTF8": 0x00`, HTTP 500) while SQLite accepted it',
      skip: NO_POSTGRES,
      run: async () => {
        for (const check of Object.values(CHECKS)) await onBackends(['postgres'], check);
      },
      timeout: 60_000,
    },
  ],
  { afterAll: () => tmp.cleanup() },
);
