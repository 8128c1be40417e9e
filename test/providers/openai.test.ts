import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import { ModelError } from '../../src/contracts/errors/model-error.js';
import type { Model, ModelResponse, ModelStreamChunk, WireObserver } from '../../src/contracts/model.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { parseToolArguments } from '../../src/models/openai/from-openai-response.js';
import {
  createOpenAICompatibleModel,
  createOpenAIModel,
  type OpenAIModelSettings,
} from '../../src/models/openai/openai-model.js';
import { toOpenAIMessages } from '../../src/models/openai/to-openai-request.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { collect, describeEvents, testClock } from '../runner/helpers.js';
import { fakeServers, startFakeServer, type FakeReply, type FakeServer } from './fake-server.js';
import { GOLDEN_REQUEST, REQUEST_WITHOUT_CALL_IDS } from './golden-request.js';
import { expectRecordedAsReceived, recordWire } from './wire-recorder.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/providers/openai/${name}`, import.meta.url), 'utf8')) as unknown;
const GOLDEN_BODY = fixture('golden-request.json') as Record<string, unknown>;
const TOOL_CALLS_COMPLETION = fixture('completion-tool-calls.json');
const TOOL_CALLS_CHUNKS = fixture('stream-tool-calls.json') as unknown[];

// The SDK reads OPENAI_* from process.env itself (OPENAI_LOG, OPENAI_CUSTOM_HEADERS…): none may leak in.
const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const key of Object.keys(process.env))
    if (key.startsWith('OPENAI_')) {
      saved[key] = process.env[key];
      delete process.env[key];
    }
});
afterAll(() => Object.assign(process.env, saved));

const { serve, closeAll } = fakeServers();
afterEach(closeAll);

function openai(server: FakeServer, settings: Partial<OpenAIModelSettings> = {}): Model {
  return createOpenAIModel({
    model: 'gpt-4.1-mini',
    apiKey: 'sk-test',
    baseURL: `${server.url}/v1`,
    env: {},
    retry: false,
    ...settings,
  });
}

function compatible(server: FakeServer, settings: Partial<OpenAIModelSettings> = {}): Model {
  return createOpenAICompatibleModel({
    model: 'llama3.2',
    env: {},
    retry: false,
    ...settings,
    baseURL: `${server.url}/v1`,
  });
}

async function streamAll(
  model: Model,
  request: LlmRequest,
  signal?: AbortSignal,
  wire?: WireObserver,
): Promise<ModelStreamChunk[]> {
  const chunks: ModelStreamChunk[] = [];
  for await (const chunk of model.stream?.(request, { signal, wire }) ?? []) chunks.push(chunk);
  return chunks;
}

