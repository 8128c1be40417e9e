import { afterEach, describe, expect, it } from 'vitest';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { loadMemory } from '../../src/features/memory-tools/load-memory.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { resources } from '../server/helpers.js';

// agentctx's API for memory (issue 49): a session remembered (POST, and PATCH as ADK's route takes it), memories
// written directly, searched and listed, and deleted for good (one, a session's, all of a user's) with the copies
// made of them listed; every refusal a 4xx naming what is wrong.

const env = resources();
afterEach(() => env.cleanup());

async function start() {
  const dir = await env.dir();
  const sessions = createSqliteSessionStore({ path: `${dir}/sessions.db` });
  const model = createScriptedModel([
    { text: 'Noted.' },
    { functionCall: { name: 'load_memory', args: { query: 'favourite city' } } },
    { text: 'Lisbon.' },
    { text: 'Anything else?' },
  ]);
  const runner = createRunner({
    agents: llmAgent({ name: 'assistant', extensions: [loadMemory()] }),
    model,
    sessions,
    memory: sessions,
  });
  const { url } = await env.serve({ runner });
  const base = `${url}/apps/assistant/users/ann`;
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: (text === '' ? undefined : JSON.parse(text)) as any };
  };
  const turn = async (session: string, message: string) => {
    await call('POST', '/sessions', { sessionId: session });
    const response = await fetch(`${base}/sessions/${session}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message }),
    });
    await response.text();
  };
  return { call, turn, sessions, model };
}

describe('the memory routes', () => {
  it('remember, search, list and delete, with the copies a delete leaves', async () => {
    const { call, turn, model } = await start();
    await turn('s1', 'My favourite city is Lisbon.');
    expect(await call('POST', '/memory', { sessionId: 's1' })).toEqual({ status: 200, json: { remembered: 2 } });
    expect((await call('PATCH', '/memory', { session_id: 's1' })).json).toEqual({ remembered: 2 });
    const written = await call('POST', '/memory', { memories: [{ text: 'Ann is vegetarian.', author: 'user' }] });
    expect(written.status).toBe(201);
    expect(written.json.memories[0]).toMatchObject({
      author: 'user',
      content: { parts: [{ text: 'Ann is vegetarian.' }] },
    });

    const found = await call('GET', '/memory?query=favourite%20city');
    expect(found.json.memories.map((memory: any) => memory.content.parts[0].text)).toEqual([
      'My favourite city is Lisbon.',
    ]);
    expect((await call('GET', '/memory')).json.memories).toHaveLength(3);
    expect((await call('GET', '/memory?session=s1')).json.memories).toHaveLength(2);

    // A later session's load_memory result holds a copy: listed by the dry run, and left where it is.
    await turn('s2', 'What is my favourite city?');
    const dry = await call('DELETE', '/memory?session=s1&dryRun=true');
    expect(dry.json.wouldDelete).toBe(2);
    expect(dry.json.copies.map((copy: any) => [copy.kind, copy.sessionId])).toContainEqual(['event', 's2']);
    expect((await call('GET', '/memory')).json.memories).toHaveLength(3);
    const deleted = await call('DELETE', '/memory?session=s1&redact=true');
    expect(deleted.json.deleted).toBe(2);
    expect(deleted.json.erased).toEqual([{ sessionId: 's2', events: 1, calls: 1 }]);
    // The server's runner holds session 2: its next request is built from the erased events, not the held ones.
    await turn('s2', 'Thanks.');
    const next = JSON.stringify(model.requests.at(-1));
    expect(next).not.toContain('My favourite city is Lisbon.');
    expect(next).toContain('[erased ');
    expect((await call('GET', '/memory?query=favourite%20city')).json.memories).toEqual([]);

    const id = written.json.memories[0].id as string;
    expect(await call('DELETE', `/memory/${id}`)).toEqual({ status: 200, json: { deleted: 1, copies: [] } });
    expect((await call('DELETE', `/memory/${id}`)).status).toBe(404);
    expect(await call('DELETE', '/memory?all=true')).toEqual({ status: 200, json: { deleted: 0, copies: [] } });
  });

  it('refuses what it cannot do with a 4xx naming every problem', async () => {
    const { call } = await start();
    const bad = await call('POST', '/memory', { memories: [{ txt: 'x' }, { text: '' }], sessionId: 3 });
    expect(bad.status).toBe(400);
    expect(bad.json.error.issues.map((issue: any) => issue.path)).toEqual([
      'sessionId',
      'memories[0].txt',
      'memories[0]',
      'memories[1].text',
      'memories[1]',
    ]);
    expect((await call('POST', '/memory', {})).status).toBe(400);
    expect((await call('POST', '/memory', { sessionId: 'nope' })).status).toBe(404);
    expect((await call('GET', '/memory?query=a&session=s1')).status).toBe(400);
    expect((await call('GET', '/memory?query=')).status).toBe(400);
    expect((await call('DELETE', '/memory')).json.error.issues[0].message).toMatch(/name what to delete, once/);
    expect((await call('DELETE', '/memory?all=yes')).status).toBe(400);
  });
});
