import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_PRICES } from '../../src/analysis/cost/default-prices.js';
import { costOfCalls } from '../../src/analysis/cost/session-cost.js';
import type { Event } from '../../src/contracts/event.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createOpenAIResponsesModel } from '../../src/models/openai/responses-model.js';
import { toResponsesInput } from '../../src/models/openai/to-responses-request.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { agentctxWith } from '../support/cli.js';
import { startResponsesServer, type ResponsesServer, type ResponsesTurn } from './responses-server.js';

// Issue 51, part 1, acceptance: a three-call tool loop on gpt-5 through the runner, against a local server that speaks
// the Responses protocol and, like OpenAI's, refuses reasoning sent back without its encrypted content when nothing
// is stored. Calls 2 and 3 carry the encrypted reasoning of the call before; what agentctx recorded as sent is what
// the server received (as `inspect --wire --json` prints it), and `agentctx cost --json` prices what it billed. A new
// runner on the same SQLite file continues the session and still sends the reasoning back.

const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const key of Object.keys(process.env))
    if (key.startsWith('OPENAI_')) {
      saved[key] = process.env[key];
      delete process.env[key];
    }
});
afterAll(() => Object.assign(process.env, saved));

let dir = '';
let server: ResponsesServer | undefined;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-responses-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// Long enough (over 1,024 tokens) for the server to cache the prefix the calls share.
const INSTRUCTION = Array.from(
  { length: 60 },
  (_, index) => `Rule ${index + 1}: give the weather of city number ${index + 1} in degrees Celsius, in one sentence.`,
).join('\n');
const KEY = { appName: 'weather', userId: 'u', sessionId: 's' };

const SCRIPT: ResponsesTurn[] = [
  {
    reasoning: { summaries: ['Paris first.'], tokens: 96 },
    calls: [{ name: 'get_weather', arguments: { city: 'Paris' } }],
  },
  {
    reasoning: { summaries: ['Now Oslo.'], tokens: 48 },
    calls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }],
  },
  { reasoning: { summaries: ['Both known.'], tokens: 32 }, text: 'Paris 18 °C, Oslo 3 °C.' },
  { reasoning: { summaries: ['Compare.'], tokens: 16 }, text: 'Paris is warmer.' },
];

const getWeather = functionTool({
  name: 'get_weather',
  description: 'Gets the weather for a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, celsius: city === 'Paris' ? 18 : 3 }),
});

const responsesModel = (url: string, store = false) =>
  createOpenAIResponsesModel({ model: 'gpt-5', apiKey: 'sk-test', baseURL: `${url}/v1`, env: {}, retry: false, store });

function runnerOn(url: string, path: string, streaming: boolean, store = false) {
  const sessions = createSqliteSessionStore({ path });
  const model = responsesModel(url, store);
  const runner = createRunner({
    agents: llmAgent({ name: 'weather', instruction: INSTRUCTION, tools: [getWeather] }),
    model,
    sessions,
    streaming,
  });
  return { runner, sessions };
}

async function turn(runner: ReturnType<typeof runnerOn>['runner'], message: string): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of runner.run({ userId: KEY.userId, sessionId: KEY.sessionId, message }))
    if (event.partial !== true) events.push(event);
  return events;
}

type Input = { type?: string; id?: string; encrypted_content?: string; role?: string }[];
const inputOf = (index: number) => (server?.received[index]?.body as { input: Input }).input;
const reasoningSent = (index: number) =>
  inputOf(index).flatMap((item, at) =>
    item.type === 'reasoning' ? [{ id: item.id, sealed: item.encrypted_content, next: inputOf(index)[at + 1] }] : [],
  );

