import { describe, expect, it } from 'vitest';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import type { TokenCounter } from '../../src/contracts/tokens.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { LONG, writeLongSession } from './long-session.js';

const CHART = `/api/apps/${LONG.appName}/users/${LONG.userId}/sessions/${LONG.sessionId}/chart`;
type Chart = { calls: { index: number; total: number; billedPromptTokens: number | null }[] };

/** A store and a counter that tell how many calls were read and texts counted. */
function watched(store: SessionStoreWithCallLog) {
  const seen = { reads: 0, counted: 0 };
  const spied: SessionStoreWithCallLog = Object.create(store, {
    getModelCall: {
      value: (input: Parameters<SessionStoreWithCallLog['getModelCall']>[0]) => (
        seen.reads++, store.getModelCall(input)
      ),
    },
  });
  const counter: TokenCounter = { encoding: 'chars/4', count: (text) => (seen.counted++, Math.ceil(text.length / 4)) };
  const app = createInspectorApp({ store: spied, tokenCounter: async () => counter });
  const chart = async () => {
    Object.assign(seen, { reads: 0, counted: 0 });
    const response = await app.request(CHART, { headers: { host: '127.0.0.1' } });
    return { ...seen, chart: (await response.json()) as Chart };
  };
  return chart;
}

describe('the chart of a session opened again', () => {
  it('reads and counts only the calls that are new or still pending', async () => {
    const store = createInMemorySessionStore();
    await writeLongSession(store, 3);
    const pending = await store.recordModelCall({
      ...LONG,
      call: { ...(await store.getModelCall({ ...LONG, index: 3 }))!, status: 'pending' },
    });
    const chart = watched(store);

    const first = await chart();
    expect([first.reads, first.chart.calls.length]).toEqual([4, 4]);
    expect(first.counted).toBeGreaterThan(0);
    const second = await chart();
    expect(second.reads).toBe(1);
    expect(second.chart).toEqual(first.chart);

    await store.completeModelCall({
      ...LONG,
      index: pending,
      outcome: { status: 'answered', latencyMs: 5, usage: { promptTokens: 77 } },
    });
    const third = await chart();
    expect(third.reads).toBe(1);
    expect(third.chart.calls[3]).toMatchObject({ index: pending, billedPromptTokens: 77 });
    const fourth = await chart();
    expect([fourth.reads, fourth.counted]).toEqual([0, 0]);
    expect(fourth.chart).toEqual(third.chart);
  });

  it('counts a session deleted and run again under the same id afresh', async () => {
    const store = createInMemorySessionStore();
    await writeLongSession(store, 3);
    const chart = watched(store);
    const before = await chart();
    await store.deleteSession(LONG);
    await writeLongSession(store, 4, 1_770_000_000);
    const after = await chart();
    expect(after.reads).toBe(4);
    expect(after.chart.calls).toHaveLength(4);
    expect(after.chart.calls.slice(0, 3).map((call) => call.total)).toEqual(
      before.chart.calls.map((call) => call.total),
    );
  });
});
