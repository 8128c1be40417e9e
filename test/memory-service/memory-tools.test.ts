import { describe, expect, it } from 'vitest';
import { explainCacheMiss } from '../../src/analysis/cache/explain-cache.js';
import type { Event } from '../../src/contracts/event.js';
import { createAgentTree } from '../../src/engine/agent/agent-tree.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemoryMemoryService } from '../../src/engine/memory/in-memory-memory-service.js';
import { findMemoryCopies } from '../../src/engine/memory/memory-copies.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { pythonIsoTime } from '../../src/engine/memory/memory-words.js';
import { LOAD_MEMORY_INSTRUCTION, loadMemory } from '../../src/features/memory-tools/load-memory.js';
import { preloadMemory } from '../../src/features/memory-tools/preload-memory.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { agentFromConfig } from '../../src/presets/agent-files.js';
import { assembleRequest } from '../../src/presets/assemble-request.js';
import { collect, describeEvents, runnerWithSession } from '../runner/helpers.js';

// ADK's memory tools (issue 49): load_memory (translates ADK 2.5.0's tests/unittests/tools/test_load_memory_tool.py,
// JSON-schema declaration, which ADK 2.5.0's JSON_SCHEMA_FOR_FUNC_DECL feature has on by default; its test with the
// feature off has no counterpart, agentctx offering no such switch) and preload_memory (the <PAST_CONVERSATIONS> text, in the system text under `adk` as ADK
// 2.5.0 puts it, as a turn of its own under `agentctx`), and memory across two sessions through the runner.

const said = (id: string, author: string, timestamp: number, text: string): Event => ({
  id,
  invocationId: `i-${id}`,
  author,
  timestamp,
  content: { role: author === 'user' ? 'user' : 'model', parts: [{ text }] },
  actions: { stateDelta: {}, artifactDelta: {} },
});

async function rememberedService() {
  const memory = createInMemoryMemoryService();
  await memory.addSessionToMemory({
    id: 'earlier',
    appName: 'app',
    userId: 'u1',
    state: {},
    events: [said('e1', 'user', 1_700_000_000, 'User prefers Python programming language.')],
    lastUpdateTime: 1,
    revision: 1,
  });
  return memory;
}

describe('load_memory', () => {
  it('is declared with a JSON Schema and adds ADK’s paragraph after the tools (test_get_declaration_with_json_schema_feature_enabled)', async () => {
    const agent = llmAgent({
      name: 'helper',
      model: 'gemini-2.5-flash',
      instruction: 'Help.',
      extensions: [loadMemory()],
    });
    const { request } = await assembleRequest({
      agents: createAgentTree(agent),
      events: [],
      state: {},
      profile: 'adk',
    });
    expect(request.tools).toEqual([
      {
        name: 'load_memory',
        description:
          'Loads the memory for the current user.\n\nArgs:\n  query: The query to load the memory for.\n\nReturns:\n  A list of memory results.',
        parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
      },
    ]);
    expect(request.system).toBe(
      `Help.\n\nYou are an agent. Your internal name is "helper".\n\n${LOAD_MEMORY_INSTRUCTION}`,
    );
  });

  it('answers the model with the memories, as ADK’s LoadMemoryResponse serializes', async () => {
    const memory = await rememberedService();
    const model = createScriptedModel([
      { functionCall: { name: 'load_memory', args: { query: 'python' } } },
      { text: 'You like Python.' },
    ]);
    const runner = await runnerWithSession({
      agents: llmAgent({ name: 'app', extensions: [loadMemory()] }),
      model,
      memory,
    });
    const events = await collect(runner, { userId: 'u1', message: 'What do I like?' });
    expect(describeEvents(events)[2]).toBe(
      `app: load_memory → ${JSON.stringify({
        result: {
          memories: [
            {
              content: { role: 'user', parts: [{ text: 'User prefers Python programming language.' }] },
              custom_metadata: {},
              author: 'user',
              timestamp: pythonIsoTime(1_700_000_000),
            },
          ],
        },
      })}`,
    );
  });

  it('answers with ADK’s error when the runner has no memory service', async () => {
    const model = createScriptedModel([
      { functionCall: { name: 'load_memory', args: { query: 'x' } } },
      { text: 'ok' },
    ]);
    const runner = await runnerWithSession({ agents: llmAgent({ name: 'app', extensions: [loadMemory()] }), model });
    const events = await collect(runner, { message: 'hi' });
    expect(describeEvents(events)[2]).toBe(
      'app: load_memory → {"error":"Tool \'load_memory\' failed: Memory service is not available."}',
    );
  });
});