const sse = (chunks: unknown[]): FakeReply => ({ events: [...chunks.map((data) => ({ data })), { data: '[DONE]' }] });
const completion = (message: Record<string, unknown>, finish = 'stop', usage?: unknown): unknown => ({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [
    { index: 0, message: { role: 'assistant', refusal: null, ...message }, logprobs: null, finish_reason: finish },
  ],
  ...(usage === undefined ? {} : { usage }),
});
const chunk = (delta: Record<string, unknown>, finish: string | null = null): unknown => ({
  id: 'c',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const errorBody = (message: string, type = 'invalid_request_error'): unknown => ({
  error: { message, type, param: null, code: null },
});

const TOOL_CALLS_RESPONSE: ModelResponse = {
  content: {
    role: 'model',
    parts: [
      { text: 'Let me look that up.' },
      { functionCall: { id: 'call_w', name: 'get_weather', args: { city: 'Paris', unit: 'c' } } },
      { functionCall: { id: 'call_t', name: 'get_time', args: { city: 'Paris' } } },
    ],
  },
  finishReason: 'tool_calls',
  usage: { promptTokens: 120, outputTokens: 40, cachedTokens: 64, reasoningTokens: 0, totalTokens: 160 },
};

describe('OpenAI adapter: request bodies', () => {
  it('sends the golden request as the exact Chat Completions body, with the key as a bearer token', async () => {
    const server = await serve(() => ({ json: completion({ content: 'ok' }) }));
    const before = structuredClone(GOLDEN_REQUEST);
    await openai(server).generate(GOLDEN_REQUEST);
    const [received] = server.received;
    expect(received?.method).toBe('POST');
    expect(received?.url).toBe('/v1/chat/completions');
    expect(received?.headers['authorization']).toBe('Bearer sk-test');
    expect(received?.body).toEqual(GOLDEN_BODY);
    expect(GOLDEN_REQUEST).toEqual(before);
  });

  it('streams with the same body plus the stream flags', async () => {
    const server = await serve(() => sse([chunk({ content: 'ok' }, 'stop')]));
    await streamAll(openai(server), GOLDEN_REQUEST);
    expect(server.received[0]?.url).toBe('/v1/chat/completions');
    expect(server.received[0]?.body).toEqual({ ...GOLDEN_BODY, stream: true, stream_options: { include_usage: true } });
  });

  it('sends max_tokens and its own model id to an OpenAI-compatible server, with a placeholder key', async () => {
    const server = await serve(() => ({ json: completion({ content: 'ok' }) }));
    const model = compatible(server);
    expect(model).toMatchObject({ provider: 'openai-compatible', modelId: 'llama3.2', pairsCallsById: true });
    await model.generate(GOLDEN_REQUEST);
    expect(server.received[0]?.body).toEqual(fixture('golden-request-compatible.json'));
    expect(server.received[0]?.headers['authorization']).toBe('Bearer not-needed');
    await compatible(server, { env: { OPENAI_COMPATIBLE_API_KEY: 'local-key' } }).generate(GOLDEN_REQUEST);
    expect(server.received[1]?.headers['authorization']).toBe('Bearer local-key');
  });

  it('reads the key and base URL from the env it is given', async () => {
    const server = await serve(() => ({ json: completion({ content: 'ok' }) }));
    const model = createOpenAIModel({
      model: 'gpt-4.1-mini',
      env: { OPENAI_API_KEY: 'sk-env', OPENAI_BASE_URL: `${server.url}/v1` },
      retry: false,
    });
    await model.generate(REQUEST_WITHOUT_CALL_IDS);
    expect(server.received[0]?.headers['authorization']).toBe('Bearer sk-env');
  });

  it('gives calls without ids stable ids that pair each call with its response', async () => {
    const server = await serve(() => ({ json: completion({ content: 'ok' }) }));
    const model = openai(server);
    await model.generate(REQUEST_WITHOUT_CALL_IDS);
    await model.generate(REQUEST_WITHOUT_CALL_IDS);
    expect(server.received[0]?.body).toEqual(fixture('without-call-ids-request.json'));
    expect(server.received[1]?.body).toEqual(server.received[0]?.body);
  });

  it('pairs responses without ids by name and order, and sends other user parts after the tool messages', () => {
    const messages = toOpenAIMessages([
      {
        role: 'model',
        content: [
          { functionCall: { name: 'a', args: { n: 1 } } },
          { functionCall: { name: 'b' } },
          { functionCall: { name: 'a', args: { n: 2 } } },
        ],
      },
      {
        role: 'user',
        content: [
          { text: 'here:' },
          { functionResponse: { name: 'b', response: { r: 'b' } } },
          { functionResponse: { name: 'a', response: { r: 1 } } },
          { functionResponse: { name: 'a' } },
        ],
      },
    ]);
    expect(messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_0_0', type: 'function', function: { name: 'a', arguments: '{"n":1}' } },
          { id: 'call_0_1', type: 'function', function: { name: 'b', arguments: '{}' } },
          { id: 'call_0_2', type: 'function', function: { name: 'a', arguments: '{"n":2}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0_1', content: '{"r":"b"}' },
      { role: 'tool', tool_call_id: 'call_0_0', content: '{"r":1}' },
      { role: 'tool', tool_call_id: 'call_0_2', content: '{}' },
      { role: 'user', content: 'here:' },
    ]);
  });

  it('sends image URLs as images and leaves other data out with a note; drops thought-only turns', () => {
    const messages = toOpenAIMessages([
      {
        role: 'user',
        content: [
          { fileData: { fileUri: 'https://example.com/cat.jpg' } },
          { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=', displayName: 'report.pdf' } },
          { fileData: { fileUri: 'gs://bucket/a.mp4', mimeType: 'video/mp4' } },
        ],
      },
      { role: 'model', content: [{ text: 'hidden', thought: true }] },
      { role: 'model', content: [{ text: 'Part one, ' }, { text: 'part two.' }] },
    ]);
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          { type: 'text', text: '[report.pdf (application/pdf) left out: this model API takes only text and images]' },
          { type: 'text', text: '[gs://bucket/a.mp4 (video/mp4) left out: this model API takes only text and images]' },
        ],
      },
      { role: 'assistant', content: 'Part one, part two.' },
    ]);
  });
});

