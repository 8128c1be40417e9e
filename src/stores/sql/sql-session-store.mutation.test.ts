import { afterEach, describe, expect, it } from 'vitest';
import { ConflictError } from '../../contracts/errors/conflict-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { createEvent } from '../../engine/session/create-event.js';
import { createBetterSqlite3Driver } from '../sqlite/better-sqlite3-driver.js';
import type { SqlDriver, SqlExecutor, SqlParam, TransactionOptions } from './sql-driver.js';
import { createSqlSessionStore, type SqlSessionStore, type SqlSessionStoreOptions } from './sql-session-store.js';
import { mergedState, readStateRows, upsertState } from './state-rows.js';

// What the SQL session store promises beyond the shared conformance suite, each pinned so that its mutant fails:
// written from the survivors of `npm run mutate -- sql` (docs/mutation.md). SQLite in memory; the SQL is the same
// on PostgreSQL.

type Recorded = { sql: string; params: readonly SqlParam[] };

/** The real SQLite driver, recording each transaction's options and every statement. */
function recordingDriver(): {
  driver: SqlDriver;
  transactions: (TransactionOptions | undefined)[];
  statements: Recorded[];
} {
  const inner = createBetterSqlite3Driver({ path: ':memory:' });
  const transactions: (TransactionOptions | undefined)[] = [];
  const statements: Recorded[] = [];
  const recording = (executor: SqlExecutor): SqlExecutor => ({
    query: (sql, params = []) => {
      statements.push({ sql, params });
      return executor.query(sql, params);
    },
    run: (sql, params = []) => {
      statements.push({ sql, params });
      return executor.run(sql, params);
    },
  });
  const driver: SqlDriver = {
    ...recording(inner),
    dialect: inner.dialect,
    transaction: (fn, options) => {
      transactions.push(options);
      return inner.transaction((tx) => fn(recording(tx)), options);
    },
    // A write transaction like any other (no options), its statements recorded as they are issued.
    atomic: (issue) => {
      transactions.push(undefined);
      return inner.atomic((tx) => issue(recording(tx)));
    },
    close: () => inner.close(),
  };
  return { driver, transactions, statements };
}

const open: SqlSessionStore[] = [];
function store(
  options: SqlSessionStoreOptions = {},
): SqlSessionStore & { recorded: ReturnType<typeof recordingDriver> } {
  const recorded = recordingDriver();
  const created = createSqlSessionStore(recorded.driver, options);
  open.push(created);
  return Object.assign(created, { recorded });
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((created) => created.close()));
});

const APP = 'app';
let clock = 100;
const tick = () => ++clock;

