import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ModelCallLog } from '../../src/contracts/model-call-log.js';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { isModelCallLog } from '../../src/engine/session/call-log-of.js';
import { createInMemoryModelCallLog } from '../../src/engine/session/in-memory-call-log.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { testSessionStore } from '../../src/testing/conformance/index.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { api, parseSse, resources } from '../server/helpers.js';
import { sessionOnly } from '../support/session-only.js';

// A store that keeps sessions and no model calls (issue 45, part 2): the runner, agentctx's HTTP API, ADK's and the
// inspector work with it, recording calls nowhere or in a log of their own.

const res = resources();
const dirs: string[] = [];
const opened: SessionStore[] = [];
afterAll(async () => {
  await res.cleanup();
  for (const store of opened.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function sqliteSessionsOnly(): Promise<SessionStore> {
  const dir = await mkdtemp(join(tmpdir(), 'agentctx-session-only-'));
  dirs.push(dir);
  const store = sessionOnly(createSqliteSessionStore({ path: join(dir, 'agentctx.db') }));
  opened.push(store);
  return store;
}

const kinds: [string, () => Promise<SessionStore>][] = [
  ['a test double with only the session methods', async () => sessionOnly(createInMemorySessionStore(), 'double')],
  ['the SQLite store with its call log hidden', sqliteSessionsOnly],
];

testSessionStore({ name: 'memory, sessions only', create: (clock) => sessionOnly(createInMemorySessionStore(clock)) });

/** An agent that calls its tool once, then answers: two model calls a turn. */
function lookupRunner(sessions: SessionStore, calls?: ModelCallLog | false) {
  const lookup = functionTool<{ q: string }>({
    name: 'lookup',
    description: 'Looks a word up.',
    jsonSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    execute: async (args, context) => {
      context.state.set('looked_up', args.q);
      return { meaning: `${args.q} means hello` };
    },
  });
  const model = createScriptedModel({
    rules: [
      {
        when: (request) => JSON.stringify(request.messages.at(-1)).includes('"functionResponse"'),
        respond: { text: 'It means hello.' },
      },
      { respond: { functionCall: { name: 'lookup', args: { q: 'ciao' } } } },
    ],
  });
  const agents = llmAgent({ name: 'glossary', instruction: 'Look words up.', tools: [lookup] });
  return createRunner({ agents, sessions, model, telemetry: undefined, ...(calls === undefined ? {} : { calls }) });
}

async function turn(runner: ReturnType<typeof lookupRunner>, sessionId: string, message = 'What is ciao?') {
  const events = [];
  for await (const event of runner.run({ userId: 'u1', sessionId, message })) events.push(event);
  return events;
}

describe.each(kinds)('a session-only store: %s', (_label, open) => {
  it('is not a call log, and runs turns with calls recorded nowhere', async () => {
    const sessions = await open();
    expect(isModelCallLog(sessions)).toBe(false);
    const runner = lookupRunner(sessions);
    expect(runner.calls).toBeUndefined();
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    const events = await turn(runner, 's1');
    expect(events.map((event) => event.author)).toEqual(['user', 'glossary', 'glossary', 'glossary']);
    expect(events.at(-1)?.content?.parts).toEqual([{ text: 'It means hello.' }]);
    const stored = await sessions.getSession({ appName: 'glossary', userId: 'u1', sessionId: 's1' });
    expect(stored?.events.map((event) => event.id)).toEqual(events.map((event) => event.id));
    expect(stored?.state).toEqual({ looked_up: 'ciao' });
    // A second turn sees the first.
    await turn(runner, 's1', 'And again?');
    expect((await sessions.getSession({ appName: 'glossary', userId: 'u1', sessionId: 's1' }))?.events).toHaveLength(8);
  });

  it('records calls in a log of their own, which the runner empties when it deletes the session', async () => {
    const sessions = await open();
    const log = createInMemoryModelCallLog();
    const runner = lookupRunner(sessions, log);
    expect(runner.calls).toBe(log);
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    const events = await turn(runner, 's1');
    const key = { appName: 'glossary', userId: 'u1', sessionId: 's1' };
    const calls = await log.listModelCalls(key);
    expect(calls.map((call) => [call.index, call.status, call.responseEventId])).toEqual([
      [1, 'answered', events[1]?.id],
      [2, 'answered', events[3]?.id],
    ]);
    expect((await log.getModelCall({ ...key, index: 2 }))?.request.messages.at(-1)?.content[0]).toMatchObject({
      functionResponse: { name: 'lookup' },
    });
    await runner.deleteSession({ userId: 'u1', sessionId: 's1' });
    expect(await sessions.getSession(key)).toBeUndefined();
    expect(await log.listModelCalls(key)).toEqual([]);
  });

  it("serves agentctx's HTTP API: turns run, events are served, calls listed from the log or as none", async () => {
    for (const calls of [undefined, createInMemoryModelCallLog()]) {
      const runner = lookupRunner(await open(), calls);
      const client = api((await res.serve({ runner })).url);
      const path = '/apps/glossary/users/u1/sessions';
      expect((await client.post(path, { sessionId: 's1' })).status).toBe(201);
      const frames = parseSse(await (await client.run(`${path}/s1`, { message: 'What is ciao?' })).text());
      expect(frames.at(-1)).toEqual({ event: 'done', data: { events: 4 } });
      expect((await client.get(`${path}/s1/events`)).json.revision).toBe(4);
      const listed = (await client.get(`${path}/s1/calls`)).json.calls as { index: number }[];
      expect(listed.map((call) => call.index)).toEqual(calls === undefined ? [] : [1, 2]);
      const first = await client.get(`${path}/s1/calls/1`);
      expect(first.status).toBe(calls === undefined ? 404 : 200);
      if (calls === undefined) expect(first.json.error.message).toBe('Session s1 has no call 1; it has 0.');
      expect((await client.delete(`${path}/s1`)).status).toBe(204);
      expect((await client.get(`${path}/s1`)).status).toBe(404);
      if (calls !== undefined)
        expect(await calls.listModelCalls({ appName: 'glossary', userId: 'u1', sessionId: 's1' })).toEqual([]);
    }
  });

  it("serves ADK's HTTP API: /run answers, and the trace routes read the log", async () => {
    const log = createInMemoryModelCallLog();
    const server = createAdkServer({ runners: [lookupRunner(await open(), log)], onError: () => undefined });
    const { url } = await server.listen(0);
    try {
      const client = api(url);
      expect((await client.post('/apps/glossary/users/u1/sessions/s1', {})).status).toBe(200);
      const ran = await client.post('/run', {
        appName: 'glossary',
        userId: 'u1',
        sessionId: 's1',
        newMessage: { role: 'user', parts: [{ text: 'What is ciao?' }] },
      });
      expect(ran.status).toBe(200);
      expect((ran.json as { author: string }[]).map((event) => event.author)).toEqual([
        'glossary',
        'glossary',
        'glossary',
      ]);
      const traced = await client.get('/debug/trace/session/s1');
      expect(traced.status).toBe(200);
      expect((traced.json as { name: string }[]).filter((span) => span.name === 'call_llm')).toHaveLength(2);
      expect((await client.delete('/apps/glossary/users/u1/sessions/s1')).status).toBe(200);
      expect(await log.listModelCalls({ appName: 'glossary', userId: 'u1', sessionId: 's1' })).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('shows its sessions in the inspector, with the calls of the log it is given or none', async () => {
    const sessions = await open();
    const log = createInMemoryModelCallLog();
    const runner = lookupRunner(sessions, log);
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    await turn(runner, 's1');
    const session = '/api/apps/glossary/users/u1/sessions/s1';
    for (const [callLog, count] of [
      [log, 2],
      [undefined, 0],
    ] as const) {
      const app = createInspectorApp({
        store: sessions,
        ...(callLog === undefined ? {} : { callLog }),
        onError: (error) => {
          throw error;
        },
      });
      const got = await app.request(`http://127.0.0.1${session}`);
      expect(got.status).toBe(200);
      expect(((await got.json()) as { calls: unknown[] }).calls).toHaveLength(count);
      expect((await app.request(`http://127.0.0.1${session}/calls/1`)).status).toBe(count === 0 ? 404 : 200);
    }
  });
});
