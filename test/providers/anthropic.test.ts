import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import { ModelError } from '../../src/contracts/errors/model-error.js';
import type { Model, ModelCallOptions, ModelResponse, ModelStreamChunk } from '../../src/contracts/model.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createAnthropicModel, type AnthropicModelSettings } from '../../src/models/anthropic/anthropic-model.js';
import { toAnthropicRequest } from '../../src/models/anthropic/to-anthropic-request.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { fakeServers, type FakeReply, type FakeServer } from './fake-server.js';
import { GOLDEN_REQUEST, REQUEST_WITHOUT_CALL_IDS } from './golden-request.js';
import { expectRecordedAsReceived, recordWire } from './wire-recorder.js';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/providers/anthropic/${name}`, import.meta.url), 'utf8')) as unknown;
const GOLDEN_BODY = fixture('golden-request.json') as Record<string, unknown>;
const MESSAGE = fixture('message-response.json') as {
  content: { type: string; text?: string }[];
  usage: Record<string, unknown>;
};
const STREAM = fixture('stream-events.json') as { event: string; data: unknown }[];

/** What both message-response.json and stream-events.json must become. */
const EXPECTED: ModelResponse = {
  content: {
    role: 'model',
    parts: [
      { text: 'Two lookups; they can run in parallel.', thought: true, thoughtSignature: 'c2lnLTI=' },
      { text: 'Checking both at once.' },
      { functionCall: { id: 'toolu_01A', name: 'get_weather', args: { city: 'Paris', unit: 'c' } } },
      { functionCall: { id: 'toolu_01B', name: 'get_time', args: { city: 'Paris' } } },
    ],
  },
  // input 120 + cache read 300 + cache write 20
  usage: { promptTokens: 440, outputTokens: 45, cachedTokens: 300, cacheWriteTokens: 20, totalTokens: 485 },
  finishReason: 'tool_use',
};

const { serve, closeAll } = fakeServers();
afterEach(closeAll);

// Prompt caching is off here, so the bodies are the hand-written ones; anthropic-cache.test.ts has the marks.
function modelOn(server: FakeServer, settings: Partial<AnthropicModelSettings> = {}) {
  return createAnthropicModel({
    model: 'claude-test-5',
    apiKey: 'sk-ant-test',
    baseURL: server.url,
    env: {},
    retry: { initialDelayMs: 1 },
    promptCache: false,
    ...settings,
  });
}

/** A complete response as the event stream the API would send for it. */
function asEvents(message: {
  content: { type: string; text?: string }[];
  stop_reason?: string;
  usage?: { output_tokens?: number };
}): { event: string; data: unknown }[] {
  const events: { event: string; data: unknown }[] = [
    {
      event: 'message_start',
      data: { type: 'message_start', message: { ...message, content: [], stop_reason: null } },
    },
  ];
  message.content.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      });
      events.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: block.text } },
      });
    } else {
      const { input, ...start } = block as { input?: unknown };
      events.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { ...start, input: {} } },
      });
      events.push({
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) },
        },
      });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason ?? 'end_turn' },
      usage: { output_tokens: message.usage?.output_tokens ?? 1 },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

function streamOf(model: Model, request: LlmRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamChunk> {
  if (model.stream === undefined) throw new Error('the adapter should stream');
  return model.stream(request, options);
}

async function collect(stream: AsyncIterable<ModelStreamChunk>): Promise<ModelStreamChunk[]> {
  const chunks: ModelStreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function failure(promise: Promise<unknown>): Promise<ModelError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ModelError);
  return error as ModelError;
}

const ENVELOPE = (type: string, message: string) => ({
  type: 'error',
  error: { type, message },
  request_id: 'req_011',
});

describe('anthropic adapter: request body', () => {
  it('sends the golden request as exactly the hand-written body, to /v1/messages with the key and version headers', async () => {
    const server = await serve(() => ({ json: MESSAGE }));
    await modelOn(server).generate(GOLDEN_REQUEST);
    const [sent] = server.received;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/v1/messages');
    expect(sent?.body).toEqual(GOLDEN_BODY);
    // SDK 1.14 sends the key as a bearer token, not x-api-key, and pins API version 2026-10-21.
    expect(sent?.headers['authorization']).toBe('Bearer sk-ant-test');
    expect(sent?.headers['x-api-key']).toBeUndefined();
    expect(sent?.headers['anthropic-version']).toBe('2026-10-21');
    expect(sent?.headers['x-stainless-retry-count']).toBe('0');
  });

  it('sends the same body with stream: true when streaming', async () => {
    const server = await serve(() => ({ events: STREAM }));
    await collect(streamOf(modelOn(server), GOLDEN_REQUEST));
    expect(server.received[0]?.url).toBe('/v1/messages');
    expect(server.received[0]?.body).toEqual({ ...GOLDEN_BODY, stream: true });
    expect(server.received[0]?.headers['anthropic-version']).toBe('2026-10-21');
  });

  it('never sends temperature, top_p or top_k (API 2026-10-21 answers 400 to them); max_tokens falls back to the option, then 4096', () => {
    const body = toAnthropicRequest(GOLDEN_REQUEST, { model: 'm' });
    expect(Object.keys(body)).toEqual(['model', 'max_tokens', 'system', 'tools', 'messages', 'stop_sequences']);
    const bare: LlmRequest = {
      system: '',
      tools: [],
      messages: [{ role: 'user', content: [{ text: 'Hi' }] }],
      config: { model: 'ignored', temperature: 1 },
    };
    expect(toAnthropicRequest(bare, { model: 'm' })).toEqual({
      model: 'm',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    expect(toAnthropicRequest(bare, { model: 'm', maxTokens: 2000 }).max_tokens).toBe(2000);
  });

  it('maps data parts, parameterless tools and thinking by what the API accepts', () => {
    const request: LlmRequest = {
      system: 'S',
      tools: [{ name: 'now', description: 'The time.' }],
      messages: [
        {
          role: 'user',
          content: [
            { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
            { fileData: { fileUri: 'https://example.com/cat.jpg', mimeType: 'image/jpeg' } },
            { fileData: { fileUri: 'gs://bucket/cat.jpg', mimeType: 'image/jpeg' } },
            { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==', displayName: 'memo.wav' } },
            { text: '' },
          ],
        },
        {
          role: 'model',
          content: [
            { text: 'unsigned', thought: true },
            { text: 'Seen.' },
            { inlineData: { mimeType: 'image/png', data: 'iVBO' } },
          ],
        },
        { role: 'user', content: [{ text: 'Thanks' }] },
      ],
      config: {},
    };
    const body = toAnthropicRequest(request, { model: 'm' });
    expect(body.tools).toEqual([
      { name: 'now', description: 'The time.', input_schema: { type: 'object', properties: {} } },
    ]);
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
          { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          { type: 'text', text: '[gs://bucket/cat.jpg (image/jpeg) left out: Anthropic does not take this data here]' },
          { type: 'text', text: '[memo.wav (audio/wav) left out: Anthropic does not take this data here]' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Seen.' },
          { type: 'text', text: '[(image/png) left out: Anthropic does not take this data here]' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Thanks' }] },
    ]);
  });

  it('gives calls without ids stable ids, paired with their responses by order and name', async () => {
    const server = await serve(() => ({ json: MESSAGE }));
    const model = modelOn(server);
    await model.generate(REQUEST_WITHOUT_CALL_IDS);
    await model.generate(REQUEST_WITHOUT_CALL_IDS);
    const messages = [
      { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1_0', name: 'get_weather', input: { city: 'Oslo' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1_0', content: '{"temperature":3}' }] },
    ];
    expect(server.received.map((received) => (received.body as { messages: unknown }).messages)).toEqual([
      messages,
      messages,
    ]);

    const twice: LlmRequest = {
      ...REQUEST_WITHOUT_CALL_IDS,
      messages: [
        { role: 'user', content: [{ text: 'Two cities' }] },
        {
          role: 'model',
          content: [
            { functionCall: { name: 'get_weather', args: { city: 'Oslo' } } },
            { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
            { functionCall: { id: 'adk-1.x', name: 'get_time' } },
          ],
        },
        {
          role: 'user',
          content: [
            { functionResponse: { name: 'get_weather', response: { t: 3 } } },
            { functionResponse: { id: 'adk-1.x', name: 'get_time' } },
            { functionResponse: { name: 'get_weather', response: { t: 20 } } },
          ],
        },
      ],
    };
    const blocks = toAnthropicRequest(twice, { model: 'm' })
      .messages.slice(1)
      .map((message) => message.content);
    expect(blocks).toEqual([
      [
        { type: 'tool_use', id: 'toolu_1_0', name: 'get_weather', input: { city: 'Oslo' } },
        { type: 'tool_use', id: 'toolu_1_1', name: 'get_weather', input: { city: 'Rome' } },
        { type: 'tool_use', id: 'adk-1_x', name: 'get_time', input: {} },
      ],
      [
        { type: 'tool_result', tool_use_id: 'toolu_1_0', content: '{"t":3}' },
        { type: 'tool_result', tool_use_id: 'adk-1_x', content: '{}' },
        { type: 'tool_result', tool_use_id: 'toolu_1_1', content: '{"t":20}' },
      ],
    ]);
  });

  it('merges neighbouring turns of one role, drops turns left empty, and puts tool results first', () => {
    const request: LlmRequest = {
      system: '',
      tools: [],
      messages: [
        { role: 'user', content: [{ text: 'Hi' }] },
        { role: 'model', content: [{ functionCall: { id: 'c1', name: 'f', args: {} } }] },
        { role: 'user', content: [{ text: 'For context: another agent spoke.' }] },
        { role: 'user', content: [{ functionResponse: { id: 'c1', name: 'f', response: { ok: true } } }] },
        { role: 'model', content: [{ text: 'thinking without a signature', thought: true }] },
        { role: 'model', content: [{ text: 'Done.' }] },
        { role: 'model', content: [{ text: 'Anything else?' }] },
        { role: 'user', content: [{ text: 'No.' }] },
      ],
      config: {},
    };
    expect(toAnthropicRequest(request, { model: 'm' }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c1', name: 'f', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: '{"ok":true}' },
          { type: 'text', text: 'For context: another agent spoke.' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Done.' },
          { type: 'text', text: 'Anything else?' },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'No.' }] },
    ]);
  });
});

describe('anthropic adapter: responses', () => {
  it('reads text, signed thinking, parallel tool_use and usage', async () => {
    const server = await serve(() => ({ json: MESSAGE }));
    expect(await modelOn(server).generate(GOLDEN_REQUEST)).toEqual(EXPECTED);
  });

  it('reassembles a stream into the same response, showing text deltas as they come', async () => {
    const server = await serve(() => ({ events: STREAM }));
    const chunks = await collect(streamOf(modelOn(server), GOLDEN_REQUEST));
    expect(chunks.filter((chunk) => chunk.partial)).toEqual([
      { content: { role: 'model', parts: [{ text: 'Checking ' }] }, partial: true },
      { content: { role: 'model', parts: [{ text: 'both at once.' }] }, partial: true },
    ]);
    expect(chunks.at(-1)).toEqual({ ...EXPECTED, partial: false });
    expect(chunks.filter((chunk) => !chunk.partial)).toHaveLength(1);
  });

  it('fails a stream that ends before message_stop', async () => {
    const server = await serve(() => ({ events: STREAM.slice(0, 10) }));
    const error = await failure(collect(streamOf(modelOn(server, { retry: false }), GOLDEN_REQUEST)));
    expect(error.message).toContain('before message_stop');
  });

  it('counts tokens at /v1/messages/count_tokens with the mapped input', async () => {
    const server = await serve(() => ({ json: { input_tokens: 321 } }));
    expect(await modelOn(server).countTokens?.(GOLDEN_REQUEST)).toBe(321);
    const { max_tokens: _max, stop_sequences: _stop, ...input } = GOLDEN_BODY;
    expect(server.received[0]?.url).toBe('/v1/messages/count_tokens');
    expect(server.received[0]?.body).toEqual(input);
  });
});

describe('anthropic adapter: errors', () => {
  it('reports a 400 with the message from Anthropic’s error envelope, without retrying', async () => {
    const server = await serve(() => ({
      status: 400,
      json: ENVELOPE('invalid_request_error', 'messages.1.content.0: unexpected `tool_use_id`'),
    }));
    const error = await failure(modelOn(server).generate(GOLDEN_REQUEST));
    expect(error).toMatchObject({
      provider: 'anthropic',
      status: 400,
      retryable: false,
      message: 'anthropic 400: messages.1.content.0: unexpected `tool_use_id`',
    });
    expect(server.received).toHaveLength(1);
  });

  it('retries 529 overloaded and succeeds', async () => {
    const server = await serve((_request, index) =>
      index === 0 ? { status: 529, json: ENVELOPE('overloaded_error', 'Overloaded') } : { json: MESSAGE },
    );
    expect(await modelOn(server).generate(GOLDEN_REQUEST)).toEqual(EXPECTED);
    expect(server.received).toHaveLength(2);
  });

  it('fails after every attempt when the server keeps answering 500', async () => {
    const server = await serve(() => ({ status: 500, json: ENVELOPE('api_error', 'Internal server error') }));
    const error = await failure(modelOn(server).generate(GOLDEN_REQUEST));
    expect(error).toMatchObject({ status: 500, retryable: true, message: 'anthropic 500: Internal server error' });
    expect(server.received).toHaveLength(3);
  });

  it('keeps Retry-After and the key hint', async () => {
    const limited = await serve(() => ({
      status: 429,
      json: ENVELOPE('rate_limit_error', 'Slow down'),
      headers: { 'retry-after': '7' },
    }));
    expect(await failure(modelOn(limited, { retry: false }).generate(GOLDEN_REQUEST))).toMatchObject({
      status: 429,
      retryable: true,
      retryAfterSeconds: 7,
    });
    const refused = await serve(() => ({ status: 401, json: ENVELOPE('authentication_error', 'invalid x-api-key') }));
    const error = await failure(modelOn(refused).generate(GOLDEN_REQUEST));
    expect(error).toMatchObject({ status: 401, retryable: false });
    expect(error.hint).toContain('ANTHROPIC_API_KEY');
  });

  it('treats a lost connection as retryable, and retries it', async () => {
    const lost = await serve(() => ({ destroy: true }));
    expect(await failure(modelOn(lost, { retry: false }).generate(GOLDEN_REQUEST))).toMatchObject({
      retryable: true,
      status: undefined,
    });
    const flaky = await serve((_request, index) => (index === 0 ? { destroy: true } : { json: MESSAGE }));
    expect(await modelOn(flaky).generate(GOLDEN_REQUEST)).toEqual(EXPECTED);
    expect(flaky.received).toHaveLength(2);
  });

  it('retries a stream whose first event is an overloaded error', async () => {
    const server = await serve((_request, index) =>
      index === 0
        ? { events: [{ event: 'error', data: ENVELOPE('overloaded_error', 'Overloaded') }] }
        : { events: STREAM },
    );
    const chunks = await collect(streamOf(modelOn(server), GOLDEN_REQUEST));
    expect(chunks.at(-1)).toEqual({ ...EXPECTED, partial: false });
    expect(server.received).toHaveLength(2);
  });

  it('passes the abort signal to the SDK: a cancelled call fails at once and is not retried', async () => {
    const server = await serve(() => new Promise<FakeReply>(() => undefined));
    const controller = new AbortController();
    const call = modelOn(server).generate(GOLDEN_REQUEST, { signal: controller.signal });
    while (server.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await failure(call)).toMatchObject({ retryable: false, message: 'anthropic: the call was cancelled' });
    expect(server.received).toHaveLength(1);
  });

  it('fails a stream aborted after its first chunk instead of returning part of it', async () => {
    const server = await serve(() => ({ events: STREAM }));
    const controller = new AbortController();
    const seen: ModelStreamChunk[] = [];
    const run = (async () => {
      // Without withRetries: once a stream has given its first chunk, retry.ts no longer forwards the caller's signal.
      for await (const chunk of streamOf(modelOn(server, { retry: false }), GOLDEN_REQUEST, {
        signal: controller.signal,
      })) {
        seen.push(chunk);
        controller.abort();
      }
    })();
    expect(await failure(run)).toMatchObject({ retryable: false, message: 'anthropic: the call was cancelled' });
    expect(seen.every((chunk) => chunk.partial)).toBe(true);
  });

  it('needs a key: one clear error naming ANTHROPIC_API_KEY; the key and address come from env', async () => {
    const error = (() => {
      try {
        createAnthropicModel({ model: 'claude-test-5', env: {} });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(AgentctxError.isInstance(error) && error.code).toBe('missing_credentials');
    expect((error as Error).message).toContain('ANTHROPIC_API_KEY');

    const server = await serve(() => ({ json: MESSAGE }));
    const model = createAnthropicModel({
      model: 'claude-test-5',
      env: { ANTHROPIC_API_KEY: 'sk-from-env', ANTHROPIC_BASE_URL: server.url },
      retry: false,
    });
    await model.generate(GOLDEN_REQUEST);
    expect(server.received[0]?.headers['authorization']).toBe('Bearer sk-from-env');
  });
});

describe('anthropic adapter: what it tells the wire observer', () => {
  it('generate: the exact body received, the endpoint, the status and the usage as sent (cache counts included)', async () => {
    const server = await serve(() => ({ json: MESSAGE }));
    const { wire, seen, requests, responses } = recordWire();
    await modelOn(server).generate(GOLDEN_REQUEST, { wire });
    expectRecordedAsReceived(seen, server);
    expect(requests()[0]?.url).toBe(`${server.url}/v1/messages`);
    expect(responses()).toEqual([{ status: 200, usage: MESSAGE.usage }]);
  });

  it("stream: the exact body received, and message_start's usage with message_delta's final counts", async () => {
    const server = await serve(() => ({ events: STREAM }));
    const { wire, seen, requests, responses } = recordWire();
    const chunks = await collect(streamOf(modelOn(server), GOLDEN_REQUEST, { wire }));
    expectRecordedAsReceived(seen, server);
    expect(JSON.parse(requests()[0]?.body ?? '')).toMatchObject({ stream: true });
    const usageOf = (type: string) =>
      STREAM.find((event) => event.event === type)?.data as { message?: { usage: object }; usage?: object };
    const final = { ...usageOf('message_start').message?.usage, ...usageOf('message_delta').usage };
    expect(final).toEqual({
      input_tokens: 120,
      cache_creation_input_tokens: 20,
      cache_read_input_tokens: 300,
      output_tokens: 45,
    });
    expect(responses()).toEqual([{ status: 200, usage: final }]);
    expect(chunks.at(-1)?.usage).toEqual(EXPECTED.usage);
  });

  it('tells each attempt under retries: the 529, then the request that succeeded', async () => {
    const server = await serve((_request, index) =>
      index === 0 ? { status: 529, json: ENVELOPE('overloaded_error', 'Overloaded') } : { json: MESSAGE },
    );
    const { wire, seen, requests, responses } = recordWire();
    await modelOn(server).generate(GOLDEN_REQUEST, { wire });
    expect(requests()).toHaveLength(2);
    expectRecordedAsReceived(seen, server);
    expect(responses()).toEqual([{ status: 529 }, { status: 200, usage: MESSAGE.usage }]);
  });

  it('keeps concurrent calls apart: each observer hears only its own call', async () => {
    const server = await serve(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return { json: MESSAGE };
    });
    const model = modelOn(server);
    const calls = ['first', 'second', 'third'].map((system) => ({ system, record: recordWire() }));
    await Promise.all(
      calls.map(({ system, record }) => model.generate({ ...REQUEST_WITHOUT_CALL_IDS, system }, { wire: record.wire })),
    );
    for (const { system, record } of calls) {
      expect(record.requests().map((sent) => (JSON.parse(sent.body) as { system: string }).system)).toEqual([system]);
      expect(record.responses()).toEqual([{ status: 200, usage: MESSAGE.usage }]);
    }
  });
});

describe('anthropic adapter: with the runner', () => {
  it.each([false, true])(
    'runs a tool call round trip, the result going back with the call’s id (streaming %s)',
    async (streaming) => {
      const call = {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'claude-test-5',
        content: [{ type: 'tool_use', id: 'toolu_01Oslo', name: 'get_weather', input: { city: 'Oslo' } }],
        stop_reason: 'tool_use',
        usage: { input_tokens: 50, output_tokens: 12 },
      };
      const answer = {
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        model: 'claude-test-5',
        content: [{ type: 'text', text: 'It is 3 °C in Oslo.' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 80, output_tokens: 9 },
      };
      const server = await serve((request, index) => {
        const message = index === 0 ? call : answer;
        return (request.body as { stream?: boolean }).stream === true
          ? { events: asEvents(message) }
          : { json: message };
      });
      const getWeather = functionTool({
        name: 'get_weather',
        description: 'Gets the weather for a city.',
        parameters: z.object({ city: z.string() }),
        execute: ({ city }) => ({ city, temperature: 3 }),
      });
      let id = 0;
      const runner = createRunner({
        agents: llmAgent({ name: 'weather', instruction: 'Answer with the tool.', tools: [getWeather] }),
        model: modelOn(server),
        streaming,
        newId: () => `id${++id}`,
      });
      await runner.createSession({ userId: 'u1', sessionId: 's1' });
      const events = [];
      for await (const event of runner.run({ userId: 'u1', sessionId: 's1', message: 'Weather in Oslo?' }))
        if (event.partial !== true) events.push(event);
      expect(events.map((event) => event.content?.parts)).toEqual([
        [{ text: 'Weather in Oslo?' }],
        [{ functionCall: { id: 'toolu_01Oslo', name: 'get_weather', args: { city: 'Oslo' } } }],
        [{ functionResponse: { id: 'toolu_01Oslo', name: 'get_weather', response: { city: 'Oslo', temperature: 3 } } }],
        [{ text: 'It is 3 °C in Oslo.' }],
      ]);
      expect(server.received).toHaveLength(2);
      const second = server.received[1]?.body as { system: string; messages: unknown[]; tools: { name: string }[] };
      expect(second.system).toContain('Answer with the tool.');
      expect(second.tools.map((tool) => tool.name)).toEqual(['get_weather']);
      expect(second.messages).toEqual([
        { role: 'user', content: [{ type: 'text', text: 'Weather in Oslo?' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_01Oslo', name: 'get_weather', input: { city: 'Oslo' } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_01Oslo', content: '{"city":"Oslo","temperature":3}' }],
        },
      ]);
    },
  );
});
