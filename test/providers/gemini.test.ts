import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import { ModelError } from '../../src/contracts/errors/model-error.js';
import type { Model, ModelResponse, ModelStreamChunk, WireObserver } from '../../src/contracts/model.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { cloneRequest } from '../../src/engine/assembly/request-json.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { parseEnvelope } from '../../src/models/gemini/gemini-errors.js';
import { createGeminiModel, type GeminiModelSettings } from '../../src/models/gemini/index.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { collect, describeEvents, testClock } from '../runner/helpers.js';
import { fakeServers, type FakeReply, type FakeServer } from './fake-server.js';
import { GOLDEN_REQUEST } from './golden-request.js';
import { expectRecordedAsReceived, recordWire } from './wire-recorder.js';

const MODEL = 'gemini-2.5-flash';
const GOLDEN_BODY: unknown = JSON.parse(
  readFileSync(new URL('../fixtures/providers/gemini/golden-request.json', import.meta.url), 'utf8'),
);

const { serve, closeAll } = fakeServers();
afterEach(async () => {
  vi.unstubAllEnvs();
  await closeAll();
});

function gemini(server: FakeServer, settings: Partial<GeminiModelSettings> = {}): Model {
  return createGeminiModel({ model: MODEL, apiKey: 'test-key', baseURL: server.url, env: {}, ...settings });
}

async function drain(
  model: Model,
  request: LlmRequest,
  signal?: AbortSignal,
  wire?: WireObserver,
): Promise<ModelStreamChunk[]> {
  const chunks: ModelStreamChunk[] = [];
  for await (const chunk of model.stream?.(request, { signal, wire }) ?? []) chunks.push(chunk);
  return chunks;
}

const candidate = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
});
const TEXT_REPLY: FakeReply = {
  json: {
    ...candidate([{ text: 'Hello.' }], { finishReason: 'STOP' }),
    usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 },
  },
};

