import { afterEach, describe, expect, it } from 'vitest';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { createInMemoryMemoryService } from '../../src/engine/memory/in-memory-memory-service.js';
import { preloadMemory } from '../../src/features/memory-tools/preload-memory.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import type { AgentctxServer } from '../../src/server/index.js';

// ADK's api_server memory route (issue 49): PATCH /apps/{app}/users/{user}/memory with { sessionId } remembers the
// session; a later session's requests then carry it (preload_memory). ADK's answers: 200 null, 400 without a memory
// service or a session id, 404 for a session that is not there.

const servers: AgentctxServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(withMemory: boolean) {
  const model = createScriptedModel([{ text: 'Noted.' }, { text: 'In Lisbon.' }]);
  const runner = createRunner({
    agents: llmAgent({ name: 'assistant', extensions: [preloadMemory()] }),
    model,
    sessions: createInMemorySessionStore(),
    ...(withMemory ? { memory: createInMemoryMemoryService() } : {}),
  });
  const server = createAdkServer({ runners: [runner], version: 'test', onError: (error) => void error });
  servers.push(server);
  const { url } = await server.listen(0);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, json: (await response.json()) as unknown };
  };
  return { call, model };
}

describe('PATCH /apps/{app}/users/{user}/memory', () => {
  it('remembers a session, and a later session’s request carries it', async () => {
    const { call, model } = await start(true);
    await call('POST', '/apps/assistant/users/u1/sessions/s1', {});
    await call('POST', '/run', {
      appName: 'assistant',
      userId: 'u1',
      sessionId: 's1',
      newMessage: { role: 'user', parts: [{ text: 'I live in Lisbon.' }] },
    });
    expect(await call('PATCH', '/apps/assistant/users/u1/memory', { sessionId: 's1' })).toEqual({
      status: 200,
      json: null,
    });
    await call('POST', '/apps/assistant/users/u1/sessions/s2', {});
    await call('POST', '/run', {
      appName: 'assistant',
      userId: 'u1',
      sessionId: 's2',
      newMessage: { role: 'user', parts: [{ text: 'Where do I live?' }] },
    });
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('user: I live in Lisbon.');
  });

  it('answers 400 without a memory service or a session id, 404 for a missing session', async () => {
    const without = await start(false);
    await without.call('POST', '/apps/assistant/users/u1/sessions/s1', {});
    expect((await without.call('PATCH', '/apps/assistant/users/u1/memory', { session_id: 's1' })).status).toBe(400);
    const withMemory = await start(true);
    expect((await withMemory.call('PATCH', '/apps/assistant/users/u1/memory', {})).status).toBe(400);
    expect((await withMemory.call('PATCH', '/apps/assistant/users/u1/memory', { sessionId: 'nope' })).status).toBe(404);
  });
});