describe('OpenAI adapter: responses', () => {
  it('reads a text answer with its usage', async () => {
    const usage = {
      prompt_tokens: 50,
      completion_tokens: 7,
      total_tokens: 57,
      prompt_tokens_details: { cached_tokens: 0 },
    };
    const server = await serve(() => ({ json: completion({ content: 'It is sunny.' }, 'stop', usage) }));
    expect(await openai(server).generate(GOLDEN_REQUEST)).toEqual({
      content: { role: 'model', parts: [{ text: 'It is sunny.' }] },
      finishReason: 'stop',
      usage: { promptTokens: 50, outputTokens: 7, cachedTokens: 0, totalTokens: 57 },
    });
  });

  it('reads text with parallel tool calls and usage', async () => {
    const server = await serve(() => ({ json: TOOL_CALLS_COMPLETION }));
    expect(await openai(server).generate(GOLDEN_REQUEST)).toEqual(TOOL_CALLS_RESPONSE);
  });

  it('reassembles a stream (text and arguments split across chunks, usage last) into the response generate gives', async () => {
    const server = await serve((_request, index) =>
      index === 0 ? { json: TOOL_CALLS_COMPLETION } : sse(TOOL_CALLS_CHUNKS),
    );
    const model = openai(server);
    const generated = await model.generate(GOLDEN_REQUEST);
    const chunks = await streamAll(model, GOLDEN_REQUEST);
    expect(chunks.filter((c) => c.partial)).toEqual([
      { content: { role: 'model', parts: [{ text: 'Let me ' }] }, partial: true },
      { content: { role: 'model', parts: [{ text: 'look that up.' }] }, partial: true },
    ]);
    expect(chunks.at(-1)).toEqual({ ...generated, partial: false });
    expect(chunks.filter((c) => !c.partial)).toHaveLength(1);
  });

  it('reads reasoning from compatible servers as a thought, streamed or not', async () => {
    const server = await serve((_request, index) =>
      index === 0
        ? { json: completion({ content: 'Four.', reasoning_content: 'Two plus two.' }) }
        : sse([
            chunk({ role: 'assistant', reasoning_content: 'Two plus ' }),
            chunk({ reasoning_content: 'two.' }),
            chunk({ content: 'Four.' }),
            chunk({}, 'stop'),
          ]),
    );
    const model = compatible(server);
    const expected = {
      content: { role: 'model', parts: [{ text: 'Two plus two.', thought: true }, { text: 'Four.' }] },
      finishReason: 'stop',
    };
    expect(await model.generate(REQUEST_WITHOUT_CALL_IDS)).toEqual(expected);
    const chunks = await streamAll(model, REQUEST_WITHOUT_CALL_IDS);
    expect(chunks).toEqual([
      { content: { role: 'model', parts: [{ text: 'Four.' }] }, partial: true },
      { ...expected, partial: false },
    ]);
  });

  it('keeps arguments that are not a JSON object as { _raw } for the tool check to refuse', async () => {
    expect(parseToolArguments('')).toEqual({});
    expect(parseToolArguments('null')).toEqual({});
    expect(parseToolArguments('{"a":1}')).toEqual({ a: 1 });
    expect(parseToolArguments('[1,2]')).toEqual({ _raw: '[1,2]' });
    const server = await serve(() => ({
      json: completion(
        {
          content: null,
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city": "Par' } }],
        },
        'tool_calls',
      ),
    }));
    expect((await openai(server).generate(GOLDEN_REQUEST)).content?.parts).toEqual([
      { functionCall: { id: 'c1', name: 'get_weather', args: { _raw: '{"city": "Par' } } },
    ]);
  });

  it('reports an empty answer cut by the length limit as an error, not as silence', async () => {
    const server = await serve(() => ({ json: completion({ content: '' }, 'length') }));
    expect(await openai(server).generate(GOLDEN_REQUEST)).toEqual({
      errorCode: 'length',
      errorMessage: 'The model returned no content (finish reason: length).',
      finishReason: 'length',
    });
  });
});

