import { createAnthropic } from '@ai-sdk/anthropic';
import { createMistral } from '@ai-sdk/mistral';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Usage } from '../../src/contracts/event.js';
import { explainSessionCache } from '../../src/analysis/cache/explain-cache.js';
import { costOfCall } from '../../src/analysis/cost/call-cost.js';
import { DEFAULT_PRICES } from '../../src/analysis/cost/default-prices.js';
import type { PriceTable } from '../../src/analysis/cost/price-table.js';
import { costOfCalls } from '../../src/analysis/cost/session-cost.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createAiSdkModel, recordingFetch, type AiSdkModelSettings } from '../../src/models/ai-sdk/index.js';
import type { Model } from '../../src/contracts/model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { anthropicReply, chatCompletionsReply, type Turn } from './ai-sdk-protocols.js';
import { fakeServers, type FakeReply, type FakeServer } from './fake-server.js';

// Issue 51, part 2: real @ai-sdk/* provider packages, pointed at local servers that speak their protocols, bridged
// into agentctx models. A tool loop through createRunner runs to its end; the wire body recorded for each call is the
// body the server received, byte for byte; usage (cache reads and writes included) and cost are the provider's.

const { serve, closeAll } = fakeServers();
afterEach(closeAll);

const TABLE: PriceTable = {
  currency: 'USD',
  perTokens: 1_000_000,
  models: [
    ...DEFAULT_PRICES.models,
    {
      provider: 'local',
      model: 'llama-local',
      input: 0.5,
      output: 1.5,
      cacheRead: 0.05,
      source: 'https://example.test/local',
      date: '2026-12-07',
    },
    {
      provider: 'mistral',
      model: 'mistral-large-latest',
      input: 2,
      output: 6,
      cacheRead: 0.2,
      source: 'https://example.test/mistral',
      date: '2026-12-07',
    },
  ],
};

type Case = {
  name: string;
  model: string;
  /** The provider agentctx records and prices the model under. */
  provider: string;
  make: (server: FakeServer) => Model;
  reply: (turn: Turn, streaming: boolean, model: string) => FakeReply;
  /** The two turns: the call, then the answer after the tool's result. */
  turns: [Turn, Turn];
  usage: [Usage, Usage];
  /** What the second request carries of the tool's result, in the protocol's words. */
  toolResult: unknown;
};

const CALL = { id: 'call_Oslo1', name: 'get_weather', args: { city: 'Oslo' } };
const ANSWER = 'It is 3 °C in Oslo.';
const retry: AiSdkModelSettings['retry'] = { initialDelayMs: 1 };

const CASES: Case[] = [
  {
    name: 'openai-compatible',
    model: 'llama-local',
    provider: 'local',
    make: (server) =>
      createAiSdkModel(
        createOpenAICompatible({
          name: 'local',
          baseURL: `${server.url}/v1`,
          apiKey: 'local-key',
          includeUsage: true,
          fetch: recordingFetch(),
        })('llama-local'),
        { retry },
      ),
    reply: chatCompletionsReply,
    turns: [
      { call: CALL, usage: { prompt_tokens: 60, completion_tokens: 12, total_tokens: 72 } },
      {
        text: ANSWER,
        usage: {
          prompt_tokens: 90,
          completion_tokens: 9,
          total_tokens: 99,
          prompt_tokens_details: { cached_tokens: 64 },
        },
      },
    ],
    usage: [
      { promptTokens: 60, outputTokens: 12, cachedTokens: 0, reasoningTokens: 0, totalTokens: 72 },
      { promptTokens: 90, outputTokens: 9, cachedTokens: 64, reasoningTokens: 0, totalTokens: 99 },
    ],
    toolResult: { role: 'tool', tool_call_id: CALL.id, content: '{"city":"Oslo","temperature":3}' },
  },
  {
    name: 'anthropic',
    model: 'claude-sonnet-5-5',
    provider: 'anthropic',
    make: (server) =>
      createAiSdkModel(
        createAnthropic({ baseURL: `${server.url}/v1`, apiKey: 'sk-ant-local', fetch: recordingFetch() })(
          'claude-sonnet-5-5',
        ),
        { retry, cacheBreakpoint: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
      ),
    reply: anthropicReply,
    turns: [
      {
        call: CALL,
        usage: { input_tokens: 20, cache_creation_input_tokens: 1200, cache_read_input_tokens: 0, output_tokens: 15 },
      },
      {
        text: ANSWER,
        usage: { input_tokens: 40, cache_creation_input_tokens: 60, cache_read_input_tokens: 1200, output_tokens: 11 },
      },
    ],
    usage: [
      { promptTokens: 1220, outputTokens: 15, cachedTokens: 0, cacheWriteTokens: 1200, totalTokens: 1235 },
      { promptTokens: 1300, outputTokens: 11, cachedTokens: 1200, cacheWriteTokens: 60, totalTokens: 1311 },
    ],
    toolResult: {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: CALL.id,
          content: '{"city":"Oslo","temperature":3}',
          cache_control: { type: 'ephemeral' },
        },
      ],
    },
  },
  {
    name: 'mistral',
    model: 'mistral-large-latest',
    provider: 'mistral',
    make: (server) =>
      createAiSdkModel(
        createMistral({ baseURL: `${server.url}/v1`, apiKey: 'mistral-key', fetch: recordingFetch() })(
          'mistral-large-latest',
        ),
        { retry },
      ),
    reply: chatCompletionsReply,
    turns: [
      { call: CALL, usage: { prompt_tokens: 70, completion_tokens: 14, total_tokens: 84 } },
      { text: ANSWER, usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, num_cached_tokens: 64 } },
    ],
    usage: [
      { promptTokens: 70, outputTokens: 14, totalTokens: 84 },
      { promptTokens: 100, outputTokens: 10, cachedTokens: 64, totalTokens: 110 },
    ],
    toolResult: {
      role: 'tool',
      name: 'get_weather',
      tool_call_id: CALL.id,
      content: '{"city":"Oslo","temperature":3}',
    },
  },
];

