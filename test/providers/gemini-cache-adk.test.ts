import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ModelCallOptions } from '../../src/contracts/model.js';
import type { LlmRequest, Message } from '../../src/contracts/request.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { CONTEXT_CACHE_DEFAULTS, contextCacheConfig } from '../../src/models/gemini/context-cache-settings.js';
import { createGeminiModel, type GeminiModelSettings } from '../../src/models/gemini/index.js';
import { createGeminiModelWithClock } from '../../src/models/gemini/gemini-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { collect, testClock } from '../runner/helpers.js';
import { fakeServers } from './fake-server.js';
import { startGeminiCacheServer, type GeminiCacheServer } from './gemini-cache-server.js';

/*
 * The two faults of ADK Python's context cache manager, which agentctx must not have:
 * - adk-python #6062: with a dynamic `instruction` beside a `static_instruction`, the cache is never used;
 * - adk-python #6216: the fingerprint is recomputed over the whole, growing request and never matches again.
 */

const MODEL = 'gemini-2.5-flash';
const GENERATE = `POST /v1beta/models/${MODEL}:generateContent`;
const CREATE = 'POST /v1beta/cachedContents';
const STATIC = 'You are a weather agent. Answer in one sentence, and name the city.';

const { serve, closeAll } = fakeServers();
let time = 0;
const now = () => time;
beforeEach(() => {
  time = Date.UTC(2026, 11, 1, 9, 0, 0);
});
afterEach(closeAll);

type Body = {
  contents: { role: string; parts: { text?: string }[] }[];
  cachedContent?: string;
  systemInstruction?: { parts: { text: string }[] };
  tools?: unknown;
};
const texts = (body: Body | undefined) =>
  (body?.contents ?? []).map((content) => content.parts.map((part) => part.text ?? '').join(''));

async function cachingModel(
  contextCache: GeminiModelSettings['contextCache'] = {},
): Promise<{ server: GeminiCacheServer; settings: GeminiModelSettings }> {
  const server = await startGeminiCacheServer(serve, { now });
  return {
    server,
    settings: { model: MODEL, apiKey: 'test-key', baseURL: server.url, env: {}, retry: false, contextCache },
  };
}

describe('adk-python #6062: a dynamic instruction beside a static one', () => {
  it('still caches through the runner: the dynamic instruction is sent after the cached prefix, never cached', async () => {
    const { server, settings } = await cachingModel();
    let turn = 0;
    const agent = llmAgent({
      name: 'weather',
      staticInstruction: STATIC,
      instruction: () => `Local time: 09:0${++turn}.`,
    });
    const runner = createRunner({ ...testClock(), agents: agent, model: createGeminiModelWithClock(settings, now) });
    await runner.createSession({ userId: 'u1', sessionId: 's1' });
    for (const city of ['Paris', 'Oslo', 'Rome']) await collect(runner, { message: `Weather in ${city}?` });

    expect(server.calls()).toEqual([GENERATE, CREATE, GENERATE, GENERATE]);
    const created = server.received[1]?.body as Body;
    expect(created.systemInstruction?.parts[0]?.text).toContain(STATIC);
    expect(texts(created)).toEqual(['Weather in Paris?', 'ok']);
    const [, second, third] = server.generateBodies() as Body[];
    for (const body of [second, third]) {
      expect(body?.cachedContent).toBe('cachedContents/c1');
      expect(body?.systemInstruction).toBeUndefined();
      expect(body?.tools).toBeUndefined();
    }
    // Each call sends only what follows the cache: its own dynamic instruction included.
    expect(texts(second)).toEqual(['Local time: 09:02.', 'Weather in Oslo?']);
    expect(texts(third)).toEqual(['Weather in Oslo?', 'ok', 'Local time: 09:03.', 'Weather in Rome?']);
  });
});

