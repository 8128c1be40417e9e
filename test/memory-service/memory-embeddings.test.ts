import { afterEach, describe, expect, it } from 'vitest';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemoryMemoryService } from '../../src/engine/memory/in-memory-memory-service.js';
import { preloadMemory } from '../../src/features/memory-tools/preload-memory.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { fakeServers, localOpenAIEmbedder } from '../providers/fake-server.js';
import { cli } from '../support/cli.js';
import { conceptEmbedder } from '../support/test-embedder.js';
import { memoryCli } from './memory-cli.js';

// Semantic memory with an embedding model (issue 49): the service embeds with the OpenAI adapter against a local
// server speaking OpenAI's embeddings protocol; inside an invocation each embedding call — the memories remembered
// after a turn, the search preload_memory makes — is recorded in the session's call log (operation `embeddings`)
// and priced like a model call.

const { serve, closeAll } = fakeServers();
afterEach(() => closeAll());

// A local server speaking OpenAI's embeddings protocol, its vectors from the concept embedder (car ~ automobile).
function embeddingServer() {
  const concepts = conceptEmbedder([['car', 'automobile', 'vehicle']]);
  return serve(async (request) => {
    const input = (request.body as { input: string[] }).input;
    const vectors = await concepts.embed(input);
    return {
      json: {
        data: vectors.map((embedding, index) => ({ index, embedding })),
        usage: { prompt_tokens: input.length * 5, total_tokens: input.length * 5 },
      },
    };
  });
}

describe('memory with an embedding model', () => {
  it('finds a memory by meaning, and records and prices every embedding call of the invocation', async () => {
    const server = await embeddingServer();
    const embedder = localOpenAIEmbedder(server.url);
    const memory = createInMemoryMemoryService({ embed: embedder });
    const model = createScriptedModel([{ text: 'Nice.' }, { text: 'A red car.' }]);
    const runner = createRunner({
      agents: llmAgent({ name: 'assistant', instruction: 'Help.', extensions: [preloadMemory()] }),
      model,
      memory,
      remember: 'turn',
      telemetry: undefined,
    });
    for (const sessionId of ['s1', 's2']) await runner.createSession({ userId: 'u', sessionId });
    for await (const _event of runner.run({ userId: 'u', sessionId: 's1', message: 'I bought a red car.' }));
    for await (const _event of runner.run({ userId: 'u', sessionId: 's2', message: 'Which automobile?' }));

    // Found by meaning: the search shares no word with the memory.
    expect(JSON.stringify(model.requests[1]?.messages)).toContain('user: I bought a red car.');
    const calls = (sessionId: string) => runner.calls?.listModelCalls({ appName: 'assistant', userId: 'u', sessionId });
    const s1 = await calls('s1');
    const s2 = await calls('s2');
    // Session 1: the search before its call (nothing remembered yet, so one text), its call, then its turn remembered.
    expect(s1?.map((call) => call.operation ?? 'generate')).toEqual(['embeddings', 'generate', 'embeddings']);
    expect(s2?.map((call) => call.operation ?? 'generate')).toEqual(['embeddings', 'generate', 'embeddings']);
    const remembered = await runner.calls?.getModelCall({
      appName: 'assistant',
      userId: 'u',
      sessionId: 's1',
      index: 3,
    });
    expect(remembered?.request.messages[0]?.content).toEqual([{ text: 'I bought a red car.' }, { text: 'Nice.' }]);
    expect(remembered?.usage?.promptTokens).toBe(10);
    expect(remembered?.wire?.body).toContain('"input":["I bought a red car.","Nice."]');
    expect(s1?.[2]?.agent).toBe('assistant');
  });

  it('is given by --embed to agentctx run and memory, on SQLite', async () => {
    const server = await embeddingServer();
    const embed = `openai-compatible:text-embedding-3-small@${server.url}/v1`;
    const { agent, store, memory, run } = await memoryCli({
      tools: ['preload_memory'],
      scripts: { 'script.yaml': '- text: Nice.\n' },
      runArgs: ['--remember', 'turn', '--embed', embed],
    });
    expect((await run('s1', 'I bought a red car.')).code).toBe(0);
    const found = await memory('search', '--query', 'automobile', '--embed', embed, '--json');
    expect(
      JSON.parse(found.stdout).map((entry: { content: { parts: { text: string }[] } }) => entry.content.parts[0]?.text),
    ).toEqual(['I bought a red car.']);
    expect((await run('s2', 'Which automobile?')).code).toBe(0);
    const calls = await cli(['inspect', agent, '--store', store, '--session', 's2']);
    expect(calls.stdout).toMatch(/ 1 {2}answered +assistant embeddings/);
    const first = await cli(['inspect', agent, '--store', store, '--session', 's2', '--call', '2', '--json']);
    expect(first.stdout).toContain('user: I bought a red car.');
  });
});