describe('a tool loop on the Responses API, stateless', () => {
  it.each([false, true])(
    'keeps the reasoning across tool calls and a restart; records and prices what the server received and billed (streaming: %s)',
    {
      timeout: 60_000,
    },
    async (streaming) => {
      server = await startResponsesServer((_body, index) => SCRIPT[index] ?? { text: 'no more' });
      const path = join(dir, `sessions-${streaming}.db`);
      const first = runnerOn(server.url, path, streaming);
      await first.runner.createSession({ userId: KEY.userId, sessionId: KEY.sessionId });
      const events = await turn(first.runner, 'Weather in Paris and Oslo?');
      expect(events.map((event) => event.errorCode)).toEqual(events.map(() => undefined));
      expect(events.at(-1)?.content?.parts.at(-1)).toEqual({ text: 'Paris 18 °C, Oslo 3 °C.' });
      expect(server.received).toHaveLength(3);

      // Call 2 sends back the reasoning of call 1 before the call it led to; call 3 that of calls 1 and 2.
      const sealed = (id: string) => server?.issued.get(id);
      expect(reasoningSent(0)).toEqual([]);
      expect(reasoningSent(1)).toEqual([
        {
          id: 'rs_1',
          sealed: sealed('rs_1'),
          next: expect.objectContaining({ type: 'function_call', call_id: 'call_1_0' }),
        },
      ]);
      expect(reasoningSent(2).map(({ id, sealed: sent }) => [id, sent])).toEqual([
        ['rs_1', sealed('rs_1')],
        ['rs_2', sealed('rs_2')],
      ]);
      expect(inputOf(1).find((item) => item.type === 'reasoning')).toEqual({
        type: 'reasoning',
        id: 'rs_1',
        encrypted_content: sealed('rs_1'),
        summary: [{ type: 'summary_text', text: 'Paris first.' }],
      });
      // The reasoning summaries are the model's thoughts in the session.
      const thoughts = events.flatMap((event) =>
        (event.content?.parts ?? []).flatMap((part) => ('text' in part && part.thought === true ? [part.text] : [])),
      );
      expect(thoughts).toEqual(['Paris first.', 'Now Oslo.', 'Both known.']);

      // What was recorded is what the server received and billed.
      const calls = await first.sessions.listModelCalls(KEY);
      expect(calls).toHaveLength(3);
      for (const [index, received] of server.received.entries()) {
        const record = await first.sessions.getModelCall({ ...KEY, index: index + 1 });
        expect(record?.wire?.body).toBe(received.rawBody);
        expect(record?.wire?.url).toBe(`${server.url}/v1/responses`);
        expect(record?.wire?.usage).toEqual(server.billed[index]);
        const billed = server.billed[index];
        expect(record?.usage).toEqual({
          promptTokens: billed?.input_tokens,
          outputTokens: billed?.output_tokens,
          cachedTokens: billed?.input_tokens_details.cached_tokens,
          reasoningTokens: billed?.output_tokens_details.reasoning_tokens,
          totalTokens: billed?.total_tokens,
        });
      }
      // The calls share their instructions and tools: the later ones read them from the cache.
      expect(server.billed.slice(1).every((usage) => usage.input_tokens_details.cached_tokens >= 1024)).toBe(true);

      // As the CLI shows them: `inspect --wire --json` prints the body received, `cost --json` prices the bill.
      const store = ['--app', 'weather', '--user', 'u', '--store', path, '--session', 's'];
      for (const call of [1, 2, 3]) {
        const shown = await agentctxWith({}, 'inspect', ...store, '--call', String(call), '--wire', '--json');
        expect(shown.code).toBe(0);
        expect(shown.stdout).toBe(`${server.received[call - 1]?.rawBody}\n`);
      }
      // Without --wire, the recorded request names the reasoning it carried, without printing it.
      const request = await agentctxWith({}, 'inspect', ...store, '--call', '2');
      expect(request.stdout).toContain(
        `(thought) Paris first.[provider data: openai itemId, 6 chars; openai encryptedContent, ${(sealed('rs_1')?.length ?? 0) + 2} chars]`,
      );
      const cost = await agentctxWith({}, 'cost', ...store, '--json');
      expect(cost.code).toBe(0);
      const report = JSON.parse(cost.stdout) as {
        calls: { tokens: { input: number; cacheRead: number; output: number; reasoning: number } }[];
        total: { usd?: number };
      };
      expect(report.calls.map((call) => call.tokens)).toEqual(
        server.billed.map((usage) =>
          expect.objectContaining({
            input: usage.input_tokens - usage.input_tokens_details.cached_tokens,
            cacheRead: usage.input_tokens_details.cached_tokens,
            output: usage.output_tokens,
            reasoning: usage.output_tokens_details.reasoning_tokens,
          }),
        ),
      );
      // gpt-5 in the table: $1.25 input, $0.125 cached input, $10 output (reasoning included) per million.
      const usd = server.billed.reduce(
        (sum, usage) =>
          sum +
          ((usage.input_tokens - usage.input_tokens_details.cached_tokens) * 1.25 +
            usage.input_tokens_details.cached_tokens * 0.125 +
            usage.output_tokens * 10) /
            1e6,
        0,
      );
      expect(report.total.usd).toBeCloseTo(usd, 12);
      expect(costOfCalls(calls, DEFAULT_PRICES).total.usd).toBeCloseTo(usd, 12);

      // A new process: a new runner, model and store on the same file. The session goes on with its reasoning.
      await first.sessions.close();
      const second = runnerOn(server.url, path, streaming);
      const next = await turn(second.runner, 'Which is warmer?');
      expect(next.at(-1)?.content?.parts.at(-1)).toEqual({ text: 'Paris is warmer.' });
      expect(reasoningSent(3).map(({ id, sealed: sent }) => [id, sent])).toEqual([
        ['rs_1', sealed('rs_1')],
        ['rs_2', sealed('rs_2')],
        ['rs_3', sealed('rs_3')],
      ]);
      expect((await second.sessions.getModelCall({ ...KEY, index: 4 }))?.wire?.body).toBe(server.received[3]?.rawBody);
      await second.sessions.close();
    },
  );
});

