import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelCallRecord } from '../../src/contracts/model-call.js';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import type { SessionKey } from '../../src/contracts/session.js';
import type { TokenCounter } from '../../src/contracts/tokens.js';
import { explainSessionCache } from '../../src/analysis/cache/explain-cache.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { loadTokenCounter } from '../../src/engine/tokens/token-counter.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { CACHE_CALLS, CACHED, writeCacheSession } from '../support/cache-session.js';
import { EDITED, writeEditedSession } from './edited-session.js';
import { LONG, writeLongSession } from './long-session.js';
import { getJson, sessionPath } from './api-requests.js';

let dir: string;
let store: SessionStoreWithCallLog;
let app: ReturnType<typeof createInspectorApp>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-web-cache-'));
  store = createSqliteSessionStore({ path: join(dir, 'agentctx.db') });
  await writeCacheSession(store);
  await writeEditedSession(store);
  app = createInspectorApp({
    store,
    version: 'test',
    onError: (error) => {
      throw error;
    },
  });
}, 60_000);
afterAll(async () => {
  await store?.close();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

const path = sessionPath;
const json = getJson;
const records = async (on: SessionStoreWithCallLog, key: SessionKey) =>
  Promise.all(
    (await on.listModelCalls(key)).map(
      async (call) => (await on.getModelCall({ ...key, index: call.index })) as ModelCallRecord,
    ),
  );

describe('the inspector API on the prompt cache', () => {
  it('names the cause of every cache miss of a session, as explainSessionCache does with the local tokenizer', async () => {
    const report = await json(app, `${path(CACHED)}/cache`);
    expect(report).toMatchObject({
      appName: CACHED.appName,
      userId: CACHED.userId,
      sessionId: CACHED.sessionId,
      tokenizer: 'o200k_base',
    });
    const lines = report.calls.map((call: any) => ({
      index: call.index,
      ...(call.explanation === undefined ? {} : { previous: call.explanation.previous }),
      ...(call.explanation?.difference === undefined
        ? {}
        : {
            where: call.explanation.difference.location.where,
            kind: call.explanation.difference.cause.kind,
            text: call.explanation.difference.cause.text,
          }),
    }));
    expect(lines).toEqual(CACHE_CALLS);
    for (const call of report.calls.slice(1, 4))
      expect(call.explanation.tokens.rebilled, `call ${call.index}`).toBeGreaterThan(0);
    // The tools come first: reordering them re-bills all of the previous prefix.
    expect(report.calls[3].explanation.tokens).toMatchObject({
      kept: 0,
      rebilled: report.calls[3].explanation.tokens.prefix,
    });
    expect(report.calls[4].explanation).toMatchObject({ kept: true, tokens: { rebilled: 0 } });
    expect(report.totals).toMatchObject({ calls: 5, first: 1, kept: 1, changed: 3 });
    // Exactly the engine's report, counted with the same tokenizer.
    const counter = await loadTokenCounter();
    const expected = explainSessionCache(await records(store, CACHED), (text) => counter.count(text));
    expect({ calls: report.calls, totals: report.totals }).toEqual(JSON.parse(JSON.stringify(expected)));
    // Asked again, the same answer from memory.
    expect(await json(app, `${path(CACHED)}/cache`)).toEqual(report);
  });

  it("gives each call view its explanation, or first: true for its agent's first call", async () => {
    const report = await json(app, `${path(CACHED)}/cache`);
    expect((await json(app, `${path(CACHED)}/calls/1`)).cache).toEqual({ first: true });
    const second = (await json(app, `${path(CACHED)}/calls/2`)).cache;
    expect(second).toEqual(report.calls[1].explanation);
    expect(second.difference).toMatchObject({
      location: { where: 'system' },
      cause: {
        kind: 'substitution-changed',
        substitution: {
          placeholder: '{current_time}',
          key: 'current_time',
          previousValue: '09:00',
          currentValue: '09:05',
        },
      },
      excerpt: {
        before: expect.stringMatching(/The time is 09:0$/),
        previous: expect.stringMatching(/^0\. Be brief\./),
        current: expect.stringMatching(/^5\. Be brief\./),
      },
    });
    expect((await json(app, `${path(CACHED)}/calls/3`)).cache.difference.cause).toMatchObject({
      kind: 'page-added',
      currentSource: { kind: 'page' },
    });
    expect((await json(app, `${path(CACHED)}/calls/4`)).cache.difference.cause.order.current).toEqual([
      'lookup',
      'tick',
      'get_items',
      'save_result',
      'list_results',
    ]);
    expect((await json(app, `${path(CACHED)}/calls/5`)).cache).toMatchObject({ previous: 4, current: 5, kept: true });
    // A fresh inspector explains a call view without the session's report first.
    const fresh = createInspectorApp({
      store,
      onError: (error) => {
        throw error;
      },
    });
    expect((await json(fresh, `${path(CACHED)}/calls/3`)).cache).toEqual(report.calls[2].explanation);
  });

  it('explains nested, aborted and pending calls and a recording whose provenance does not line up, each against its own lane', async () => {
    const report = await json(app, `${path(EDITED)}/cache`);
    // Call 2 is the researcher's, inside a tool call of call 1: the first of its lane.
    expect(report.calls.map((call: any) => [call.index, call.agent, call.explanation?.previous ?? null])).toEqual([
      [1, 'coordinator', null],
      [2, 'researcher', null],
      [3, 'coordinator', 1],
      [4, 'coordinator', 3],
      [5, 'coordinator', 4],
    ]);
    expect(report.totals).toMatchObject({ calls: 5, first: 2 });
    for (const index of [1, 2, 3, 4, 5])
      expect((await json(app, `${path(EDITED)}/calls/${index}`)).cache).toEqual(
        report.calls[index - 1].explanation ?? { first: true },
      );
  });

  it('reads and counts a 500-call session once, each distinct text once, and nothing when it is opened again', async () => {
    const memory = createInMemorySessionStore();
    await writeLongSession(memory, 500);
    const seen = { reads: 0, counted: 0, texts: new Set<string>() };
    const spied: SessionStoreWithCallLog = Object.create(memory, {
      getModelCall: {
        value: (input: Parameters<SessionStoreWithCallLog['getModelCall']>[0]) => (
          seen.reads++, memory.getModelCall(input)
        ),
      },
    });
    const counter: TokenCounter = {
      encoding: 'chars/4',
      count: (text) => (seen.counted++, seen.texts.add(text), Math.ceil(text.length / 4)),
    };
    const long = createInspectorApp({
      store: spied,
      tokenCounter: async () => counter,
      onError: (error) => {
        throw error;
      },
    });
    const started = performance.now();
    const first = await json(long, `${path(LONG)}/cache`);
    const elapsed = performance.now() - started;
    expect(first.calls).toHaveLength(500);
    expect(seen.reads).toBe(500);
    expect(seen.counted).toBe(seen.texts.size);
    expect(elapsed).toBeLessThan(10_000);
    // Every call keeps the prefix but those right after a compaction, whose history was summarized.
    expect(
      first.calls.filter((call: any) => call.explanation?.difference !== undefined).map((call: any) => call.index),
    ).toEqual([51, 101, 151, 201, 251, 301, 351, 401, 451]);
    expect(first.calls[50].explanation.difference.cause.kind).toBe('compaction');
    expect(first).toMatchObject({ tokenizer: 'chars/4', totals: { calls: 500, first: 1, kept: 490, changed: 9 } });
    expect({ calls: first.calls, totals: first.totals }).toEqual(
      JSON.parse(JSON.stringify(explainSessionCache(await records(memory, LONG), counter.count))),
    );

    Object.assign(seen, { reads: 0, counted: 0 });
    expect(await json(long, `${path(LONG)}/cache`)).toEqual(first);
    expect([seen.reads, seen.counted]).toEqual([0, 0]);
    // A call view reads its own call only, and counts its request (the cache entry is already known).
    expect((await json(long, `${path(LONG)}/calls/500`)).cache).toEqual(first.calls[499].explanation);
    expect(seen.reads).toBe(1);
  });

  it('answers whatever a client sends with 4xx, never 500', async () => {
    const base = path(CACHED);
    const missing = `/api/apps/${CACHED.appName}/users/${CACHED.userId}/sessions/missing`;
    for (const url of [
      `${missing}/cache`,
      `${base}/cache/more`,
      `${base}/cache/1`,
      `${base}/calls/6`,
      `${base}/calls/0`,
      `${missing}/calls/1`,
      '/api/apps/%E0%A4%A/users/%ZZ/sessions/%/cache',
      '/api/apps//users//sessions//cache',
    ]) {
      const response = await app.request(url, { headers: { host: '127.0.0.1' } });
      expect(response.status, url).toBeGreaterThanOrEqual(400);
      expect(response.status, url).toBeLessThan(500);
    }
    expect((await app.request(`${missing}/cache`, { headers: { host: '127.0.0.1' } })).status).toBe(404);
    for (const url of [`${base}/cache?x=%ZZ`, `${base}/cache?call=abc`])
      expect((await app.request(url, { headers: { host: '127.0.0.1' } })).status, url).toBe(200);
    const refused = await app.request(`${base}/cache`, { method: 'POST', headers: { host: '127.0.0.1' } });
    expect(refused.status).toBe(405);
  });
});
