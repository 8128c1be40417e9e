import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Model, ModelCallOptions, ModelResponse, ModelStreamChunk } from '../../src/contracts/model.js';
import type { LlmRequest, Message } from '../../src/contracts/request.js';
import { cloneRequest } from '../../src/engine/assembly/request-json.js';
import { createGeminiModelWithClock, type GeminiModelSettings } from '../../src/models/gemini/gemini-model.js';
import { fakeServers } from './fake-server.js';
import {
  promptTokensOf,
  startGeminiCacheServer,
  type GeminiCacheServer,
  type GeminiCacheServerOptions,
} from './gemini-cache-server.js';
import { recordWire } from './wire-recorder.js';

const MODEL = 'gemini-2.5-flash';
const GENERATE = `POST /v1beta/models/${MODEL}:generateContent`;
const CREATE = 'POST /v1beta/cachedContents';
const SYSTEM = 'You are a weather agent. Answer in one sentence.';
const TOOL = {
  name: 'get_weather',
  description: 'Gets the weather for a city.',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const SESSION = { appName: 'weather_app', userId: 'u1', sessionId: 's1' };

const SYSTEM_WIRE = { parts: [{ text: SYSTEM }] };
const TOOLS_WIRE = [
  { functionDeclarations: [{ name: TOOL.name, description: TOOL.description, parametersJsonSchema: TOOL.parameters }] },
];

const question = (n: number): Message => ({
  role: 'user',
  content: [{ text: `Question ${n}: what is the weather in city number ${n}?` }],
});
const answer = (n: number): Message => ({ role: 'model', content: [{ text: `Answer ${n}: sunny and mild.` }] });
const wire = (message: Message) => ({ role: message.role, parts: message.content });

/** The history of `turns` questions, answered up to the last one, which waits for its answer. */
function history(turns: number): Message[] {
  return Array.from({ length: turns }, (_, index) =>
    index === turns - 1 ? [question(index + 1)] : [question(index + 1), answer(index + 1)],
  ).flat();
}

function request(turns: number, system = SYSTEM): LlmRequest {
  return { system, tools: [TOOL], messages: history(turns), config: { temperature: 0.2 } };
}

/** What the runner passes: the agent, its session, and a stable prefix covering the whole request. */
function callOptions(sent: LlmRequest, extra: Partial<ModelCallOptions> = {}): ModelCallOptions {
  return {
    agentName: 'weather',
    session: SESSION,
    stablePrefix: { systemChars: sent.system.length, messages: sent.messages.length },
    ...extra,
  };
}

const { serve, closeAll } = fakeServers();
let time = 0;
const now = () => time;
beforeEach(() => {
  time = Date.UTC(2026, 11, 1, 9, 0, 0);
});
afterEach(closeAll);

async function setup(
  contextCache: GeminiModelSettings['contextCache'],
  serverOptions: Partial<GeminiCacheServerOptions> = {},
): Promise<{ server: GeminiCacheServer; model: Model }> {
  const server = await startGeminiCacheServer(serve, { now, ...serverOptions });
  const model = createGeminiModelWithClock(
    { model: MODEL, apiKey: 'test-key', baseURL: server.url, env: {}, retry: false, contextCache },
    now,
  );
  return { server, model };
}

const call = (model: Model, sent: LlmRequest, extra?: Partial<ModelCallOptions>): Promise<ModelResponse> =>
  model.generate(sent, callOptions(sent, extra));

async function lastChunk(model: Model, sent: LlmRequest): Promise<ModelStreamChunk | undefined> {
  let last: ModelStreamChunk | undefined;
  for await (const chunk of model.stream?.(sent, callOptions(sent)) ?? []) last = chunk;
  return last;
}

const uncachedBody = (sent: LlmRequest) => ({
  contents: sent.messages.map(wire),
  systemInstruction: SYSTEM_WIRE,
  tools: TOOLS_WIRE,
  generationConfig: { temperature: 0.2 },
});
const cachedBody = (name: string, contents: Message[]) => ({
  contents: contents.map(wire),
  cachedContent: name,
  generationConfig: { temperature: 0.2 },
});
const tokensOfCache = (server: GeminiCacheServer, name: string) => server.caches.get(name)?.tokens ?? Number.NaN;

describe('Gemini context cache: golden bodies', () => {
  it('creates the cache on the second request, which starts with the first; later requests name it and leave out what it holds', async () => {
    const { server, model } = await setup({});
    const sent = [request(1), request(2), request(3)];
    const before = sent.map(cloneRequest);
    const first = await call(model, sent[0] as LlmRequest);
    const second = await call(model, sent[1] as LlmRequest);
    const third = await call(model, sent[2] as LlmRequest);

    expect(server.calls()).toEqual([GENERATE, CREATE, GENERATE, GENERATE]);
    expect(server.received[1]?.body).toEqual({
      model: `models/${MODEL}`,
      ttl: '1800s',
      displayName: 'agentctx weather',
      contents: [wire(question(1)), wire(answer(1))],
      systemInstruction: SYSTEM_WIRE,
      tools: TOOLS_WIRE,
    });
    expect(server.generateBodies()).toEqual([
      uncachedBody(sent[0] as LlmRequest),
      cachedBody('cachedContents/c1', [question(2)]),
      cachedBody('cachedContents/c1', [question(2), answer(2), question(3)]),
    ]);
    expect(sent).toEqual(before);

    const cached = tokensOfCache(server, 'cachedContents/c1');
    expect(cached).toBe(promptTokensOf(server.received[1]?.body as object));
    expect(first.usage).toEqual({
      promptTokens: promptTokensOf(uncachedBody(sent[0] as LlmRequest)),
      outputTokens: 2,
      totalTokens: promptTokensOf(uncachedBody(sent[0] as LlmRequest)) + 2,
    });
    // The creating call reports the storage it started: tokens × 1800 s / 3600.
    expect(second.usage).toMatchObject({ cachedTokens: cached, cacheStorageTokenHours: cached / 2 });
    expect(second.usage?.promptTokens).toBe(cached + promptTokensOf({ contents: [wire(question(2))] }));
    expect(third.usage?.cachedTokens).toBe(cached);
    expect(third.usage?.cacheStorageTokenHours).toBeUndefined();
  });

  it('tells the wire observer only the generateContent request: the recorded body is the one the server received', async () => {
    const { server, model } = await setup({});
    await call(model, request(1));
    const recorder = recordWire();
    await call(model, request(2), { wire: recorder.wire });
    expect(server.calls()).toEqual([GENERATE, CREATE, GENERATE]);
    expect(recorder.seen.map(([kind]) => kind)).toEqual(['request', 'response']);
    expect(recorder.requests()).toEqual([
      {
        url: `${server.url}/v1beta/models/${MODEL}:generateContent`,
        method: 'POST',
        body: server.received[2]?.rawBody,
      },
    ]);
    expect(JSON.parse(recorder.requests()[0]?.body ?? '')).toMatchObject({ cachedContent: 'cachedContents/c1' });
    expect(recorder.responses()[0]?.usage).toMatchObject({
      cachedContentTokenCount: tokensOfCache(server, 'cachedContents/c1'),
    });
  });

  it('streams through the same cache, reporting the storage on the final chunk', async () => {
    const { server, model } = await setup({});
    await lastChunk(model, request(1));
    const second = await lastChunk(model, request(2));
    expect(server.calls()).toEqual([
      `POST /v1beta/models/${MODEL}:streamGenerateContent`,
      CREATE,
      `POST /v1beta/models/${MODEL}:streamGenerateContent`,
    ]);
    expect(server.generateBodies()[1]).toEqual(cachedBody('cachedContents/c1', [question(2)]));
    const cached = tokensOfCache(server, 'cachedContents/c1');
    expect(second).toMatchObject({
      partial: false,
      usage: { cachedTokens: cached, cacheStorageTokenHours: cached / 2 },
    });
  });

  it('counts the whole request as stable without a stablePrefix', async () => {
    const { server, model } = await setup({});
    await model.generate(request(1), { agentName: 'weather', session: SESSION });
    await model.generate(request(2), { agentName: 'weather', session: SESSION });
    expect(server.calls()).toEqual([GENERATE, CREATE, GENERATE]);
    expect(server.generateBodies()[1]).toEqual(cachedBody('cachedContents/c1', [question(2)]));
  });

  it('creates nothing when contextCache is absent', async () => {
    const { server, model } = await setup(undefined);
    for (const turns of [1, 2, 3]) await call(model, request(turns));
    expect(server.calls()).toEqual([GENERATE, GENERATE, GENERATE]);
    expect(server.generateBodies()).toEqual([1, 2, 3].map((turns) => uncachedBody(request(turns))));
  });

  it('has a server that refuses, as Gemini does, a request naming a cache that also sends a system instruction or tools', async () => {
    const { server, model } = await setup({});
    await call(model, request(1));
    await call(model, request(2));
    const post = (body: object) =>
      fetch(`${server.url}/v1beta/models/${MODEL}:generateContent`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    for (const extra of [
      { systemInstruction: SYSTEM_WIRE },
      { tools: TOOLS_WIRE },
      { toolConfig: { functionCallingConfig: { mode: 'AUTO' } } },
    ]) {
      const refused = await post({ ...cachedBody('cachedContents/c1', [question(2)]), ...extra });
      expect(refused.status).toBe(400);
    }
    expect((await post(cachedBody('cachedContents/c404', [question(2)]))).status).toBe(403);
  });
});

describe('Gemini context cache: lifecycle', () => {
  it('creates a cache only once the previous request reached minTokens', async () => {
    const { server: probe, model: plain } = await setup(undefined);
    const [p1, p2] = [
      (await call(plain, request(1))).usage?.promptTokens ?? 0,
      (await call(plain, request(2))).usage?.promptTokens ?? 0,
    ];
    expect(p1).toBeLessThan(p2);
    await probe.close();
    const { server, model } = await setup({ minTokens: p2 });
    for (const turns of [1, 2, 3]) await call(model, request(turns));
    // Call 2 starts with call 1, but call 1 had p1 < minTokens; call 3 starts with call 2, which had p2.
    expect(server.calls()).toEqual([GENERATE, GENERATE, CREATE, GENERATE]);
    expect((server.received[2]?.body as { contents: unknown[] }).contents).toEqual(history(3).slice(0, 4).map(wire));
    expect(server.generateBodies()[2]).toEqual(cachedBody('cachedContents/c1', [question(3)]));
  });

  it('replaces the cache after cacheIntervals uses with one of the longer conversation, then deletes the old one', async () => {
    const { server, model } = await setup({ cacheIntervals: 2 });
    const usages = [];
    const sizes: number[] = [];
    for (const turns of [1, 2, 3, 4, 5]) {
      usages.push((await call(model, request(turns))).usage);
      sizes.push(
        ...[...server.caches.values()].map((cache) => cache.tokens).filter((tokens) => !sizes.includes(tokens)),
      );
    }
    expect(server.calls()).toEqual([
      GENERATE,
      CREATE,
      GENERATE,
      GENERATE,
      CREATE,
      'DELETE /v1beta/cachedContents/c1',
      GENERATE,
      GENERATE,
    ]);
    expect((server.received[4]?.body as { contents: unknown[] }).contents).toEqual(
      history(3).concat(answer(3)).map(wire),
    );
    expect(server.generateBodies().slice(1)).toEqual([
      cachedBody('cachedContents/c1', [question(2)]),
      cachedBody('cachedContents/c1', [question(2), answer(2), question(3)]),
      cachedBody('cachedContents/c2', [question(4)]),
      cachedBody('cachedContents/c2', [question(4), answer(4), question(5)]),
    ]);
    expect([...server.caches.keys()]).toEqual(['cachedContents/c2']);
    expect(sizes).toHaveLength(2);
    expect(usages.map((usage) => usage?.cacheStorageTokenHours)).toEqual([
      undefined,
      (sizes[0] ?? 0) / 2,
      undefined,
      (sizes[1] ?? 0) / 2,
      undefined,
    ]);
  });

  it('extends a cache near the end of its TTL, and creates a new one once it has ended', async () => {
    const { server, model } = await setup({ ttlSeconds: 600 });
    const t0 = time;
    await call(model, request(1));
    await call(model, request(2));
    const tokens = tokensOfCache(server, 'cachedContents/c1');
    time = t0 + 100_000; // 500 s left: used as it is
    const used = await call(model, request(3));
    time = t0 + 500_000; // 100 s left, under the two-minute margin: extended to 600 s from now
    const extended = await call(model, request(4));
    time = t0 + 1_101_000; // past the extended end: gone, created anew, nothing to delete
    const renewed = await call(model, request(5));
    expect(server.calls()).toEqual([
      GENERATE,
      CREATE,
      GENERATE,
      GENERATE,
      'PATCH /v1beta/cachedContents/c1',
      GENERATE,
      CREATE,
      GENERATE,
    ]);
    expect(server.received[4]?.body).toEqual({ ttl: '600s' });
    expect(server.generateBodies()[3]).toEqual(cachedBody('cachedContents/c1', history(4).slice(2)));
    expect(server.generateBodies()[4]).toEqual(cachedBody('cachedContents/c2', [question(5)]));
    expect(used.usage?.cacheStorageTokenHours).toBeUndefined();
    // The extension added 500 s of storage (the end moved from t0 + 600 s to t0 + 1100 s).
    expect(extended.usage?.cacheStorageTokenHours).toBeCloseTo((tokens * 500) / 3600, 9);
    expect(renewed.usage?.cacheStorageTokenHours).toBe((tokensOfCache(server, 'cachedContents/c2') * 600) / 3600);
  });

  it('falls back to the uncached request when the create fails, and tries again cacheIntervals calls later', async () => {
    let creates = 0;
    const refuseCreate = () =>
      ++creates === 1
        ? { status: 500, json: { error: { code: 500, message: 'Internal error.', status: 'INTERNAL' } } }
        : undefined;
    const { server, model } = await setup({ cacheIntervals: 2 }, { refuseCreate });
    const responses = [];
    for (const turns of [1, 2, 3, 4]) responses.push(await call(model, request(turns)));
    expect(server.calls()).toEqual([GENERATE, CREATE, GENERATE, GENERATE, CREATE, GENERATE]);
    expect(server.generateBodies()).toEqual([
      uncachedBody(request(1)),
      uncachedBody(request(2)),
      uncachedBody(request(3)),
      cachedBody('cachedContents/c1', [question(4)]),
    ]);
    expect(responses.map((response) => response.content?.parts)).toEqual([1, 2, 3, 4].map(() => [{ text: 'ok' }]));
    expect(responses[1]?.usage?.cacheStorageTokenHours).toBeUndefined();
  });

  it('falls back when the create cannot reach the server at all', async () => {
    const { server, model } = await setup({}, { refuseCreate: () => ({ destroy: true }) });
    await call(model, request(1));
    const response = await call(model, request(2));
    expect(server.calls()).toEqual([GENERATE, CREATE, GENERATE]);
    expect(server.generateBodies()[1]).toEqual(uncachedBody(request(2)));
    expect(response.content?.parts).toEqual([{ text: 'ok' }]);
  });

  it('sends a system text with a volatile tail whole, without the cache, and keeps the cache for the next request', async () => {
    const { server, model } = await setup({});
    await call(model, request(1));
    await call(model, request(2));
    const paged = request(3, `${SYSTEM}\n\n--- BEGIN PAGE ---\nreport 7\n--- END PAGE ---`);
    await call(model, paged, { stablePrefix: { systemChars: SYSTEM.length, messages: paged.messages.length } });
    await call(model, request(4));
    expect(server.calls()).toEqual([GENERATE, CREATE, GENERATE, GENERATE, GENERATE]);
    expect(server.generateBodies()[2]).toEqual({
      ...uncachedBody(paged),
      systemInstruction: { parts: [{ text: paged.system }] },
    });
    expect(server.generateBodies()[3]).toEqual(cachedBody('cachedContents/c1', history(4).slice(2)));
  });

  it('deletes the cache once a request no longer starts with it, and caches the new prefix', async () => {
    const { server, model } = await setup({});
    await call(model, request(1));
    await call(model, request(2));
    const summary: Message = { role: 'user', content: [{ text: 'Summary: questions 1 and 2 were answered: sunny.' }] };
    const compacted = (turns: number): LlmRequest => ({
      ...request(turns),
      messages: [summary, ...history(turns).slice(4)],
    });
    await call(model, compacted(3));
    await call(model, compacted(4));
    expect(server.calls()).toEqual([
      GENERATE,
      CREATE,
      GENERATE,
      'DELETE /v1beta/cachedContents/c1',
      GENERATE,
      CREATE,
      GENERATE,
    ]);
    expect(server.generateBodies()[2]).toEqual(uncachedBody(compacted(3)));
    expect((server.received[5]?.body as { contents: unknown[] }).contents).toEqual(
      [summary, question(3), answer(3)].map(wire),
    );
    expect([...server.caches.keys()]).toEqual(['cachedContents/c2']);
  });

  it('keeps sessions and agents apart: another session or agent never names the first one’s cache', async () => {
    const { server, model } = await setup({});
    await call(model, request(1));
    await call(model, request(2));
    await call(model, request(2), { session: { ...SESSION, sessionId: 's2' } });
    await call(model, request(2), { agentName: 'other' });
    await call(model, request(3), { session: { ...SESSION, sessionId: 's2' } });
    expect(server.calls()).toEqual([GENERATE, CREATE, GENERATE, GENERATE, GENERATE, CREATE, GENERATE]);
    expect(server.generateBodies().slice(2, 4)).toEqual([uncachedBody(request(2)), uncachedBody(request(2))]);
    expect(server.generateBodies()[4]).toEqual(cachedBody('cachedContents/c2', [question(3)]));
  });

  it('forgets a cache the server no longer has, and sends the call again without it', async () => {
    const { server, model } = await setup({});
    await call(model, request(1));
    await call(model, request(2));
    server.caches.clear();
    const recorder = recordWire();
    const response = await call(model, request(3), { wire: recorder.wire });
    expect(response.content?.parts).toEqual([{ text: 'ok' }]);
    expect(server.calls().slice(3)).toEqual([GENERATE, GENERATE]);
    expect(server.generateBodies().slice(2)).toEqual([
      cachedBody('cachedContents/c1', history(3).slice(2)),
      uncachedBody(request(3)),
    ]);
    expect(recorder.responses().map((received) => received.status)).toEqual([403, 200]);
    expect(recorder.requests().at(-1)?.body).toBe(server.received.at(-1)?.rawBody);
  });

  it('does the same for a stream refused when it opens', async () => {
    const { server, model } = await setup({});
    await lastChunk(model, request(1));
    await lastChunk(model, request(2));
    server.caches.clear();
    const last = await lastChunk(model, request(3));
    expect(last).toMatchObject({ content: { role: 'model', parts: [{ text: 'ok' }] }, partial: false });
    expect(server.generateBodies().slice(2)).toEqual([
      cachedBody('cachedContents/c1', history(3).slice(2)),
      uncachedBody(request(3)),
    ]);
  });

  it('plans concurrent calls of one agent and session one at a time: one create, both name it', async () => {
    const { server, model } = await setup({});
    await call(model, request(1));
    await Promise.all([call(model, request(2)), call(model, request(2))]);
    expect(server.calls().filter((line) => line === CREATE)).toHaveLength(1);
    expect(server.generateBodies().slice(1)).toEqual([
      cachedBody('cachedContents/c1', [question(2)]),
      cachedBody('cachedContents/c1', [question(2)]),
    ]);
  });
});
