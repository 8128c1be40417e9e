// How long the token chart of a 500-call session takes to answer: the first request counts every call, a second one
// (the server warm) must come from what the first counted. The numbers are printed; CHART_SPEED_CALLS changes the size.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { loadTokenCounter } from '../../src/engine/tokens/token-counter.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { LONG, writeLongSession } from './long-session.js';

const CALLS = Number(process.env['CHART_SPEED_CALLS'] ?? 500);
const CHART = `/api/apps/${LONG.appName}/users/${LONG.userId}/sessions/${LONG.sessionId}/chart`;

describe(`the token chart of a ${CALLS}-call session`, () => {
  let dir: string;
  let store: SessionStore;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentctx-chart-speed-'));
    store = createSqliteSessionStore({ path: join(dir, 'agentctx.db') });
    await writeLongSession(store, CALLS);
  }, 120_000);
  afterAll(async () => {
    await store?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('answers a second request from the counts of the first', async () => {
    // The tokenizer loads once per process, on first use: timed apart from the counting.
    const loading = performance.now();
    await loadTokenCounter();
    const tokenizerMs = performance.now() - loading;
    const app = createInspectorApp({ store });
    const timed = async () => {
      const started = performance.now();
      const response = await app.request(CHART, { headers: { host: '127.0.0.1' } });
      const body = (await response.json()) as { calls: { total: number }[] };
      return { ms: performance.now() - started, body };
    };
    const first = await timed();
    const second = await timed();
    const third = await timed();
    console.log(`chart of ${CALLS} calls: tokenizer load ${tokenizerMs.toFixed(0)} ms, first request ${first.ms.toFixed(0)} ms, second ${second.ms.toFixed(0)} ms, third ${third.ms.toFixed(0)} ms`);
    expect(first.body.calls).toHaveLength(CALLS);
    expect(second.body).toEqual(first.body);
    // Measured at about 12 ms (the first request: about 500 ms); the bound leaves room for a slow machine.
    expect(second.ms).toBeLessThan(300);
  }, 120_000);
});