describe('adk-python #6216: the fingerprint as the conversation grows', () => {
  /** Turn n as agentctx assembles it with a dynamic instruction: the history, the instruction, the new question. */
  function turnRequest(n: number): { request: LlmRequest; options: ModelCallOptions } {
    const history: Message[] = [];
    for (let index = 1; index < n; index++)
      history.push(
        { role: 'user', content: [{ text: `Q${index}` }] },
        { role: 'model', content: [{ text: `A${index}` }] },
      );
    const messages: Message[] = [
      ...history,
      { role: 'user', content: [{ text: `It is now 09:${String(n).padStart(2, '0')}.` }] },
      { role: 'user', content: [{ text: `Q${n}` }] },
    ];
    const request: LlmRequest = { system: STATIC, tools: [], messages, config: {} };
    return {
      request,
      options: {
        agentName: 'weather',
        session: { appName: 'app', userId: 'u1', sessionId: 's1' },
        stablePrefix: { systemChars: STATIC.length, messages: history.length },
      },
    };
  }

  it('keeps one cache for every later call: each starts with the prefix the cache was created from', async () => {
    const { server, settings } = await cachingModel();
    const model = createGeminiModelWithClock(settings, now);
    for (let n = 1; n <= 8; n++) {
      const { request, options } = turnRequest(n);
      await model.generate(request, options);
    }
    expect(server.calls()).toEqual([GENERATE, CREATE, ...Array.from({ length: 7 }, () => GENERATE)]);
    expect(texts(server.received[1]?.body as Body)).toEqual(['Q1', 'A1']);
    const bodies = server.generateBodies() as Body[];
    expect(bodies.slice(1).map((body) => body.cachedContent)).toEqual(
      Array.from({ length: 7 }, () => 'cachedContents/c1'),
    );
    expect(texts(bodies[1])).toEqual(['It is now 09:02.', 'Q2']);
    expect(texts(bodies[7])).toEqual([
      'Q2',
      'A2',
      'Q3',
      'A3',
      'Q4',
      'A4',
      'Q5',
      'A5',
      'Q6',
      'A6',
      'Q7',
      'A7',
      'It is now 09:08.',
      'Q8',
    ]);
  });
});

describe('contextCache settings', () => {
  it("takes ADK's defaults: minTokens 0, ttlSeconds 1800, cacheIntervals 10", () => {
    expect(CONTEXT_CACHE_DEFAULTS).toEqual({ minTokens: 0, ttlSeconds: 1800, cacheIntervals: 10 });
    expect(contextCacheConfig({})).toEqual(CONTEXT_CACHE_DEFAULTS);
    expect(contextCacheConfig({ minTokens: 4096, ttlSeconds: 60, cacheIntervals: 100 })).toEqual({
      minTokens: 4096,
      ttlSeconds: 60,
      cacheIntervals: 100,
    });
    expect(contextCacheConfig({ cacheIntervals: 1 }).cacheIntervals).toBe(1);
  });

  it('refuses what ADK refuses, with a TypeError naming the field and its range', () => {
    const make = (contextCache: unknown) => () =>
      createGeminiModel({
        model: MODEL,
        apiKey: 'k',
        env: {},
        contextCache: contextCache as GeminiModelSettings['contextCache'],
      });
    expect(make({ cacheIntervals: 0 })).toThrow(
      new TypeError('contextCache.cacheIntervals must be an integer from 1 to 100, not 0'),
    );
    expect(make({ cacheIntervals: 101 })).toThrow(
      new TypeError('contextCache.cacheIntervals must be an integer from 1 to 100, not 101'),
    );
    expect(make({ cacheIntervals: 2.5 })).toThrow(
      new TypeError('contextCache.cacheIntervals must be an integer from 1 to 100, not 2.5'),
    );
    expect(make({ ttlSeconds: 0 })).toThrow(new TypeError('contextCache.ttlSeconds must be an integer > 0, not 0'));
    expect(make({ ttlSeconds: '1800s' })).toThrow(
      new TypeError('contextCache.ttlSeconds must be an integer > 0, not "1800s"'),
    );
    expect(make({ minTokens: -1 })).toThrow(new TypeError('contextCache.minTokens must be an integer ≥ 0, not -1'));
    expect(make(true)).toThrow(TypeError);
    expect(make({})).not.toThrow();
  });
});
