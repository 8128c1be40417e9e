import { beforeAll, describe, expect, it } from 'vitest';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { stateAtCall } from '../../src/web/state-at-call.js';
import type { Event } from '../../src/contracts/event.js';
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
    expect(eleventh.state.find((entry: { key: string }) => entry.key === 'batch-10')).toEqual({
      key: 'batch-10',
      scope: 'session',
      value: 'saved 10',
      eventId: 'e-result-10',
    });
  });

  it("leaves out what the call's own answer wrote, even one stamped before the call, and never shows temp: keys", async () => {
    const keys = (await get(`${SESSION}/calls/${SKEWED_CALL}/state`)).body.state.map(
      (entry: { key: string }) => entry.key,
    );
    expect(keys).toEqual([...batches(BATCH_COUNT), 'owner', 'user:lang']);
  });

  it('lists the final state with keys in natural order', async () => {
    const session = (await get(SESSION)).body;
    expect(session.state.map((entry: { key: string }) => entry.key)).toEqual([
      ...batches(BATCH_COUNT),
      'owner',
      'summary',
      'user:lang',
    ]);
  });

  it('answers a call the session does not have with 404', async () => {
    expect((await get(`${SESSION}/calls/99/state`)).status).toBe(404);
    expect((await get(`${SESSION}/calls/0/state`)).status).toBe(400);
    expect(
      (await get(`/api/apps/${BATCHES.appName}/users/${BATCHES.userId}/sessions/missing/calls/1/state`)).status,
    ).toBe(404);
  });
});

describe('the state at a call, for keys changed by operations', () => {
  // Events at times 1, 2, 3…; the call was sent at 3.5, so the first three are before it.
  const event = (index: number, actions: Partial<Event['actions']>): Event => ({
    id: `e-${index}`,
    invocationId: 'i-1',
    author: 'agent',
    timestamp: index,
    actions: { stateDelta: {}, artifactDelta: {}, ...actions },
  });
  const call = { timestamp: 3.5 };
  const at = (state: Record<string, unknown>, events: Event[]) =>
    Object.fromEntries(stateAtCall(state, events, call).map(({ key, ...entry }) => [key, entry]));

  it('applies the operations stored after the last value set before the call', () => {
    const events = [
      event(1, { stateDelta: { log: ['a'], count: 10 } }),
      event(2, {
        stateOps: [
          { op: 'append', key: 'log', items: ['b'] },
          { op: 'add', key: 'count', by: 5 },
        ],
      }),
      event(3, { stateOps: [{ op: 'setField', key: 'prefs', field: 'tone', value: 'dry' }] }),
      event(4, {
        stateOps: [
          { op: 'append', key: 'log', items: ['c'] },
          { op: 'add', key: 'count', by: 100 },
        ],
      }),
    ];
    const state = { log: ['a', 'b', 'c'], count: 115, prefs: { tone: 'dry' } };
    expect(at(state, events)).toEqual({
      count: { scope: 'session', value: '15', eventId: 'e-2' },
      log: { scope: 'session', value: JSON.stringify(['a', 'b'], null, 2), eventId: 'e-2' },
      // Only operations, none after the call: the value now is the value then.
      prefs: { scope: 'session', value: JSON.stringify({ tone: 'dry' }, null, 2), eventId: 'e-3' },
    });
  });

  it('takes back later adds and appends from the value now when no value was set before the call', () => {
    // `turns` and `seen` held initial values (from createSession) that no event wrote.
    const events = [
      event(1, { stateOps: [{ op: 'add', key: 'turns', by: 1 }] }),
      event(2, { stateOps: [{ op: 'append', key: 'seen', items: [{ id: 1 }] }] }),
      event(4, {
        stateOps: [
          { op: 'add', key: 'turns', by: 1 },
          { op: 'append', key: 'seen', items: [{ id: 2 }] },
        ],
      }),
      event(5, { stateOps: [{ op: 'add', key: 'turns', by: 0.5 }] }),
    ];
    expect(at({ turns: 9.5, seen: [{ id: 0 }, { id: 1 }, { id: 2 }] }, events)).toEqual({
      seen: { scope: 'session', value: JSON.stringify([{ id: 0 }, { id: 1 }], null, 2), eventId: 'e-2' },
      turns: { scope: 'session', value: '8', eventId: 'e-1' },
    });
  });

  it('says "not known" where the value then cannot be worked out, and never shows a value the key may not have had', () => {
    const events = [
      event(1, {
        stateOps: [
          { op: 'add', key: 'user:turns', by: 1 },
          { op: 'add', key: 'total', by: 1 },
          { op: 'append', key: 'tags', items: ['x'] },
        ],
      }),
      // A set after the call hides what the value was before it; an append whose items the list no longer ends with too.
      event(4, { stateDelta: { total: 0 }, stateOps: [{ op: 'append', key: 'tags', items: ['y'] }] }),
    ];
    const entries = at({ 'user:turns': 40, total: 0, tags: ['x', 'y', 'z'] }, events);
    expect(entries).toEqual({
      'user:turns': { scope: 'user', value: '', eventId: 'e-1', known: false },
      total: { scope: 'session', value: '', eventId: 'e-1', known: false },
      tags: { scope: 'session', value: '', eventId: 'e-1', known: false },
    });
  });
});