const getWeather = functionTool({
  name: 'get_weather',
  description: 'Gets the weather for a city.',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, temperature: 3 }),
});

describe.each(CASES)('the AI SDK bridge over $name', (testCase) => {
  it.each([false, true])(
    'runs a tool loop to its end, recorded and priced as the server saw it (streaming: %s)',
    async (streaming) => {
      const server = await serve((_request, index) =>
        testCase.reply(testCase.turns[index] ?? testCase.turns[1], streaming, testCase.model),
      );
      let id = 0;
      const runner = createRunner({
        agents: llmAgent({ name: 'weather', instruction: 'Answer with the tool.', tools: [getWeather] }),
        model: testCase.make(server),
        streaming,
        newId: () => `id${++id}`,
        telemetry: undefined,
      });
      await runner.createSession({ userId: 'u1', sessionId: 's1' });
      const events = [];
      for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Weather in Oslo?' }))
        if (event.partial !== true) events.push(event);
      expect(events.map((event) => event.content?.parts)).toEqual([
        [{ text: 'Weather in Oslo?' }],
        [{ functionCall: { id: CALL.id, name: 'get_weather', args: { city: 'Oslo' } } }],
        [{ functionResponse: { id: CALL.id, name: 'get_weather', response: { city: 'Oslo', temperature: 3 } } }],
        [{ text: ANSWER }],
      ]);
      expect(server.received).toHaveLength(2);
      const second = server.received[1]?.body as { messages: unknown[]; stream?: boolean };
      expect(second.stream === true).toBe(streaming);
      expect(second.messages.at(-1)).toEqual(testCase.toolResult);

      const key = { appName: 'weather', userId: 'u1', sessionId: 's1' };
      const calls = await runner.sessions.listModelCalls(key);
      expect(calls.map((call) => [call.status, call.model])).toEqual([
        ['answered', { provider: testCase.provider, modelId: testCase.model }],
        ['answered', { provider: testCase.provider, modelId: testCase.model }],
      ]);
      for (const [index, received] of server.received.entries()) {
        const recorded = await runner.sessions.getModelCall({ ...key, index: index + 1 });
        expect(recorded?.wire?.body).toBe(received.rawBody);
        expect(recorded?.wire?.url).toBe(`${server.url}${received.url}`);
      }
      expect(calls.map((call) => call.usage)).toEqual(testCase.usage);
      // The cache explainer reads bridged calls as any other: the second call keeps the first one's stable prefix.
      const records = await Promise.all(
        calls.map((call) => runner.sessions.getModelCall({ ...key, index: call.index })),
      );
      const explained = explainSessionCache(
        records.filter((record) => record !== undefined),
        (text) => text.length,
      );
      expect(explained.calls[1]?.explanation).toMatchObject({ previous: 1, current: 2, kept: true });

      const report = costOfCalls(calls, TABLE);
      expect(report.total.unpricedCalls).toBe(0);
      const price = TABLE.models.find(
        (entry) => entry.provider === testCase.provider && entry.model === testCase.model,
      );
      const per = (count: number, usd: number | undefined) => (count * (usd ?? Number.NaN)) / 1_000_000;
      const expected = testCase.usage.reduce((sum, usage) => {
        const cached = usage.cachedTokens ?? 0;
        const written = usage.cacheWriteTokens ?? 0;
        const input = (usage.promptTokens ?? 0) - cached - written;
        return (
          sum +
          per(input, price?.input) +
          per(cached, price?.cacheRead) +
          (written === 0 ? 0 : per(written, price?.cacheWrite5m)) +
          per(usage.outputTokens ?? 0, price?.output)
        );
      }, 0);
      expect(report.total.usd).toBeCloseTo(expected, 12);
      expect(report.total.usd).toBeCloseTo(
        calls.reduce((sum, call) => sum + (costOfCall(call.model, call.usage, TABLE).usd?.total ?? 0), 0),
        12,
      );
    },
  );
});