describe('OpenAI adapter: errors and retries', () => {
  const noWait = (delays: number[] = []) => ({ initialDelayMs: 1, sleep: async (ms: number) => void delays.push(ms) });

  it('turns a 400 into a ModelError with the provider message, not retried', async () => {
    const server = await serve(() => ({ status: 400, json: errorBody("Invalid value for 'temperature'.") }));
    const error = await openai(server, { retry: { initialDelayMs: 1 } })
      .generate(GOLDEN_REQUEST)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      code: 'model_error',
      provider: 'openai',
      status: 400,
      retryable: false,
      message: "openai 400: Invalid value for 'temperature'.",
    });
    expect(server.received).toHaveLength(1);
  });

  it('retries a 429 and succeeds, honouring Retry-After within the retry bound', async () => {
    const delays: number[] = [];
    const server = await serve((_request, index) =>
      index === 0
        ? { status: 429, json: errorBody('Rate limit reached.', 'requests'), headers: { 'retry-after': '2' } }
        : index === 1
          ? { status: 429, json: errorBody('Rate limit reached.', 'requests'), headers: { 'retry-after': '3600' } }
          : index === 2
            ? {
                status: 429,
                json: errorBody('Rate limit reached.', 'requests'),
                headers: { 'retry-after-ms': '250', 'retry-after': '1' },
              }
            : { json: completion({ content: 'ok' }) },
    );
    const response = await openai(server, { retry: { ...noWait(delays), maxDelayMs: 5000, maxRetries: 3 } }).generate(
      GOLDEN_REQUEST,
    );
    expect(response.content?.parts).toEqual([{ text: 'ok' }]);
    expect(server.received).toHaveLength(4);
    expect(delays).toEqual([2000, 5000, 250]);
  });

  it('fails after maxRetries + 1 attempts on repeated 500s', async () => {
    const server = await serve(() => ({ status: 500, json: errorBody('The server had an error.', 'server_error') }));
    const error = await openai(server, { retry: noWait() })
      .generate(GOLDEN_REQUEST)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 500, retryable: true, message: 'openai 500: The server had an error.' });
    expect(server.received).toHaveLength(3);
  });

  it('names the key on a 401 and does not retry it', async () => {
    const server = await serve(() => ({ status: 401, json: errorBody('Incorrect API key provided.') }));
    const error = await openai(server, { retry: noWait() })
      .generate(GOLDEN_REQUEST)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, retryable: false, hint: 'Check OPENAI_API_KEY.' });
    expect(server.received).toHaveLength(1);
  });

  it('treats a refused connection as retryable', async () => {
    const closed = await startFakeServer(() => ({ json: {} }));
    await closed.close();
    const error = await compatible(closed)
      .generate(GOLDEN_REQUEST)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({
      provider: 'openai-compatible',
      status: undefined,
      retryable: true,
      hint: `Is the server at ${closed.url}/v1 running?`,
    });
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
  });

  it('retries a destroyed socket, streamed or not', async () => {
    const server = await serve((_request, index) =>
      index === 0
        ? { destroy: true }
        : index === 1
          ? { json: completion({ content: 'ok' }) }
          : index === 2
            ? { destroy: true }
            : sse([chunk({ content: 'ok' }, 'stop')]),
    );
    const model = openai(server, { retry: noWait() });
    expect((await model.generate(GOLDEN_REQUEST)).content?.parts).toEqual([{ text: 'ok' }]);
    expect((await streamAll(model, GOLDEN_REQUEST)).at(-1)?.content?.parts).toEqual([{ text: 'ok' }]);
    expect(server.received).toHaveLength(4);
    const lost = await openai(await serve(() => ({ destroy: true })))
      .generate(GOLDEN_REQUEST)
      .catch((e: unknown) => e);
    expect(lost).toMatchObject({ retryable: true });
  });

  it('turns an error event inside a stream into a ModelError', async () => {
    const server = await serve(() => ({
      events: [{ data: errorBody('The server had an error while processing your request.', 'server_error') }],
    }));
    const error = await streamAll(openai(server), GOLDEN_REQUEST).catch((e: unknown) => e);
    expect(error).toMatchObject({
      retryable: true,
      message: 'openai: The server had an error while processing your request.',
    });
  });

  it('stops a call when the signal aborts, and does not retry it', async () => {
    const server = await serve(() => new Promise<FakeReply>(() => undefined));
    const controller = new AbortController();
    const pending = openai(server, { retry: noWait() })
      .generate(GOLDEN_REQUEST, { signal: controller.signal })
      .catch((e: unknown) => e);
    while (server.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await pending).toMatchObject({ retryable: false, message: 'openai: the call was cancelled' });
    expect(server.received).toHaveLength(1);
  });

  it('stops a stream when the signal aborts after its first chunk', async () => {
    const server = await serve(() => sse([chunk({ content: 'one ' }), chunk({ content: 'two' }), chunk({}, 'stop')]));
    const controller = new AbortController();
    const seen: ModelStreamChunk[] = [];
    const error = await (async () => {
      for await (const piece of openai(server).stream?.(GOLDEN_REQUEST, { signal: controller.signal }) ?? []) {
        seen.push(piece);
        controller.abort();
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: false, message: 'openai: the call was cancelled' });
    expect(seen.every((piece) => piece.partial)).toBe(true);
  });

  it('gives up on an attempt that takes too long with a retryable timeout', async () => {
    const server = await serve(() => new Promise<FakeReply>(() => undefined));
    const error = await openai(server, { retry: { timeoutMs: 50, maxRetries: 0 } })
      .generate(GOLDEN_REQUEST)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ retryable: true, message: 'openai: no answer within 50 ms' });
  });

  it('refuses to start without a key, naming OPENAI_API_KEY in one line', () => {
    const attempt = () => createOpenAIModel({ model: 'gpt-4.1-mini', env: {} });
    expect(attempt).toThrow(AgentctxError);
    expect(attempt).toThrow(
      expect.objectContaining({
        code: 'missing_credentials',
        message: 'No API key for OpenAI: OPENAI_API_KEY is not set.',
      }),
    );
    expect(() => createOpenAICompatibleModel({ model: 'llama3.2', baseURL: '' })).toThrow(
      expect.objectContaining({ code: 'usage' }),
    );
  });
});