// A response with every piece the adapter reads: a thought, text with a signature, parallel calls, usage.
const FULL_RESPONSE = {
  ...candidate(
    [
      { text: 'The user wants both.', thought: true },
      { text: 'Checking both.', thoughtSignature: 'c2lnLTI=' },
      { functionCall: { id: 'fc_1', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLTM=' },
      { functionCall: { name: 'get_time', args: { city: 'Paris' } } },
    ],
    { finishReason: 'STOP' },
  ),
  usageMetadata: {
    promptTokenCount: 120,
    candidatesTokenCount: 30,
    thoughtsTokenCount: 12,
    cachedContentTokenCount: 100,
    totalTokenCount: 162,
  },
  modelVersion: MODEL,
  responseId: 'resp-1',
};

// The same response as Gemini streams it: text cut mid-part, the signature on the last piece, calls later, usage last.
const FULL_STREAM = [
  candidate([{ text: 'The user ', thought: true }]),
  candidate([{ text: 'wants both.', thought: true }, { text: 'Checking ' }]),
  {
    ...candidate([{ text: 'both.', thoughtSignature: 'c2lnLTI=' }]),
    usageMetadata: { promptTokenCount: 120, totalTokenCount: 120 },
  },
  candidate([
    { functionCall: { id: 'fc_1', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLTM=' },
  ]),
  {
    ...candidate([{ functionCall: { name: 'get_time', args: { city: 'Paris' } } }], { finishReason: 'STOP' }),
    usageMetadata: FULL_RESPONSE.usageMetadata,
  },
];

const EXPECTED: ModelResponse = {
  content: {
    role: 'model',
    parts: [
      { text: 'The user wants both.', thought: true },
      { text: 'Checking both.', thoughtSignature: 'c2lnLTI=' },
      { functionCall: { id: 'fc_1', name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2lnLTM=' },
      { functionCall: { name: 'get_time', args: { city: 'Paris' } } },
    ],
  },
  usage: { promptTokens: 120, outputTokens: 42, cachedTokens: 100, reasoningTokens: 12, totalTokens: 162 },
  finishReason: 'STOP',
};

describe('Gemini adapter: the request on the wire', () => {
  it('sends the golden request as the golden body, to generateContent, with the key header', async () => {
    const server = await serve(() => TEXT_REPLY);
    const before = cloneRequest(GOLDEN_REQUEST);
    await gemini(server).generate(GOLDEN_REQUEST);
    expect(server.received).toHaveLength(1);
    const [sent] = server.received;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(sent?.headers['x-goog-api-key']).toBe('test-key');
    expect(sent?.body).toEqual(GOLDEN_BODY);
    expect(GOLDEN_REQUEST).toEqual(before);
  });

  it('sends the same body when streaming, to streamGenerateContent?alt=sse', async () => {
    const server = await serve(() => ({ events: [{ data: candidate([{ text: 'Hi' }], { finishReason: 'STOP' }) }] }));
    await drain(gemini(server), GOLDEN_REQUEST);
    expect(server.received[0]?.url).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
    expect(server.received[0]?.headers['x-goog-api-key']).toBe('test-key');
    expect(server.received[0]?.body).toEqual(GOLDEN_BODY);
  });

  it('leaves out an empty system text, no tools and unset settings; sends displayName-free data and a tool without parameters', async () => {
    const server = await serve(() => TEXT_REPLY);
    await gemini(server).generate({
      system: '',
      tools: [{ name: 'ping', description: 'Pings.' }],
      messages: [
        {
          role: 'user',
          content: [
            { text: 'x' },
            { fileData: { fileUri: 'gs://b/f.pdf', mimeType: 'application/pdf', displayName: 'f.pdf' } },
          ],
        },
      ],
      config: { model: 'what-the-agent-named', stopSequences: [] },
    });
    expect(server.received[0]?.url).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(server.received[0]?.body).toEqual({
      contents: [
        {
          role: 'user',
          parts: [{ text: 'x' }, { fileData: { fileUri: 'gs://b/f.pdf', mimeType: 'application/pdf' } }],
        },
      ],
      tools: [{ functionDeclarations: [{ name: 'ping', description: 'Pings.' }] }],
      // The SDK always writes the generation config, empty here; the API takes it as "no settings".
      generationConfig: {},
    });
  });

  it('reads the key and base URL from env (GEMINI_API_KEY before GOOGLE_API_KEY)', async () => {
    const server = await serve(() => TEXT_REPLY);
    await createGeminiModel({
      model: MODEL,
      env: { GOOGLE_API_KEY: 'google-key', GOOGLE_GEMINI_BASE_URL: server.url },
    }).generate(GOLDEN_REQUEST);
    await createGeminiModel({
      model: MODEL,
      env: { GEMINI_API_KEY: 'gemini-key', GOOGLE_API_KEY: 'google-key', GOOGLE_GEMINI_BASE_URL: server.url },
    }).generate(GOLDEN_REQUEST);
    expect(server.received.map((request) => request.headers['x-goog-api-key'])).toEqual(['google-key', 'gemini-key']);
  });

  it("ignores the process's GOOGLE_* variables when given env, and never switches to Vertex AI", async () => {
    vi.stubEnv('GOOGLE_API_KEY', 'leaked-key');
    vi.stubEnv('GOOGLE_GEMINI_BASE_URL', 'http://127.0.0.1:9');
    vi.stubEnv('GOOGLE_GENAI_USE_VERTEXAI', 'true');
    vi.stubEnv('GOOGLE_CLOUD_PROJECT', 'some-project');
    vi.stubEnv('GOOGLE_CLOUD_LOCATION', 'us-central1');
    const server = await serve(() => TEXT_REPLY);
    await gemini(server).generate(GOLDEN_REQUEST);
    expect(server.received[0]?.url).toBe(`/v1beta/models/${MODEL}:generateContent`);
    expect(server.received[0]?.headers['x-goog-api-key']).toBe('test-key');
    expect(() => createGeminiModel({ model: MODEL, env: {} })).toThrow(/GEMINI_API_KEY/);
  });

  it('counts tokens with countTokens and the mapped contents', async () => {
    const server = await serve(() => ({ json: { totalTokens: 321 } }));
    const model = gemini(server);
    expect(await model.countTokens?.(GOLDEN_REQUEST)).toBe(321);
    expect(server.received[0]?.url).toBe(`/v1beta/models/${MODEL}:countTokens`);
    expect(server.received[0]?.body).toEqual({ contents: (GOLDEN_BODY as { contents: unknown }).contents });
  });

  it('is a Gemini model: provider google, calls paired by order and name', async () => {
    const server = await serve(() => TEXT_REPLY);
    const model = gemini(server);
    expect({ provider: model.provider, modelId: model.modelId, pairsCallsById: model.pairsCallsById }).toEqual({
      provider: 'google',
      modelId: MODEL,
      pairsCallsById: false,
    });
  });
});

describe('Gemini adapter: responses', () => {
  it('maps thoughts, signatures, parallel calls, usage and the finish reason', async () => {
    const server = await serve(() => ({ json: FULL_RESPONSE }));
    expect(await gemini(server).generate(GOLDEN_REQUEST)).toEqual(EXPECTED);
  });

  it('reassembles a stream into the same response, showing answer text as it comes', async () => {
    const server = await serve(() => ({ events: FULL_STREAM.map((data) => ({ data })) }));
    const chunks = await drain(gemini(server), GOLDEN_REQUEST);
    expect(chunks).toEqual([
      { content: { role: 'model', parts: [{ text: 'Checking ' }] }, partial: true },
      { content: { role: 'model', parts: [{ text: 'both.' }] }, partial: true },
      { ...EXPECTED, partial: false },
    ]);
  });

  it('returns a blocked prompt as an error response, not a throw', async () => {
    const blocked = {
      promptFeedback: { blockReason: 'SAFETY' },
      usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
    };
    const server = await serve((_request, index) =>
      index === 0 ? { json: blocked } : { events: [{ data: blocked }] },
    );
    const expected = {
      errorCode: 'SAFETY',
      errorMessage: 'Gemini blocked the prompt (SAFETY).',
      usage: { promptTokens: 7, totalTokens: 7 },
    };
    expect(await gemini(server).generate(GOLDEN_REQUEST)).toEqual(expected);
    expect(await drain(gemini(server), GOLDEN_REQUEST)).toEqual([{ ...expected, partial: false }]);
  });

  it('returns a candidate stopped without content as an error response, and an empty STOP as an empty answer', async () => {
    const server = await serve((_request, index) => ({
      json:
        index === 0
          ? { candidates: [{ finishReason: 'SAFETY', safetyRatings: [] }] }
          : { candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP' }] },
    }));
    const model = gemini(server);
    expect(await model.generate(GOLDEN_REQUEST)).toEqual({
      errorCode: 'SAFETY',
      errorMessage: 'Gemini returned no content (finish reason SAFETY).',
      finishReason: 'SAFETY',
    });
    expect(await model.generate(GOLDEN_REQUEST)).toEqual({ finishReason: 'STOP' });
  });
});

describe('Gemini adapter: errors', () => {
  const envelope = (code: number, message: string, status: string, details?: unknown[]) => ({
    error: { code, message, status, ...(details === undefined ? {} : { details }) },
  });

  it("fails a 400 at once with Gemini's own message", async () => {
    const server = await serve(() => ({
      status: 400,
      json: envelope(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT'),
    }));
    const error = await gemini(server)
      .generate(GOLDEN_REQUEST)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ status: 400, retryable: false, provider: 'google' });
    expect((error as ModelError).message).toBe(
      'google 400: API key not valid. Please pass a valid API key. (INVALID_ARGUMENT)',
    );
    expect(server.received).toHaveLength(1);
  });

  it('retries a 429 and succeeds', async () => {
    const server = await serve((_request, index) =>
      index === 0 ? { status: 429, json: envelope(429, 'Resource exhausted.', 'RESOURCE_EXHAUSTED') } : TEXT_REPLY,
    );
    const response = await gemini(server, { retry: { initialDelayMs: 1 } }).generate(GOLDEN_REQUEST);
    expect(response.content).toEqual({ role: 'model', parts: [{ text: 'Hello.' }] });
    expect(server.received).toHaveLength(2);
  });

  it('gives up on 503 after every attempt', async () => {
    const server = await serve(() => ({
      status: 503,
      json: envelope(503, 'The model is overloaded. Please try again later.', 'UNAVAILABLE'),
    }));
    const error = await gemini(server, { retry: { initialDelayMs: 1 } })
      .generate(GOLDEN_REQUEST)
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 503, retryable: true });
    expect((error as ModelError).message).toContain('The model is overloaded.');
    expect(server.received).toHaveLength(3);
  });

  it('retries a stream that fails before its first chunk', async () => {
    const server = await serve((_request, index) =>
      index === 0
        ? { status: 500, json: envelope(500, 'Internal error.', 'INTERNAL') }
        : { events: [{ data: candidate([{ text: 'Hi' }], { finishReason: 'STOP' }) }] },
    );
    const chunks = await drain(gemini(server, { retry: { initialDelayMs: 1 } }), GOLDEN_REQUEST);
    expect(chunks.at(-1)).toEqual({
      content: { role: 'model', parts: [{ text: 'Hi' }] },
      finishReason: 'STOP',
      partial: false,
    });
    expect(server.received).toHaveLength(2);
  });

  it('reads an error sent inside a stream', async () => {
    const server = await serve(() => ({ events: [{ data: envelope(500, 'Internal error.', 'INTERNAL') }] }));
    const error = await drain(gemini(server, { retry: false }), GOLDEN_REQUEST).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 500, retryable: true, message: 'google 500: Internal error. (INTERNAL)' });
  });

  it('treats a dropped connection as retryable, and retries it', async () => {
    const dropped = await serve(() => ({ destroy: true }));
    const error = await gemini(dropped, { retry: false })
      .generate(GOLDEN_REQUEST)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ModelError);
    expect(error).toMatchObject({ retryable: true, status: undefined });
    const flaky = await serve((_request, index) => (index === 0 ? { destroy: true } : TEXT_REPLY));
    expect((await gemini(flaky, { retry: { initialDelayMs: 1 } }).generate(GOLDEN_REQUEST)).content?.parts).toEqual([
      { text: 'Hello.' },
    ]);
    expect(flaky.received).toHaveLength(2);
  });

  it('passes the abort signal to the SDK: a cancelled call stops at once and is not retried', async () => {
    const server = await serve(() => new Promise<FakeReply>(() => undefined));
    const controller = new AbortController();
    const pending = gemini(server)
      .generate(GOLDEN_REQUEST, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    await vi.waitFor(() => expect(server.received).toHaveLength(1));
    controller.abort();
    const error = await pending;
    expect(error).toMatchObject({ retryable: false, message: 'google: the call was cancelled' });

    const streaming = new AbortController();
    const stream = drain(gemini(server, { retry: false }), GOLDEN_REQUEST, streaming.signal).catch(
      (caught: unknown) => caught,
    );
    await vi.waitFor(() => expect(server.received).toHaveLength(2));
    streaming.abort();
    expect(await stream).toMatchObject({ retryable: false, message: 'google: the call was cancelled' });
    expect(server.received).toHaveLength(2);
  });

  it('stops a stream that is being read when the caller aborts', async () => {
    const server = await serve(() => ({ events: [{ data: candidate([{ text: 'Hel' }]) }] }));
    const controller = new AbortController();
    // The abort comes after the first chunk and before the stream's end is read: the rest must not arrive.
    const model = gemini(server);
    const seen: ModelStreamChunk[] = [];
    const error = await (async () => {
      for await (const chunk of model.stream?.(GOLDEN_REQUEST, { signal: controller.signal }) ?? []) {
        seen.push(chunk);
        controller.abort();
      }
    })().catch((caught: unknown) => caught);
    expect(seen).toEqual([{ content: { role: 'model', parts: [{ text: 'Hel' }] }, partial: true }]);
    expect(error).toMatchObject({ retryable: false, message: 'google: the call was cancelled' });
  });

  it('names GEMINI_API_KEY when no key is set', () => {
    const error = (() => {
      try {
        createGeminiModel({ model: MODEL, env: {} });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(AgentctxError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'missing_credentials' });
    expect((error as Error).message).toBe('No API key for Gemini: GEMINI_API_KEY or GOOGLE_API_KEY is not set.');
  });

  it("reads Gemini's envelope: message, status name, retry delay; plain text as it is", () => {
    const retryInfo = [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '37s' }];
    expect(parseEnvelope(JSON.stringify(envelope(429, 'Quota exceeded.', 'RESOURCE_EXHAUSTED', retryInfo)))).toEqual({
      message: 'Quota exceeded. (RESOURCE_EXHAUSTED)',
      retryAfterSeconds: 37,
    });
    expect(parseEnvelope(`got status: INTERNAL. ${JSON.stringify(envelope(500, 'Boom.', 'INTERNAL'))}`)).toEqual({
      message: 'Boom. (INTERNAL)',
      retryAfterSeconds: undefined,
    });
    expect(parseEnvelope('upstream connect error')).toEqual({
      message: 'upstream connect error',
      retryAfterSeconds: undefined,
    });
  });
});

describe('Gemini adapter: what it tells the wire observer', () => {
  it('generate: the exact body received, the endpoint, the status and usageMetadata as sent (thoughts and cache included)', async () => {
    const server = await serve(() => ({ json: FULL_RESPONSE }));
    const { wire, seen, requests, responses } = recordWire();
    const response = await gemini(server).generate(GOLDEN_REQUEST, { wire });
    expectRecordedAsReceived(seen, server);
    expect(requests()[0]?.url).toBe(`${server.url}/v1beta/models/${MODEL}:generateContent`);
    expect(JSON.parse(requests()[0]?.body ?? '')).toEqual(GOLDEN_BODY);
    expect(responses()).toEqual([{ status: 200, usage: FULL_RESPONSE.usageMetadata }]);
    expect(response.usage).toEqual(EXPECTED.usage);
  });

  it('stream: the exact body received, to the stream endpoint, and the last usageMetadata sent', async () => {
    const server = await serve(() => ({ events: FULL_STREAM.map((data) => ({ data })) }));
    const { wire, seen, requests, responses } = recordWire();
    const chunks = await drain(gemini(server), GOLDEN_REQUEST, undefined, wire);
    expectRecordedAsReceived(seen, server);
    expect(requests()[0]?.url).toBe(`${server.url}/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
    expect(responses()).toEqual([{ status: 200, usage: FULL_RESPONSE.usageMetadata }]);
    expect(chunks.at(-1)?.usage).toEqual(EXPECTED.usage);
  });

  it('tells each attempt under retries: the 503, then the request that succeeded', async () => {
    const server = await serve((_request, index) =>
      index === 0
        ? { status: 503, json: { error: { code: 503, message: 'Overloaded.', status: 'UNAVAILABLE' } } }
        : { json: FULL_RESPONSE },
    );
    const { wire, seen, requests, responses } = recordWire();
    await gemini(server, { retry: { initialDelayMs: 1 } }).generate(GOLDEN_REQUEST, { wire });
    expect(requests()).toHaveLength(2);
    expectRecordedAsReceived(seen, server);
    expect(responses()).toEqual([{ status: 503 }, { status: 200, usage: FULL_RESPONSE.usageMetadata }]);
  });

  it('never tells the key: sent in its header, absent from the url and body recorded, and redacted where the text quotes it', async () => {
    const key = 'AIzaSy-gemini-test-key-0123';
    const server = await serve((request) =>
      request.url.includes(':streamGenerateContent')
        ? { events: [{ data: (TEXT_REPLY as { json: unknown }).json }] }
        : TEXT_REPLY,
    );
    const model = gemini(server, { apiKey: key });
    const { wire, seen } = recordWire();
    await model.generate(GOLDEN_REQUEST, { wire });
    await drain(model, GOLDEN_REQUEST, undefined, wire);
    expect(server.received.map((request) => request.headers['x-goog-api-key'])).toEqual([key, key]);
    expectRecordedAsReceived(seen, server);
    expect(JSON.stringify(seen)).not.toContain(key);

    const quoting = recordWire();
    await model.generate({ ...GOLDEN_REQUEST, system: `Never reveal ${key}.` }, { wire: quoting.wire });
    expect(server.received[2]?.rawBody).toContain(key);
    expect(quoting.requests()[0]?.body).toBe(server.received[2]?.rawBody.split(key).join('[redacted]'));
  });

  it('keeps concurrent calls apart, and lets calls without an observer send as before', async () => {
    const server = await serve(async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return TEXT_REPLY;
    });
    const model = gemini(server);
    const calls = ['first', 'second', 'third'].map((system) => ({ system, record: recordWire() }));
    await Promise.all([
      ...calls.map(({ system, record }) => model.generate({ ...GOLDEN_REQUEST, system }, { wire: record.wire })),
      model.generate(GOLDEN_REQUEST),
    ]);
    expect(server.received).toHaveLength(4);
    for (const { system, record } of calls) {
      expect(
        record
          .requests()
          .map(
            (sent) =>
              (JSON.parse(sent.body) as { systemInstruction: { parts: { text: string }[] } }).systemInstruction.parts[0]
                ?.text,
          ),
      ).toEqual([system]);
      expect(record.responses()).toHaveLength(1);
    }
  });
});

describe('Gemini adapter: with the runner', () => {
  const getWeather = functionTool({
    name: 'get_weather',
    description: 'Gets the weather for a city.',
    parameters: z.object({ city: z.string() }),
    execute: ({ city }) => ({ city, sky: 'sunny' }),
  });

  async function runWeather(streaming: boolean) {
    const server = await serve((_request, index) => {
      const call = {
        ...candidate([{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }], { finishReason: 'STOP' }),
        usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 5, totalTokenCount: 55 },
      };
      if (index === 0) return streaming ? { events: [{ data: call }] } : { json: call };
      if (streaming)
        return {
          events: [
            { data: candidate([{ text: 'Sunny ' }]) },
            { data: candidate([{ text: 'in Paris.' }], { finishReason: 'STOP' }) },
          ],
        };
      return { json: candidate([{ text: 'Sunny in Paris.' }], { finishReason: 'STOP' }) };
    });
    const runner = createRunner({
      ...testClock(),
      agents: llmAgent({ name: 'weather', instruction: 'Answer weather questions.', tools: [getWeather] }),
      model: gemini(server),
      streaming,
    });
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    return { server, events: await collect(runner, { message: 'Weather in Paris?' }) };
  }

  it('runs a function-call round trip: the second request carries the call and its response, ids hidden', async () => {
    const { server, events } = await runWeather(false);
    expect(describeEvents(events)).toEqual([
      'user: Weather in Paris?',
      'weather: call get_weather({"city":"Paris"})',
      'weather: get_weather → {"city":"Paris","sky":"sunny"}',
      'weather: Sunny in Paris.',
    ]);
    expect(events[1]?.usage).toEqual({ promptTokens: 50, outputTokens: 5, totalTokens: 55 });
    const first = server.received[0]?.body as {
      systemInstruction: unknown;
      tools: { functionDeclarations: { parametersJsonSchema: unknown }[] }[];
    };
    expect(first.systemInstruction).toEqual({
      parts: [{ text: expect.stringContaining('Answer weather questions.') }],
    });
    expect(first.tools[0]?.functionDeclarations[0]?.parametersJsonSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
    expect((server.received[1]?.body as { contents: unknown }).contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'get_weather', response: { city: 'Paris', sky: 'sunny' } } }],
      },
    ]);
  });

  it('streams through the runner: partial events first, then the stored answer', async () => {
    const { server, events } = await runWeather(true);
    expect(describeEvents(events).slice(-3)).toEqual([
      'weather (partial): Sunny ',
      'weather (partial): in Paris.',
      'weather: Sunny in Paris.',
    ]);
    expect(server.received[1]?.url).toBe(`/v1beta/models/${MODEL}:streamGenerateContent?alt=sse`);
  });
});

describe('Gemini adapter: boundaries', () => {
  it('keeps @google/genai inside gemini-model.ts', () => {
    const folder = new URL('../../src/models/gemini/', import.meta.url);
    const importers = readdirSync(folder).filter((name) =>
      /from '@google\/genai'/.test(readFileSync(new URL(name, folder), 'utf8')),
    );
    expect(importers).toEqual(['gemini-model.ts']);
  });
});