describe('the SQL session store', () => {
  it('defaults to the time in seconds, random ids and the driver’s dialect as its name', async () => {
    const plain = store();
    expect(plain.name).toBe('sqlite');
    expect(store({ name: 'mine' }).name).toBe('mine');
    const before = Date.now() / 1000;
    const session = await plain.createSession({ appName: APP, userId: 'u' });
    expect(session.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(session.lastUpdateTime).toBeGreaterThanOrEqual(before - 1);
    expect(session.lastUpdateTime).toBeLessThanOrEqual(Date.now() / 1000 + 1);
    expect((await plain.createSession({ appName: APP, userId: 'u' })).id).not.toBe(session.id);
  });

  it('reads in read-only transactions, so a reader never takes the write lock', async () => {
    const created = store({ now: tick });
    await created.createSession({ appName: APP, userId: 'u', sessionId: 's' });
    created.recorded.transactions.length = 0;
    await created.getSession({ appName: APP, userId: 'u', sessionId: 's' });
    await created.listSessions({ appName: APP, userId: 'u' });
    await created.listSessions({ appName: APP });
    expect(created.recorded.transactions).toEqual([{ readOnly: true }, { readOnly: true }, { readOnly: true }]);
  });

  it('stores several keys of every scope in one write, and reads each session’s own state back in a listing', async () => {
    const created = store({ now: tick });
    const ann = await created.createSession({
      appName: APP,
      userId: 'ann',
      sessionId: 's1',
      state: { a: 1, b: 2, 'user:x': 'ann-x', 'user:y': 'ann-y', 'app:p': 1, 'app:q': 2 },
    });
    await created.createSession({ appName: APP, userId: 'ann', sessionId: 's2', state: { a: 'second', c: 3 } });
    await created.createSession({
      appName: APP,
      userId: 'bob',
      sessionId: 's1',
      state: { a: 'bob', 'user:x': 'bob-x' },
    });
    await created.appendEvent({
      session: ann,
      event: createEvent(
        { author: 'agent', actions: { stateDelta: { d: 4, e: 5, 'user:z': 'ann-z' } } },
        { now: tick },
      ),
    });

    const expectedAnn = {
      a: 1,
      b: 2,
      d: 4,
      e: 5,
      'app:p': 1,
      'app:q': 2,
      'user:x': 'ann-x',
      'user:y': 'ann-y',
      'user:z': 'ann-z',
    };
    expect((await created.getSession({ appName: APP, userId: 'ann', sessionId: 's1' }))?.state).toEqual(expectedAnn);

    const listed = await created.listSessions({ appName: APP });
    const byKey = Object.fromEntries(listed.map((session) => [`${session.userId}/${session.id}`, session.state]));
    expect(byKey).toEqual({
      'ann/s1': expectedAnn,
      'ann/s2': { a: 'second', c: 3, 'app:p': 1, 'app:q': 2, 'user:x': 'ann-x', 'user:y': 'ann-y', 'user:z': 'ann-z' },
      'bob/s1': { a: 'bob', 'app:p': 1, 'app:q': 2, 'user:x': 'bob-x' },
    });
    expect(
      (await created.listSessions({ appName: APP, userId: 'bob' })).map((session) => `${session.userId}/${session.id}`),
    ).toEqual(['bob/s1']);
  });

  it('refuses a listing for a user id no row can hold', async () => {
    const created = store({ now: tick });
    await expect(created.listSessions({ appName: APP, userId: 'u\u0000' })).rejects.toBeInstanceOf(ValidationError);
    await expect(created.listSessions({ appName: 'a\ud800' })).rejects.toBeInstanceOf(ValidationError);
  });

  it('deletes every row of a session, so a new session with the same id starts empty', async () => {
    const created = store({ now: tick });
    const first = await created.createSession({
      appName: APP,
      userId: 'u',
      sessionId: 's',
      state: { old: true, 'user:kept': 1 },
    });
    await created.appendEvent({
      session: first,
      event: createEvent({ author: 'agent', actions: { stateDelta: { older: 1 } } }, { now: tick }),
    });
    await created.deleteSession({ appName: APP, userId: 'u', sessionId: 's' });
    expect(await created.getSession({ appName: APP, userId: 'u', sessionId: 's' })).toBeUndefined();

    await created.createSession({ appName: APP, userId: 'u', sessionId: 's' });
    const again = await created.getSession({ appName: APP, userId: 'u', sessionId: 's' });
    expect(again?.events).toEqual([]);
    expect(again?.state).toEqual({ 'user:kept': 1 });
    for (const table of ['agentctx_events', 'agentctx_session_state']) {
      expect(
        created.recorded.statements.some(({ sql }) => sql.startsWith(`DELETE FROM ${table} `)),
        table,
      ).toBe(true);
    }
  });

  it('reads a window of events: none, the last n, or those at or after a time', async () => {
    const created = store({ now: tick });
    const session = await created.createSession({ appName: APP, userId: 'u', sessionId: 's' });
    for (const timestamp of [10, 20, 30, 40]) {
      await created.appendEvent({ session, event: createEvent({ id: `e${timestamp}`, author: 'agent', timestamp }) });
    }
    const ids = async (window: { numRecentEvents?: number; afterTimestamp?: number }) =>
      (await created.getSession({ appName: APP, userId: 'u', sessionId: 's', ...window }))?.events.map(
        (event) => event.id,
      );
    expect(await ids({})).toEqual(['e10', 'e20', 'e30', 'e40']);
    expect(await ids({ numRecentEvents: 0 })).toEqual([]);
    expect(await ids({ numRecentEvents: -1 })).toEqual([]);
    expect(await ids({ numRecentEvents: 2 })).toEqual(['e30', 'e40']);
    expect(await ids({ numRecentEvents: 2.7 })).toEqual(['e30', 'e40']);
    expect(await ids({ afterTimestamp: 25 })).toEqual(['e30', 'e40']);
    expect(await ids({ afterTimestamp: 30 })).toEqual(['e30', 'e40']);
    expect(await ids({ numRecentEvents: 3, afterTimestamp: 25 })).toEqual(['e30', 'e40']);
    const windowed = created.recorded.statements.filter(({ sql }) => sql.startsWith('SELECT event_json'));
    // The window is cut in SQL (a LIMIT, a time bound), not by reading the whole history and dropping most of it.
    expect(windowed.some(({ sql, params }) => /LIMIT \?/.test(sql) && params.includes(2))).toBe(true);
    expect(windowed.some(({ sql, params }) => /event_time >= \?/.test(sql) && params.includes(25))).toBe(true);
  });

  it('bumps a shared key’s version when a new session writes it, so an older copy cannot overwrite that write', async () => {
    const created = store({ now: tick });
    const first = await created.createSession({
      appName: APP,
      userId: 'u',
      sessionId: 's1',
      state: { 'user:count': 1 },
    });
    // A second session of the same user rewrites the shared key as it is created.
    await created.createSession({ appName: APP, userId: 'u', sessionId: 's2', state: { 'user:count': 5 } });
    const stale = createEvent({ author: 'agent', actions: { stateDelta: { 'user:count': 2 } } }, { now: tick });
    const error = await created.appendEvent({ session: first, event: stale }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'stale_shared_state', key: 'user:count' });
    expect((error as ConflictError).hint).toMatch(/loaded user:count at version 1, storage is at version 2/);
    expect((await created.getSession({ appName: APP, userId: 'u', sessionId: 's2' }))?.state['user:count']).toBe(5);
  });
});