// Usage as OpenAI reports it for a reasoning model with a cached prompt prefix.
const CACHED_REASONING_USAGE = {
  prompt_tokens: 2006,
  completion_tokens: 300,
  total_tokens: 2306,
  prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
  completion_tokens_details: {
    reasoning_tokens: 256,
    audio_tokens: 0,
    accepted_prediction_tokens: 0,
    rejected_prediction_tokens: 0,
  },
};
const CACHED_REASONING = {
  promptTokens: 2006,
  outputTokens: 300,
  cachedTokens: 1920,
  reasoningTokens: 256,
  totalTokens: 2306,
};

describe('OpenAI adapter: what it tells the wire observer', () => {
  const models = { openai, 'openai-compatible': compatible };

  it.each(Object.keys(models) as (keyof typeof models)[])(
    '%s generate: the exact body received, the endpoint, the status and the raw usage',
    async (name) => {
      const server = await serve(() => ({ json: completion({ content: 'ok' }, 'stop', CACHED_REASONING_USAGE) }));
      const { wire, seen, requests, responses } = recordWire();
      const response = await models[name](server).generate(GOLDEN_REQUEST, { wire });
      expectRecordedAsReceived(seen, server);
      expect(requests()[0]?.url).toBe(`${server.url}/v1/chat/completions`);
      expect(responses()).toEqual([{ status: 200, usage: CACHED_REASONING_USAGE }]);
      expect(response.usage).toEqual(CACHED_REASONING);
    },
  );

  it.each(Object.keys(models) as (keyof typeof models)[])(
    '%s stream: the exact body received and the usage of the last chunk',
    async (name) => {
      const server = await serve(() =>
        sse([
          chunk({ content: 'o' }),
          chunk({ content: 'k' }, 'stop'),
          {
            id: 'c',
            object: 'chat.completion.chunk',
            created: 1,
            model: 'm',
            choices: [],
            usage: CACHED_REASONING_USAGE,
          },
        ]),
      );
      const { wire, seen, requests, responses } = recordWire();
      const chunks = await streamAll(models[name](server), GOLDEN_REQUEST, undefined, wire);
      expectRecordedAsReceived(seen, server);
      expect(JSON.parse(requests()[0]?.body ?? '')).toMatchObject({
        stream: true,
        stream_options: { include_usage: true },
      });
      expect(responses()).toEqual([{ status: 200, usage: CACHED_REASONING_USAGE }]);
      expect(chunks.at(-1)?.usage).toEqual(CACHED_REASONING);
    },
  );

  it('tells each attempt under retries: a 503 answered at once, then the request that succeeded', async () => {
    const server = await serve((_request, index) =>
      index === 0
        ? { status: 503, json: errorBody('Overloaded.', 'server_error') }
        : { json: completion({ content: 'ok' }, 'stop', CACHED_REASONING_USAGE) },
    );
    const { wire, seen, requests, responses } = recordWire();
    await openai(server, { retry: { initialDelayMs: 1 } }).generate(GOLDEN_REQUEST, { wire });
    expect(requests()).toHaveLength(2);
    expectRecordedAsReceived(seen, server);
    expect(responses()).toEqual([{ status: 503 }, { status: 200, usage: CACHED_REASONING_USAGE }]);
  });

  it('keeps concurrent calls apart: each observer hears only its own call', async () => {
    const server = await serve(async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return {
        json: completion({
          content: JSON.stringify((request.body as { messages: { content: string }[] }).messages[0]?.content),
        }),
      };
    });
    const model = openai(server);
    const calls = ['first', 'second', 'third'].map((system) => ({ system, record: recordWire() }));
    await Promise.all(
      calls.map(({ system, record }) => model.generate({ ...REQUEST_WITHOUT_CALL_IDS, system }, { wire: record.wire })),
    );
    for (const { system, record } of calls) {
      expect(
        record
          .requests()
          .map((sent) => (JSON.parse(sent.body) as { messages: { content: string }[] }).messages[0]?.content),
      ).toEqual([system]);
      expect(record.responses()).toEqual([{ status: 200 }]);
    }
  });

  it('tells a call refused with an error status that status, without usage', async () => {
    const server = await serve(() => ({ status: 400, json: errorBody('Bad request.') }));
    const { wire, seen, responses } = recordWire();
    await openai(server)
      .generate(GOLDEN_REQUEST, { wire })
      .catch(() => undefined);
    expectRecordedAsReceived(seen, server);
    expect(responses()).toEqual([{ status: 400 }]);
  });
});

