import { beforeAll, describe, expect, it } from 'vitest';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { BATCH_COUNT, BATCHES, SKEWED_CALL, writeBatchSession } from './batch-session.js';

const SESSION = `/api/apps/${BATCHES.appName}/users/${BATCHES.userId}/sessions/${BATCHES.sessionId}`;
let app: ReturnType<typeof createInspectorApp>;

beforeAll(async () => {
  const store = createInMemorySessionStore();
  await writeBatchSession(store);
  app = createInspectorApp({ store });
});

const get = async (path: string) => {
  const response = await app.request(path, { headers: { host: '127.0.0.1' } });
  return { status: response.status, body: (await response.json()) as any };
};
const batches = (count: number) => Array.from({ length: count }, (_, batch) => `batch-${batch + 1}`);

describe('the state at a call', () => {
  it('is the state as it was when the call was sent: what the events before it wrote, nothing written after', async () => {
    const first = (await get(`${SESSION}/calls/1/state`)).body;
    expect(first.state).toEqual([
      { key: 'owner', scope: 'session', value: 'ops team', eventId: null },
      { key: 'user:lang', scope: 'user', value: 'en', eventId: null },
    ]);
    const eleventh = (await get(`${SESSION}/calls/11/state`)).body;
    expect(eleventh.call).toBe(11);
    expect(eleventh.state.map((entry: { key: string }) => entry.key)).toEqual([...batches(10), 'owner', 'user:lang']);
    expect(eleventh.state.find((entry: { key: string }) => entry.key === 'batch-10')).toEqual({ key: 'batch-10', scope: 'session', value: 'saved 10', eventId: 'e-result-10' });
  });

  it("leaves out what the call's own answer wrote, even one stamped before the call, and never shows temp: keys", async () => {
    const keys = (await get(`${SESSION}/calls/${SKEWED_CALL}/state`)).body.state.map((entry: { key: string }) => entry.key);
    expect(keys).toEqual([...batches(BATCH_COUNT), 'owner', 'user:lang']);
  });

  it('lists the final state with keys in natural order', async () => {
    const session = (await get(SESSION)).body;
    expect(session.state.map((entry: { key: string }) => entry.key)).toEqual([...batches(BATCH_COUNT), 'owner', 'summary', 'user:lang']);
  });

  it('answers a call the session does not have with 404', async () => {
    expect((await get(`${SESSION}/calls/99/state`)).status).toBe(404);
    expect((await get(`${SESSION}/calls/0/state`)).status).toBe(400);
    expect((await get(`/api/apps/${BATCHES.appName}/users/${BATCHES.userId}/sessions/missing/calls/1/state`)).status).toBe(404);
  });
});