describe('state rows', () => {
  it('reads rows into a record in code-unit order, whatever order the database returned them in', () => {
    const rows = ['b', 'B', 'a', 'é', 'a2'].map((key) => ({ state_key: key, value_json: JSON.stringify(key) }));
    expect(Object.keys(readStateRows(rows))).toEqual(['B', 'a', 'a2', 'b', 'é']);
    expect(Object.keys(readStateRows([...rows].reverse()))).toEqual(['B', 'a', 'a2', 'b', 'é']);
  });

  it('lists the versions of shared keys in code-unit order', () => {
    const shared = (keys: string[]) =>
      keys.map((key, index) => ({ state_key: key, value_json: '1', version: index + 1 }));
    const { versions } = mergedState([], shared(['z', 'a', 'm']), shared(['y', 'b']));
    expect(Object.keys(versions)).toEqual(['app:a', 'app:m', 'app:z', 'user:b', 'user:y']);
    expect(versions).toEqual({ 'app:a': 2, 'app:m': 3, 'app:z': 1, 'user:b': 2, 'user:y': 1 });
  });

  it('writes keys in code-unit order (two writers lock shared rows in the same order), several rows a statement', async () => {
    const statements: Recorded[] = [];
    const tx: SqlExecutor = {
      query: async () => [],
      run: async (sql, params = []) => {
        statements.push({ sql, params });
        return { changes: 1 };
      },
    };
    await upsertState(tx, 'agentctx_user_state', ['app_name', 'user_id'], ['app', 'u'], { z: 1, a: 2, m: 3 }, true);
    expect(statements).toHaveLength(1);
    const [statement] = statements;
    expect(statement?.params.filter((_, index) => index % 4 === 2)).toEqual(['a', 'm', 'z']);
    expect(statement?.sql).toMatch(/VALUES \(\?, \?, \?, \?\), \(\?, \?, \?, \?\), \(\?, \?, \?, \?\)/);
    expect(statement?.sql).toMatch(/version = agentctx_user_state\.version \+ 1/);
  });
});

