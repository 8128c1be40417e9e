import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../providers/fake-server.js';
import { agentctxWith } from '../support/cli.js';

let server: FakeServer;

// A local OpenAI-compatible server (as Ollama or llama.cpp would be): it answers each agent from its system text.
beforeAll(async () => {
  server = await startFakeServer((request) => {
    const body = request.body as { messages: { role: string; content: string }[] };
    const system = body.messages[0]?.content ?? '';
    const text = system.startsWith('Write a short paragraph') ? 'X was named in 1901.' : 'Cite a source for 1901.';
    return {
      json: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'local',
        choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 40, completion_tokens: 8, total_tokens: 48 },
      },
    };
  });
});

afterAll(async () => {
  await server.close();
});

describe('agentctx run against an OpenAI-compatible server', () => {
  it("runs seed 001's pipeline end to end through the real HTTP protocol", async () => {
    const model = `openai-compatible:local@${server.url}/v1`;
    const result = await agentctxWith(
      { OPENAI_COMPATIBLE_API_KEY: '', OPENAI_API_KEY: '' },
      'run',
      'examples/draft-and-review/pipeline.yaml',
      '--model',
      model,
      '--store',
      'memory',
      '--message',
      'Write about X',
    );
    expect(result.stderr).toMatch(/^session /);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\[generator_agent\] X was named in 1901\.$/m);
    expect(result.stdout).toMatch(/^\[reviewer_agent\] Cite a source for 1901\.$/m);
    expect(server.received.map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /v1/chat/completions',
      'POST /v1/chat/completions',
    ]);
    const second = server.received[1]?.body as { model: string; messages: { role: string; content: string }[] };
    expect(second.model).toBe('local');
    expect(second.messages[0]).toEqual({
      role: 'system',
      content:
        'Please review the following draft: X was named in 1901.. Check for factual accuracy and provide feedback.\n\nYou are an agent. Your internal name is "reviewer_agent".',
    });
  });
});
