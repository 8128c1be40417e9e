import { describe, expect, it } from 'vitest';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemoryMemoryService } from '../../src/engine/memory/in-memory-memory-service.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { collect, runnerWithSession } from '../runner/helpers.js';

// Ingestion without surprises (issue 49): the runner's `remember` option adds sessions to memory after each turn or
// when a session is deleted, never by default; tool traffic, thoughts and state are not remembered unless asked.

const lookup = functionTool({
  name: 'lookup_account',
  description: 'Looks the account up.',
  jsonSchema: { type: 'object', properties: {} },
  execute: () => ({ token: 'sk-secret-in-a-tool-result', plan: 'gold' }),
});

function script() {
  return createScriptedModel([
    { functionCall: { name: 'lookup_account', args: {} } },
    { text: 'Your plan is gold.' },
    { text: 'Noted.' },
  ]);
}

// A runner with the account tool that remembers every turn.
function rememberingEachTurn(memory: ReturnType<typeof createInMemoryMemoryService>) {
  return runnerWithSession({
    agents: llmAgent({ name: 'app', tools: [lookup] }),
    model: script(),
    memory,
    remember: 'turn',
  });
}

const texts = (memories: readonly { content: { parts: readonly object[] } }[]) =>
  memories.map((memory) => JSON.stringify(memory.content.parts));

describe('remember', () => {
  it("'turn' remembers each invocation's new events once, and what was said only", async () => {
    const memory = createInMemoryMemoryService();
    const runner = await rememberingEachTurn(memory);
    await collect(runner, { message: 'Which plan am I on?', stateDelta: { 'temp:card': '4111-1111' } });
    const first = await memory.listMemories({ appName: 'app', userId: 'u1' });
    expect(texts(first)).toEqual(['[{"text":"Which plan am I on?"}]', '[{"text":"Your plan is gold."}]']);
    expect(JSON.stringify(first)).not.toMatch(/sk-secret|4111|lookup_account/);
    expect(first.map((entry) => entry.source?.sessionId)).toEqual(['s1', 's1']);

    await collect(runner, { message: 'I moved to Porto.' });
    const second = await memory.listMemories({ appName: 'app', userId: 'u1' });
    expect(texts(second).slice(2)).toEqual(['[{"text":"I moved to Porto."}]', '[{"text":"Noted."}]']);
    expect(second.slice(0, 2)).toEqual(first);
  });

  it('remembers tool traffic when the service is asked to', async () => {
    const memory = createInMemoryMemoryService({ rememberToolTraffic: true });
    const runner = await rememberingEachTurn(memory);
    await collect(runner, { message: 'Which plan am I on?' });
    const all = JSON.stringify(await memory.listMemories({ appName: 'app', userId: 'u1' }));
    expect(all).toContain('lookup_account');
    expect(all).toContain('sk-secret-in-a-tool-result');
  });

  it("under ADK's matching, remembers every event with parts, as ADK does", async () => {
    const memory = createInMemoryMemoryService({ matching: 'adk' });
    const runner = await rememberingEachTurn(memory);
    await collect(runner, { message: 'Which plan am I on?' });
    expect(await memory.listMemories({ appName: 'app', userId: 'u1' })).toHaveLength(4);
  });

  it("'session-end' remembers the whole session when it is deleted, and nothing before", async () => {
    const memory = createInMemoryMemoryService();
    const runner = await runnerWithSession({
      agents: llmAgent({ name: 'app' }),
      model: createScriptedModel([{ text: 'Noted.' }]),
      memory,
      remember: 'session-end',
    });
    await collect(runner, { message: 'My cat is called Miso.' });
    expect(await memory.listMemories({ appName: 'app', userId: 'u1' })).toEqual([]);
    await runner.deleteSession({ userId: 'u1', sessionId: 's1' });
    const found = await memory.searchMemory({ appName: 'app', userId: 'u1', query: 'cat name' });
    expect(texts(found.memories)).toEqual(['[{"text":"My cat is called Miso."}]']);
    expect(await runner.sessions.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' })).toBeUndefined();
  });

  it("'never' (the default) remembers nothing by itself", async () => {
    const memory = createInMemoryMemoryService();
    const runner = await runnerWithSession({
      agents: llmAgent({ name: 'app' }),
      model: createScriptedModel([{ text: 'Noted.' }]),
      memory,
    });
    await collect(runner, { message: 'My cat is called Miso.' });
    await runner.deleteSession({ userId: 'u1', sessionId: 's1' });
    expect(await memory.listMemories({ appName: 'app', userId: 'u1' })).toEqual([]);
  });

  it('refuses a setting it cannot carry out, saying how to fix it', () => {
    const agents = llmAgent({ name: 'app' });
    expect(() => createRunner({ agents, remember: 'turn' })).toThrow(/needs a memory service/);
    expect(() => createRunner({ agents, memory: createInMemoryMemoryService(), remember: 'daily' as 'turn' })).toThrow(
      /remember must be one of turn, session-end, never; got "daily"/,
    );
  });
});