describe('event windows on SQLite', () => {
  const appendAt = async (created: SqlSessionStore, timestamps: number[]) => {
    const session = await created.createSession({ appName: APP, userId: 'u', sessionId: 's' });
    for (const timestamp of timestamps)
      await created.appendEvent({ session, event: createEvent({ id: `e${timestamp}`, author: 'agent', timestamp }) });
    return async (window: { numRecentEvents?: number; afterTimestamp?: number }) =>
      (await created.getSession({ appName: APP, userId: 'u', sessionId: 's', ...window }))?.events.map(
        (event) => event.id,
      );
  };

  it('returns events in the order they were appended, even when their timestamps are not', async () => {
    // SQLite would hand rows back in event_time order (its time index) without the explicit ORDER BY seq.
    const ids = await appendAt(store({ now: tick }), [40, 10, 30, 20]);
    expect(await ids({})).toEqual(['e40', 'e10', 'e30', 'e20']);
    expect(await ids({ afterTimestamp: 15 })).toEqual(['e40', 'e30', 'e20']);
    expect(await ids({ numRecentEvents: 3 })).toEqual(['e10', 'e30', 'e20']);
  });

  it('keeps every event for a count below one, NaN or infinity, as the shared window rule does', async () => {
    const ids = await appendAt(store({ now: tick }), [10, 20, 30]);
    for (const numRecentEvents of [0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(await ids({ numRecentEvents }), String(numRecentEvents)).toEqual(['e10', 'e20', 'e30']);
    }
  });

  it('reads no event rows when no events are asked for', async () => {
    const created = store({ now: tick });
    const ids = await appendAt(created, [10, 20]);
    created.recorded.statements.length = 0;
    expect(await ids({ numRecentEvents: 0 })).toEqual([]);
    expect(await ids({ numRecentEvents: -3 })).toEqual([]);
    expect(created.recorded.statements.filter(({ sql }) => sql.includes('FROM agentctx_events'))).toEqual([]);
  });
});

describe('shared state rows on SQLite', () => {
  const sharedRows = (created: ReturnType<typeof store>, table: string) =>
    created.recorded.driver.query<{ state_key: string; value_json: string; version: number }>(
      `SELECT state_key, value_json, version FROM ${table} ORDER BY state_key`,
    );

  it('stores a created session’s many shared keys once each, at version 1 (more keys than one statement takes)', async () => {
    const created = store({ now: tick });
    const state = Object.fromEntries(
      Array.from({ length: 1201 }, (_, i) => [`user:k${String(i).padStart(4, '0')}`, i]),
    );
    const session = await created.createSession({ appName: APP, userId: 'u', sessionId: 's', state });
    const rows = await sharedRows(created, 'agentctx_user_state');
    expect(rows).toHaveLength(1201);
    expect(
      rows.every(
        (row, i) =>
          row.state_key === `k${String(i).padStart(4, '0')}` && row.value_json === String(i) && row.version === 1,
      ),
    ).toBe(true);
    expect(new Set(Object.values(session.sharedStateVersions ?? {}))).toEqual(new Set([1]));
  });

  it('bumps an app: key’s version when a session of another user rewrites it at creation', async () => {
    const created = store({ now: tick });
    const ann = await created.createSession({
      appName: APP,
      userId: 'ann',
      sessionId: 's',
      state: { 'app:mode': 'a' },
    });
    const bob = await created.createSession({
      appName: APP,
      userId: 'bob',
      sessionId: 's',
      state: { 'app:mode': 'b' },
    });
    expect(bob.sharedStateVersions).toEqual({ 'app:mode': 2 });
    expect(await sharedRows(created, 'agentctx_app_state')).toEqual([
      { state_key: 'mode', value_json: '"b"', version: 2 },
    ]);
    // Ann's copy saw version 1: her write would silently undo Bob's, so it is refused.
    const stale = createEvent({ author: 'agent', actions: { stateDelta: { 'app:mode': 'c' } } }, { now: tick });
    await expect(created.appendEvent({ session: ann, event: stale })).rejects.toMatchObject({
      code: 'stale_shared_state',
      key: 'app:mode',
    });
  });

  it('names the first stale shared key in code-unit order, whatever the delta’s order', async () => {
    const created = store({ now: tick });
    const first = await created.createSession({
      appName: APP,
      userId: 'u',
      sessionId: 's1',
      state: { 'app:a': 1, 'app:b': 1 },
    });
    const second = await created.createSession({ appName: APP, userId: 'u', sessionId: 's2' });
    await created.appendEvent({
      session: second,
      event: createEvent({ author: 'agent', actions: { stateDelta: { 'app:a': 2, 'app:b': 2 } } }, { now: tick }),
    });
    const event = createEvent({ author: 'agent', actions: { stateDelta: { 'app:b': 3, 'app:a': 3 } } }, { now: tick });
    await expect(created.appendEvent({ session: first, event })).rejects.toMatchObject({
      code: 'stale_shared_state',
      key: 'app:a',
    });
  });

  it('reports a shared key removed from storage behind a loaded copy as a conflict at version 0', async () => {
    const created = store({ now: tick });
    const session = await created.createSession({
      appName: APP,
      userId: 'u',
      sessionId: 's',
      state: { 'app:flag': true },
    });
    // An operator clears the app's shared state directly in the database.
    await created.recorded.driver.run('DELETE FROM agentctx_app_state WHERE app_name = ?', [APP]);
    const event = createEvent({ author: 'agent', actions: { stateDelta: { 'app:flag': false } } }, { now: tick });
    const error = await created.appendEvent({ session, event }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ code: 'stale_shared_state', key: 'app:flag' });
    expect((error as ConflictError).hint).toMatch(/loaded app:flag at version 1, storage is at version 0/);
  });
});