describe('a tool loop on the Responses API, stored by OpenAI (store: true)', () => {
  it.each([false, true])(
    'continues each response with previous_response_id and only what is new; inspect says the server holds the rest; a rewritten history starts a new chain (streaming: %s)',
    {
      timeout: 60_000,
    },
    async (streaming) => {
      server = await startResponsesServer((_body, index) => SCRIPT[index] ?? { text: 'no more' });
      const path = join(dir, `stored-${streaming}.db`);
      const { runner, sessions } = runnerOn(server.url, path, streaming, true);
      await runner.createSession({ userId: KEY.userId, sessionId: KEY.sessionId });
      await turn(runner, 'Weather in Paris and Oslo?');
      await turn(runner, 'Which is warmer?');
      type Sent = { store: boolean; previous_response_id?: string; input: unknown[] };
      const bodies = () => (server?.received ?? []).map((received) => received.body as Sent);
      expect(bodies().map((body) => [body.store, body.previous_response_id])).toEqual([
        [true, undefined],
        [true, 'resp_1'],
        [true, 'resp_2'],
        [true, 'resp_3'],
      ]);
      expect(bodies()[0]?.input).toEqual([{ role: 'user', content: 'Weather in Paris and Oslo?' }]);
      expect(
        bodies()
          .slice(1)
          .map((body) => body.input),
      ).toEqual([
        [{ type: 'function_call_output', call_id: 'call_1_0', output: '{"city":"Paris","celsius":18}' }],
        [{ type: 'function_call_output', call_id: 'call_2_0', output: '{"city":"Oslo","celsius":3}' }],
        [{ role: 'user', content: 'Which is warmer?' }],
      ]);
      // What agentctx recorded is what it sent; inspect says the rest is on the server.
      for (const [index, received] of server.received.entries())
        expect((await sessions.getModelCall({ ...KEY, index: index + 1 }))?.wire?.body).toBe(received.rawBody);
      const store = ['--app', 'weather', '--user', 'u', '--store', path, '--session', 's'];
      const shown = await agentctxWith({}, 'inspect', ...store, '--call', '2');
      expect(shown.stdout).toContain(
        'the server holds the conversation up to response resp_1 (previous_response_id): this body carries only what came after it',
      );
      expect((await agentctxWith({}, 'inspect', ...store, '--call', '1')).stdout).not.toContain('the server holds');

      // A history rewritten since (its first message dropped, as compaction would) no longer matches: all of it is sent.
      const recorded = await sessions.getModelCall({ ...KEY, index: 4 });
      if (recorded === undefined) throw new Error('call 4 was not recorded');
      const rewritten = { ...recorded.request, messages: recorded.request.messages.slice(1) };
      await responsesModel(server.url, true).generate(rewritten);
      const last = bodies().at(-1);
      expect(last?.previous_response_id).toBeUndefined();
      expect(last?.input).toEqual(toResponsesInput(rewritten.messages, 'auto', true));
      expect(last?.input.length).toBeGreaterThan(5);
      await sessions.close();
    },
  );
});
