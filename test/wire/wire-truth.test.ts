import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Model } from '../../src/contracts/model.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { agentTool, createRunner, llmAgent } from '../../src/index.js';
import { createAnthropicModel } from '../../src/models/anthropic/anthropic-model.js';
import { createGeminiModel } from '../../src/models/gemini/gemini-model.js';
import { createOpenAICompatibleModel } from '../../src/models/openai/openai-model.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { startFakeServer, type FakeReply, type FakeServer, type ReceivedRequest } from '../providers/fake-server.js';
import { agentctx } from '../support/cli.js';

// The acceptance of "truth to the wire": an agent whose beforeModel callback replaces, appends and inserts, and which
// asks a sub-agent through an agent tool, runs against a local server speaking each provider's protocol. Every request
// the server received must be recorded, wire body included, and the human view must show the edited text as sent.

type Provider = {
  name: string;
  model: (server: FakeServer) => Model;
  /** The system text a received body carries. */
  systemOf: (body: Record<string, unknown>) => string;
  toolCall: FakeReply;
  text: (text: string) => FakeReply;
  /** Whether a body already holds the result of the tool call. */
  hasToolResult: (body: string) => boolean;
};

const PROVIDERS: Provider[] = [
  {
    name: 'openai-compatible',
    model: (server) =>
      createOpenAICompatibleModel({ baseURL: `${server.url}/v1`, model: 'local-model', env: {}, retry: false }),
    systemOf: (body) =>
      String(
        (body['messages'] as { role: string; content: string }[]).find((message) => message.role === 'system')?.content,
      ),
    toolCall: {
      json: {
        id: 'c1',
        object: 'chat.completion',
        created: 1,
        model: 'local-model',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'function',
                  function: { name: 'researcher', arguments: '{"request":"find the opening hours"}' },
                },
              ],
            },
          },
        ],
        usage: { prompt_tokens: 120, completion_tokens: 12, total_tokens: 132 },
      },
    },
    text: (text) => ({
      json: {
        id: 'c2',
        object: 'chat.completion',
        created: 1,
        model: 'local-model',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: text } }],
        usage: { prompt_tokens: 90, completion_tokens: 5, total_tokens: 95 },
      },
    }),
    hasToolResult: (body) => body.includes('"role":"tool"'),
  },
  {
    name: 'anthropic',
    model: (server) =>
      createAnthropicModel({
        baseURL: server.url,
        apiKey: 'sk-ant-test',
        model: 'claude-test-5',
        env: {},
        retry: false,
      }),
    systemOf: (body) => {
      const system = body['system'];
      return typeof system === 'string' ? system : (system as { text: string }[]).map((block) => block.text).join('');
    },
    toolCall: {
      json: {
        id: 'm1',
        type: 'message',
        role: 'assistant',
        model: 'claude-test-5',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'researcher', input: { request: 'find the opening hours' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 120, output_tokens: 12 },
      },
    },
    text: (text) => ({
      json: {
        id: 'm2',
        type: 'message',
        role: 'assistant',
        model: 'claude-test-5',
        content: [{ type: 'text', text }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 90, output_tokens: 5 },
      },
    }),
    hasToolResult: (body) => body.includes('"tool_result"'),
  },
  {
    name: 'gemini',
    model: (server) =>
      createGeminiModel({
        baseURL: server.url,
        apiKey: 'gemini-test-key',
        model: 'gemini-test',
        env: {},
        retry: false,
      }),
    systemOf: (body) =>
      ((body['systemInstruction'] as { parts: { text: string }[] }).parts ?? []).map((part) => part.text).join(''),
    toolCall: {
      json: {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [{ functionCall: { name: 'researcher', args: { request: 'find the opening hours' } } }],
            },
            finishReason: 'STOP',
          },
        ],
        usageMetadata: { promptTokenCount: 120, candidatesTokenCount: 12, totalTokenCount: 132 },
      },
    },
    text: (text) => ({
      json: {
        candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 90, candidatesTokenCount: 5, totalTokenCount: 95 },
      },
    }),
    hasToolResult: (body) => body.includes('"functionResponse"'),
  },
];

// What the callback does to every coordinator request: replaces a name, appends a line, inserts a paragraph in the middle, inserts a message.
function editRequest(request: LlmRequest): void {
  request.system = request.system.replace('Ada', 'REDACTED');
  request.system += '\n\nAppended by the callback: answer in English.';
  const middle = request.system.indexOf('\n\n');
  request.system = `${request.system.slice(0, middle)}\n\nInserted by the callback: be brief.${request.system.slice(middle)}`;
  request.messages.unshift({ role: 'user', content: [{ text: 'Inserted note: the customer is in a hurry.' }] });
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-wire-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(PROVIDERS)('truth to the wire: $name', (provider) => {
  it('records every request the server received, the sub-agent’s too, exactly as sent, and attributes the callback’s edits', async () => {
    const server = await startFakeServer((request: ReceivedRequest) => {
      const text = JSON.stringify(request.body);
      if (text.includes('internal name is \\"researcher\\"')) return provider.text('Open 9 to 5.');
      return provider.hasToolResult(text) ? provider.text('The shop opens at nine.') : provider.toolCall;
    });
    try {
      const model = provider.model(server);
      const researcher = llmAgent({
        name: 'researcher',
        description: 'Finds facts.',
        instruction: 'Find facts about the shop.',
      });
      const coordinator = llmAgent({
        name: 'coordinator',
        instruction: 'You help customers of Ada’s shop. Ada is the owner.',
        tools: [agentTool(researcher)],
        callbacks: { beforeModel: ({ request }) => void editRequest(request) },
      });
      const store = join(dir, `${provider.name}.db`);
      const sessions = createSqliteSessionStore({ path: store });
      const runner = createRunner({ agents: coordinator, sessions, model });
      const session = await runner.createSession({ userId: 'user', sessionId: 's1' });
      for await (const _event of runner.run({ userId: 'user', sessionId: session.id, message: 'When do you open?' }));
      await sessions.close();

      expect(server.received).toHaveLength(3);
      const base = ['inspect', '--session', 's1', '--app', 'coordinator', '--store', store];
      const list = await agentctx(...base, '--json');
      expect(list.code).toBe(0);
      const calls = JSON.parse(list.stdout) as {
        index: number;
        agent: string;
        status: string;
        parent?: { callIndex?: number; tool: string };
      }[];
      expect(calls.map((call) => [call.agent, call.status])).toEqual([
        ['coordinator', 'answered'],
        ['researcher', 'answered'],
        ['coordinator', 'answered'],
      ]);
      expect(calls[1]?.parent).toMatchObject({ callIndex: 1, tool: 'researcher' });

      for (const [position, received] of server.received.entries()) {
        const wire = await agentctx(...base, '--call', String(position + 1), '--wire', '--json');
        expect(wire.stderr).toBe('');
        expect(JSON.parse(wire.stdout)).toEqual(received.body);
      }

      const human = await agentctx(...base, '--call', '1');
      expect(human.code).toBe(0);
      const sent = provider.systemOf(server.received[0]?.body as Record<string, unknown>);
      expect(sent).toContain('REDACTED');
      for (const line of sent.split('\n')) expect(human.stdout).toContain(line);
      expect(human.stdout).toContain('beforeModel callback');
      expect(human.stdout).not.toContain('unknown source');
      expect(human.stdout).toContain('Inserted note: the customer is in a hurry.');

      const tree = await agentctx(...base);
      expect(tree.stdout).toMatch(/2 {2}answered {2}\s*└ researcher via researcher/);
    } finally {
      await server.close();
    }
  });
});