describe('an answer appended with its model call', () => {
  const call = {
    invocationId: 'inv-1',
    agent: 'a',
    timestamp: 1_700_000_000,
    request: {
      system: 'S',
      tools: [],
      messages: [{ role: 'user' as const, content: [{ text: 'q' }] }],
      config: { model: 'm' },
    },
    provenance: { system: [], tools: [], messages: [] },
    editedByCallback: false,
  };

  it('completes the recorded call in the same write, and leaves it pending when the append fails', async () => {
    const created = store({ now: tick });
    const key = { appName: APP, userId: 'u', sessionId: 's' };
    const session = await created.createSession(key);
    const stale = structuredClone(session);
    const index = await created.recordModelCall({ ...key, call });
    const answer = createEvent(
      { id: 'answer', author: 'a', content: { role: 'model', parts: [{ text: 'hi' }] } },
      { now: tick },
    );
    const outcome = { status: 'answered' as const, latencyMs: 12, responseEventId: 'answer' };

    await created.appendEvent({ session, event: answer, completeModelCall: { index, outcome } });
    expect(await created.getModelCall({ ...key, index })).toMatchObject({
      index,
      status: 'answered',
      latencyMs: 12,
      responseEventId: 'answer',
    });

    const second = await created.recordModelCall({ ...key, call });
    const late = createEvent({ id: 'late', author: 'a' }, { now: tick });
    await expect(
      created.appendEvent({ session: stale, event: late, completeModelCall: { index: second, outcome } }),
    ).rejects.toMatchObject({ code: 'stale_session' });
    expect((await created.getModelCall({ ...key, index: second }))?.status).toBe('pending');
  });
});