describe('preload_memory', () => {
  const past =
    "The following content is from your previous conversations with the user.\nThey may be useful for answering the user's current query.\n<PAST_CONVERSATIONS>\nTime: " +
    pythonIsoTime(1_700_000_000) +
    '\nuser: User prefers Python programming language.\n</PAST_CONVERSATIONS>\n';

  const request = async (profile: 'adk' | 'agentctx', message: string) => {
    const agent = llmAgent({
      name: 'app',
      model: 'gemini-2.5-flash',
      instruction: 'Help.',
      extensions: [preloadMemory()],
    });
    return assembleRequest({
      agents: createAgentTree(agent),
      appName: 'app',
      userId: 'u1',
      events: [said('now', 'user', 1_800_000_000, message)],
      userContent: { role: 'user', parts: [{ text: message }] },
      state: {},
      profile,
      memory: await rememberedService(),
    });
  };

  it('under adk, ends the system text with ADK’s <PAST_CONVERSATIONS> text (test_preload_memory_registers_dynamic_instructions)', async () => {
    const { request: built, provenance } = await request('adk', 'Which programming language do I prefer?');
    expect(built.system).toBe(`Help.\n\nYou are an agent. Your internal name is "app".\n\n${past}`);
    expect(built.messages).toHaveLength(1);
    expect(provenance.system.at(-1)?.source).toMatchObject({
      kind: 'memory',
      eventIds: ['e1'],
      note: '1 memory for "Which programming language do I prefer?"',
      memories: [
        {
          id: expect.any(String),
          sessionId: 'earlier',
          eventId: 'e1',
          author: 'user',
          timestamp: pythonIsoTime(1_700_000_000),
        },
      ],
    });
  });

  it('under agentctx, is a turn of its own before the message, leaving the system text as it was', async () => {
    const { request: built } = await request('agentctx', 'Which programming language do I prefer?');
    expect(built.system).toBe('Help.\n\nYou are an agent. Your internal name is "app".');
    expect(built.messages.map((message) => message.content)).toEqual([
      [{ text: past }],
      [{ text: 'Which programming language do I prefer?' }],
    ]);
  });

  it('adds nothing when no memory matches', async () => {
    const { request: built } = await request('adk', 'Tell me about the weather');
    expect(built.system).toBe('Help.\n\nYou are an agent. Your internal name is "app".');
  });
});

describe('memory across sessions, through the runner', () => {
  it('remembers a session by context.addSessionToMemory and finds it in a later session', async () => {
    const memory = createInMemoryMemoryService();
    const model = createScriptedModel([{ text: 'Noted.' }, { text: 'You live in Lisbon.' }]);
    const runner = await runnerWithSession({
      agents: llmAgent({
        name: 'app',
        extensions: [preloadMemory()],
        callbacks: { afterAgent: async ({ context }) => void (await context.addSessionToMemory()) },
      }),
      model,
      memory,
    });
    await collect(runner, { message: 'I live in Lisbon.' });
    await runner.createSession({ userId: 'u1', sessionId: 's2' });
    await collect(runner, { sessionId: 's2', message: 'Where do I live?' });
    const second = model.requests[1];
    expect(JSON.stringify(second?.messages)).toContain('user: I live in Lisbon.');
  });
});