describe('OpenAI adapter with the runner', () => {
  const getWeather = functionTool({
    name: 'get_weather',
    description: 'Gets the weather for a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => ({ city, temperature: 18 }),
  });

  async function runOnce(server: FakeServer, streaming: boolean) {
    const runner = createRunner({
      ...testClock(),
      agents: llmAgent({ name: 'weather', instruction: 'Answer with the tool.', tools: [getWeather] }),
      model: openai(server),
      streaming,
    });
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    return describeEvents(await collect(runner, { message: 'Weather in Paris?' }));
  }

  const toolCall = (args: string) => ({
    id: 'call_abc',
    type: 'function',
    function: { name: 'get_weather', arguments: args },
  });

  it.each([false, true])('round-trips a tool call through the server (streaming: %s)', async (streaming) => {
    const server = await serve((_request, index) => {
      if (!streaming)
        return {
          json:
            index === 0
              ? completion({ content: null, tool_calls: [toolCall('{"city":"Paris"}')] }, 'tool_calls')
              : completion({ content: 'It is 18 °C in Paris.' }),
        };
      return sse(
        index === 0
          ? [
              chunk({ tool_calls: [{ index: 0, ...toolCall('{"city":') }] }),
              chunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
              chunk({}, 'tool_calls'),
            ]
          : [chunk({ content: 'It is 18 °C ' }), chunk({ content: 'in Paris.' }), chunk({}, 'stop')],
      );
    });
    const lines = await runOnce(server, streaming);
    expect(lines.filter((line) => !line.includes('(partial)'))).toEqual([
      'user: Weather in Paris?',
      'weather: call get_weather({"city":"Paris"})',
      'weather: get_weather → {"city":"Paris","temperature":18}',
      'weather: It is 18 °C in Paris.',
    ]);
    expect(lines.filter((line) => line.includes('(partial)'))).toEqual(
      streaming ? ['weather (partial): It is 18 °C ', 'weather (partial): in Paris.'] : [],
    );
    expect(server.received).toHaveLength(2);
    const second = server.received[1]?.body as { messages: unknown[] };
    expect(second.messages.slice(-3)).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [toolCall('{"city":"Paris"}')] },
      { role: 'tool', tool_call_id: 'call_abc', content: '{"city":"Paris","temperature":18}' },
    ]);
  });

  it('hands arguments that are not JSON to the tool check, which tells the model', async () => {
    const server = await serve((_request, index) => ({
      json:
        index === 0
          ? completion({ content: null, tool_calls: [toolCall('{"city": Paris}')] }, 'tool_calls')
          : completion({ content: 'Sorry.' }),
    }));
    const lines = await runOnce(server, false);
    expect(lines[2]).toMatch(/^weather: get_weather → \{"error":"Invalid arguments for tool 'get_weather': city: /);
    const tool = (server.received[1]?.body as { messages: { role: string; content: string }[] }).messages.at(-1);
    expect(tool?.role).toBe('tool');
    expect(tool?.content).toMatch(/Invalid arguments for tool 'get_weather'/);
  });
});