describe('the memory tools in agent files', () => {
  it('reads ADK’s load_memory and preload_memory by name', async () => {
    const agent = await agentFromConfig(
      {
        name: 'app',
        model: 'gemini-2.5-flash',
        instruction: 'Help.',
        tools: [{ name: 'load_memory' }, { name: 'preload_memory' }],
      },
      { filename: 'agent.yaml' },
    );
    const { request } = await assembleRequest({
      agents: createAgentTree(agent),
      appName: 'app',
      userId: 'u1',
      events: [said('now', 'user', 1_800_000_000, 'Do I like Python?')],
      userContent: { role: 'user', parts: [{ text: 'Do I like Python?' }] },
      state: {},
      profile: 'adk',
      memory: await rememberedService(),
    });
    expect(request.tools.map((tool) => tool.name)).toEqual(['load_memory']);
    expect(request.system).toContain(LOAD_MEMORY_INSTRUCTION);
    expect(request.system).toContain('<PAST_CONVERSATIONS>\nTime: ');
  });
});

describe('copies of memories (the dry run before an erasure)', () => {
  it('finds a load_memory result that carried a memory into another session, not the memory’s own session', async () => {
    const memory = createInMemoryMemoryService();
    const model = createScriptedModel([
      { text: 'Noted, you like Python.' },
      { functionCall: { name: 'load_memory', args: { query: 'python' } } },
      { text: 'You prefer Python.' },
    ]);
    const sessions = createInMemorySessionStore();
    const runner = await runnerWithSession({
      agents: llmAgent({ name: 'app', extensions: [loadMemory()] }),
      model,
      memory,
      sessions,
    });
    await collect(runner, { message: 'I prefer the Python programming language.' });
    const first = await sessions.getSession({ appName: 'app', userId: 'u1', sessionId: 's1' });
    if (first !== undefined) await memory.addSessionToMemory(first);
    await runner.createSession({ userId: 'u1', sessionId: 's2' });
    const second = await collect(runner, { sessionId: 's2', message: 'What do I prefer?' });
    const copies = await findMemoryCopies(
      sessions,
      { appName: 'app', userId: 'u1' },
      await memory.listMemories({ appName: 'app', userId: 'u1' }),
    );
    const resultEvent = second.find(
      (event) => JSON.stringify(event.content).includes('load_memory') && event.content?.role === 'user',
    );
    expect(copies).toContainEqual({
      kind: 'event',
      sessionId: 's2',
      eventId: resultEvent?.id,
      author: 'app',
      memoryId: first?.events[0]?.id,
    });
    expect(copies.every((copy) => copy.sessionId === 's2')).toBe(true);
  });
});

describe('a memory change as the cause of a cache miss', () => {
  it('is named by inspect’s explainer under adk, where preload_memory changes the system text', async () => {
    const memory = createInMemoryMemoryService();
    await memory.addMemory({
      appName: 'app',
      userId: 'u1',
      memories: [
        { id: 'py', content: { role: 'user', parts: [{ text: 'User prefers Python.' }] }, author: 'user' },
        { id: 'tea', content: { role: 'user', parts: [{ text: 'User drinks green tea.' }] }, author: 'user' },
      ],
    });
    const sessions = createInMemorySessionStore();
    const runner = await runnerWithSession({
      agents: llmAgent({ name: 'app', instruction: 'Help.', extensions: [preloadMemory()] }),
      model: createScriptedModel([{ text: 'Python.' }, { text: 'Green tea.' }]),
      memory,
      sessions,
      profile: 'adk',
    });
    await collect(runner, { message: 'Which language, Python or Go?' });
    await collect(runner, { message: 'And which tea?' });
    const key = { appName: 'app', userId: 'u1', sessionId: 's1' };
    const [first, second] = await Promise.all([1, 2].map((index) => sessions.getModelCall({ ...key, index })));
    const explanation = explainCacheMiss(first as never, second as never, (text) => text.length);
    expect(explanation.difference?.cause.text).toBe('memory block changed: preload_memory');
  });
});
