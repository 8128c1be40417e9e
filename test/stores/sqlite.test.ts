import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { EventInput } from '../../src/contracts/event.js';
import type { StoreClock } from '../../src/contracts/session-store.js';
import type { Session } from '../../src/contracts/session.js';
import { createEvent } from '../../src/engine/session/create-event.js';
import { migrate, MIGRATIONS, SCHEMA_VERSION } from '../../src/stores/sql/migrations.js';
import type { SqlArtifactStore } from '../../src/stores/sql/sql-artifact-store.js';
import {
  numberPlaceholders,
  type SqlDriver,
  type SqlExecutor,
  type SqlParam,
} from '../../src/stores/sql/sql-driver.js';
import { createSqlSessionStore, type SqlSessionStore } from '../../src/stores/sql/sql-session-store.js';
import { createBetterSqlite3Driver } from '../../src/stores/sqlite/better-sqlite3-driver.js';
import {
  createSqliteArtifactStore,
  createSqliteSessionStore,
  type SqliteSessionStoreOptions,
} from '../../src/stores/sqlite/create-sqlite-store.js';
import { testArtifactStore, testModelCallLog, testSessionStore } from '../../src/testing/conformance/index.js';

const dirs: string[] = [];
const opened: SqlSessionStore[] = [];
async function newPath(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'agentctx-sqlite-'));
  dirs.push(dir);
  return join(dir, 'nested', 'agentctx.db');
}
function open(options: SqliteSessionStoreOptions): SqlSessionStore {
  const store = createSqliteSessionStore(options);
  opened.push(store);
  return store;
}
const openedArtifacts: SqlArtifactStore[] = [];
function openArtifacts(options: { path: string }): SqlArtifactStore {
  const store = createSqliteArtifactStore(options);
  openedArtifacts.push(store);
  return store;
}
afterAll(async () => {
  await Promise.all([...opened, ...openedArtifacts].map((store) => store.close()));
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

// Each suite of both contracts runs on the same stores: in memory, and on a file its twin opens again.
const memoryStores = { name: 'sqlite :memory:', create: (clock: StoreClock) => open({ path: ':memory:', ...clock }) };
// The file of each store the suite makes, so its twin can open the same one.
const pathOf = new Map<object, string>();
const fileStores = {
  name: 'sqlite file',
  create: async (clock: StoreClock) => {
    const path = await newPath();
    const store = open({ path, ...clock });
    pathOf.set(store, path);
    return store;
  },
  twin: (store: object) => open({ path: pathOf.get(store) as string }),
};
for (const stores of [memoryStores, fileStores]) {
  testSessionStore(stores);
  testModelCallLog(stores);
}
testArtifactStore({ name: 'sqlite :memory:', create: () => openArtifacts({ path: ':memory:' }) });
testArtifactStore({ name: 'sqlite file', create: async () => openArtifacts({ path: await newPath() }) });

let counter = 0;
const event = (input: Partial<EventInput> = {}) =>
  createEvent({ author: 'user', invocationId: 'inv-1', ...input }, { newId: () => `ev-${++counter}` });
const key = { appName: 'app', userId: 'u1', sessionId: 's1' };

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return AgentctxError.isInstance(error) ? error.code : `not an AgentctxError: ${String(error)}`;
}

/** Every row of every table, read directly from the file. */
function dumpTables(path: string): Record<string, unknown[]> {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as {
      name: string;
    }[];
    return Object.fromEntries(tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}"`).all()]));
  } finally {
    db.close();
  }
}

describe('sqlite session store', () => {
  it('never writes a temp: key or its value anywhere in the file', async () => {
    const path = await newPath();
    const store = open({ path });
    const session = await store.createSession({ ...key, state: { 'temp:init': 'TEMP-SECRET-1', kept: 1 } });
    await store.appendEvent({
      session,
      event: event({ actions: { stateDelta: { 'temp:scratch': 'TEMP-SECRET-2', 'user:seen': true } } }),
    });
    await store.appendEvent({
      session,
      event: event({ actions: { stateDelta: { 'temp:other': { v: 'TEMP-SECRET-3' }, 'app:n': 2 } } }),
    });
    expect(session.state).toMatchObject({ 'temp:scratch': 'TEMP-SECRET-2', 'temp:other': { v: 'TEMP-SECRET-3' } });

    const tables = dumpTables(path);
    expect(tables['agentctx_events']).toHaveLength(2);
    const cells = Object.values(tables).flatMap((rows) => rows.flatMap((row) => Object.values(row as object)));
    const text = cells.filter((cell): cell is string => typeof cell === 'string');
    expect(text.filter((cell) => /temp:|TEMP-SECRET/.test(cell))).toEqual([]);
    await store.close();
    // Also the raw bytes: the database file and any WAL left behind.
    for (const file of [path, `${path}-wal`]) {
      if (existsSync(file)) expect(readFileSync(file).includes('TEMP-SECRET')).toBe(false);
    }
  });

  it('refuses an append from a stale copy held by another store on the same file, writing nothing of it', async () => {
    const path = await newPath();
    const first = open({ path });
    const second = open({ path });
    await first.createSession({ ...key });
    const copyA = (await first.getSession(key)) as Session;
    const copyB = (await second.getSession(key)) as Session;
    await first.appendEvent({ session: copyA, event: event({ actions: { stateDelta: { won: 'a' } } }) });
    const stale = event({ actions: { stateDelta: { lost: 1, 'user:lost': 1, 'app:lost': 1 } } });
    const error = await second.appendEvent({ session: copyB, event: stale }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'ConflictError', code: 'stale_session' });
    expect((error as AgentctxError).hint).toContain('loaded at revision 0, storage is at revision 1');
    expect([copyB.revision, copyB.events, copyB.state]).toEqual([0, [], {}]);

    const tables = dumpTables(path);
    expect(tables['agentctx_events']).toHaveLength(1);
    expect(tables['agentctx_sessions']).toMatchObject([{ revision: 1 }]);
    expect(
      JSON.stringify([tables['agentctx_session_state'], tables['agentctx_user_state'], tables['agentctx_app_state']]),
    ).not.toContain('lost');
  });

  it('lets exactly one of two concurrent appends from the same revision win', async () => {
    const path = await newPath();
    const first = open({ path });
    const second = open({ path });
    await first.createSession({ ...key });
    const copies = [(await first.getSession(key)) as Session, (await second.getSession(key)) as Session];
    const results = await Promise.allSettled([
      first.appendEvent({ session: copies[0] as Session, event: event() }),
      second.appendEvent({ session: copies[1] as Session, event: event() }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { code: 'stale_session' } });
    expect((await first.getSession(key))?.events).toHaveLength(1);
  });

  it('keeps concurrent writes of different shared keys from different sessions', async () => {
    const path = await newPath();
    const first = open({ path });
    const second = open({ path });
    const s1 = await first.createSession({ ...key, sessionId: 's1' });
    const s2 = await second.createSession({ ...key, sessionId: 's2' });
    const writer = async (store: SqlSessionStore, session: Session, prefix: string) => {
      for (let i = 0; i < 10; i++)
        await store.appendEvent({ session, event: event({ actions: { stateDelta: { [`user:${prefix}${i}`]: i } } }) });
    };
    await Promise.all([writer(first, s1, 'a'), writer(second, s2, 'b')]);
    const state = (await first.createSession({ ...key, sessionId: 's3' })).state;
    expect(Object.keys(state).sort()).toEqual(
      [
        ...Array.from({ length: 10 }, (_, i) => `user:a${i}`),
        ...Array.from({ length: 10 }, (_, i) => `user:b${i}`),
      ].sort(),
    );
  });

  it('rolls back an append whose event id is taken: no revision, no state', async () => {
    const path = await newPath();
    const store = open({ path });
    const session = await store.createSession({ ...key });
    const first = event();
    await store.appendEvent({ session, event: first });
    expect(
      await codeOf(
        store.appendEvent({
          session,
          event: { ...first, actions: { stateDelta: { 'app:half': 1, half: 1 }, artifactDelta: {} } },
        }),
      ),
    ).toBe('already_exists');
    const tables = dumpTables(path);
    expect(tables['agentctx_sessions']).toMatchObject([{ revision: 1 }]);
    expect(JSON.stringify(tables)).not.toContain('half');
    expect(session.revision).toBe(1);
  });

  it('keeps everything across closing and reopening the file', async () => {
    const path = await newPath();
    const store = createSqliteSessionStore({ path });
    const session = await store.createSession({
      ...key,
      state: { 'app:a': 1, 'user:u': [1], own: { x: 'héllo こんにちは' } },
    });
    for (let i = 0; i < 3; i++)
      await store.appendEvent({
        session,
        event: event({ content: { role: 'user', parts: [{ text: `m${i}` }] }, actions: { stateDelta: { n: i } } }),
      });
    const request = { system: 'S', tools: [], messages: [], config: { model: 'm' } };
    await store.recordModelCall({
      ...key,
      call: {
        invocationId: 'inv-1',
        agent: 'a',
        timestamp: 5,
        request,
        provenance: { system: [], tools: [], messages: [] },
        editedByCallback: true,
      },
    });
    const before = await store.getSession(key);
    await store.close();
    await expect(store.getSession(key)).rejects.toMatchObject({ code: 'usage' });

    const reopened = open({ path });
    expect(await reopened.getSession(key)).toEqual(before);
    expect(before?.events).toEqual(session.events);
    expect(await reopened.listModelCalls(key)).toMatchObject([
      { index: 1, editedByCallback: true, requestChars: JSON.stringify(request).length },
    ]);
    expect(
      await reopened.recordModelCall({
        ...key,
        call: {
          invocationId: 'inv-2',
          agent: 'a',
          timestamp: 6,
          request,
          provenance: { system: [], tools: [], messages: [] },
          editedByCallback: false,
        },
      }),
    ).toBe(2);
  });

  it('removes every row of a deleted session but keeps shared state', async () => {
    const path = await newPath();
    const store = open({ path });
    const session = await store.createSession({ ...key, state: { own: 1, 'user:u': 1, 'app:a': 1 } });
    await store.appendEvent({ session, event: event() });
    const call = {
      invocationId: 'i',
      agent: 'a',
      timestamp: 1,
      request: { system: '', tools: [], messages: [], config: {} },
      provenance: { system: [], tools: [], messages: [] },
      editedByCallback: false,
    };
    await store.recordModelCall({ ...key, call });
    await store.completeModelCall({
      ...key,
      index: 1,
      outcome: { status: 'answered', latencyMs: 1, wire: { url: 'u', method: 'POST', body: '{}', attempts: 1 } },
    });
    await store.recordModelCall({ ...key, call: { ...call, status: 'failed', error: 'x' } });
    expect(dumpTables(path)['agentctx_model_call_outcomes']).toHaveLength(2);
    await store.deleteSession(key);
    const tables = dumpTables(path);
    for (const table of [
      'agentctx_sessions',
      'agentctx_events',
      'agentctx_session_state',
      'agentctx_model_calls',
      'agentctx_model_call_outcomes',
    ])
      expect(tables[table], table).toEqual([]);
    expect(tables['agentctx_user_state']).toHaveLength(1);
    expect(tables['agentctx_app_state']).toHaveLength(1);
  });

  it('answers a window of recent events from the index, reading only those rows, and appends without reading history', async () => {
    const path = await newPath();
    mkdirSync(dirname(path));
    const seen: { sql: string; params: readonly SqlParam[]; rows: number }[] = [];
    const store = createSqlSessionStore(spy(createBetterSqlite3Driver({ path }), seen));
    opened.push(store);
    const session = await store.createSession({ ...key });
    const appendStatements = async () => {
      seen.length = 0;
      await store.appendEvent({ session, event: event({ actions: { stateDelta: { n: session.revision } } }) });
      return seen.map((entry) => entry.sql);
    };
    const early = await appendStatements();
    for (let i = 0; i < 200; i++) await store.appendEvent({ session, event: event() });
    expect(await appendStatements()).toEqual(early);
    expect(early.join('\n')).not.toMatch(/FROM agentctx_events/);

    seen.length = 0;
    const windowed = await store.getSession({ ...key, numRecentEvents: 20 });
    expect(windowed?.events.map((e) => e.id)).toEqual(session.events.slice(-20).map((e) => e.id));
    const eventQueries = seen.filter((entry) => /FROM agentctx_events/.test(entry.sql));
    expect(eventQueries).toHaveLength(1);
    expect(eventQueries[0]?.rows).toBe(20);
    const db = new Database(path, { readonly: true });
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${eventQueries[0]?.sql}`).all(...(eventQueries[0]?.params ?? [])) as {
      detail: string;
    }[];
    db.close();
    const details = plan.map((step) => step.detail).join(' | ');
    expect(details).toMatch(/SEARCH agentctx_events USING INDEX/);
    expect(details).not.toMatch(/TEMP B-TREE|SCAN/);
    expect(Object.isFrozen(windowed?.events[0])).toBe(true);
  });

  it('creates the schema once: opening the file again, or twice at once, applies nothing', async () => {
    const path = await newPath();
    const [a, b] = [open({ path }), open({ path })];
    const results = await Promise.all([a.migrate(), b.migrate()]);
    const names = MIGRATIONS.map((migration) => migration.name);
    expect(results.map((result) => result.applied).sort()).toEqual([[], names]);
    expect(await open({ path }).migrate()).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION, applied: [] });
    expect(dumpTables(path)['agentctx_migrations']).toMatchObject(names.map((name, i) => ({ version: i + 1, name })));
  });

  it('applies later migrations in order, once', async () => {
    const path = await newPath();
    await open({ path }).migrate();
    const driver = createBetterSqlite3Driver({ path });
    const later = [
      ...MIGRATIONS,
      { name: 'second', statements: () => ['CREATE TABLE extra_two (x INTEGER)'] },
      { name: 'third', statements: () => ['ALTER TABLE extra_two ADD COLUMN y TEXT'] },
    ];
    const n = SCHEMA_VERSION;
    expect(await migrate(driver, { migrations: later })).toEqual({ from: n, to: n + 2, applied: ['second', 'third'] });
    expect(await migrate(driver, { migrations: later })).toEqual({ from: n + 2, to: n + 2, applied: [] });
    await driver.close();
  });

  it('opens a database written at schema version 1 and upgrades it in place, keeping every row', async () => {
    const path = await newPath();
    mkdirSync(dirname(path));
    const driver = createBetterSqlite3Driver({ path });
    await migrate(driver, { migrations: MIGRATIONS.slice(0, 1) });
    await driver.close();
    // Rows as release 0.1 wrote them.
    const db = new Database(path);
    db.exec(`INSERT INTO agentctx_sessions VALUES ('app', 'u1', 's1', 1, 0, 10, 11);
      INSERT INTO agentctx_events VALUES ('app', 'u1', 's1', 1, 'ev-old', 11, '{"id":"ev-old","invocationId":"i","author":"user","timestamp":11,"actions":{"stateDelta":{"user:count":1},"artifactDelta":{}}}');
      INSERT INTO agentctx_user_state VALUES ('app', 'u1', 'count', '1');
      INSERT INTO agentctx_app_state VALUES ('app', 'mode', '"on"');`);
    db.close();

    const store = open({ path });
    const session = (await store.getSession(key)) as Session;
    expect(session).toMatchObject({
      revision: 1,
      state: { 'user:count': 1, 'app:mode': 'on' },
      sharedStateVersions: { 'user:count': 1, 'app:mode': 1 },
    });
    expect(session.events.map((e) => e.id)).toEqual(['ev-old']);
    await store.appendEvent({ session, event: event({ actions: { stateDelta: { 'user:count': 2 } } }) });
    expect(dumpTables(path)['agentctx_user_state']).toEqual([
      { app_name: 'app', user_id: 'u1', state_key: 'count', value_json: '2', version: 2 },
    ]);
    expect(dumpTables(path)['agentctx_migrations']).toHaveLength(SCHEMA_VERSION);
  });

  it('refuses a database written by a newer release, or a migration table it did not write', async () => {
    const path = await newPath();
    await open({ path }).migrate();
    const edit = (sql: string) => {
      const db = new Database(path);
      db.exec(sql);
      db.close();
    };
    const future = SCHEMA_VERSION + 1;
    edit(`INSERT INTO agentctx_migrations (version, name, applied_at) VALUES (${future}, 'from the future', 0)`);
    const newer = await open({ path })
      .getSession(key)
      .catch((caught: unknown) => caught);
    expect(newer).toMatchObject({ name: 'ValidationError', code: 'unsupported_version' });
    expect((newer as Error).message).toBe(
      `Invalid database schema: agentctx_migrations: version ${future} is newer than this release of agentctx, which knows versions up to ${SCHEMA_VERSION}`,
    );
    expect((newer as AgentctxError).hint).toMatch(/Upgrade agentctx/);

    edit(
      `DELETE FROM agentctx_migrations WHERE version = ${future}; UPDATE agentctx_migrations SET name = 'something else' WHERE version = 1`,
    );
    const renamed = await open({ path })
      .listSessions({ appName: 'app' })
      .catch((caught: unknown) => caught);
    expect(renamed).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining(`names version 1 "something else"`),
    });

    edit(`DROP TABLE agentctx_migrations; CREATE TABLE agentctx_migrations (v TEXT)`);
    const foreign = await open({ path })
      .migrate()
      .catch((caught: unknown) => caught);
    expect(foreign).toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('agentctx_migrations: cannot be read'),
    });
  });
});

describe('recorded model calls on sqlite', () => {
  const call = (request: unknown, timestamp: number) => ({
    invocationId: 'inv',
    agent: 'a',
    timestamp,
    request: request as never,
    provenance: {
      system: [],
      tools: [],
      messages: (request as { messages: unknown[] }).messages.map(() => []),
    } as never,
    editedByCallback: false,
  });

  it('stores a call that repeats the previous call’s history as a difference, and reads it back whole', async () => {
    const path = await newPath();
    const store = open({ path });
    await store.createSession(key);
    const messages = Array.from({ length: 50 }, (_, i) => ({
      role: 'user',
      content: [{ text: `message ${i} ${'x'.repeat(100)}` }],
    }));
    const first = { system: 'S', tools: [], messages: messages.slice(0, 49), config: {} };
    const second = { system: 'S', tools: [], messages, config: {} };
    const one = call(first, 1);
    await store.recordModelCall({ ...key, call: one });
    const two = call(second, 2);
    two.provenance = {
      ...(two.provenance as object),
      messages: [...(one.provenance as { messages: unknown[] }).messages, []],
    } as never;
    await store.recordModelCall({ ...key, call: two });
    const rows = dumpTables(path)['agentctx_model_calls'] as { base_call_index: number | null; request_json: string }[];
    expect(rows.map((row) => row.base_call_index)).toEqual([null, 1]);
    expect((rows[1]?.request_json.length ?? 0) * 10).toBeLessThan(rows[0]?.request_json.length ?? 0);
    expect((await store.getModelCall({ ...key, index: 2 }))?.request).toEqual(JSON.parse(JSON.stringify(second)));
  });

  it('writes a call whole when the call it would refer to was deleted and made again by another store', async () => {
    const path = await newPath();
    const writer = open({ path });
    const other = open({ path });
    await writer.createSession(key);
    const messages = [{ role: 'user', content: [{ text: 'old history' }] }];
    await writer.recordModelCall({ ...key, call: call({ system: 'S', tools: [], messages, config: {} }, 1) });
    await other.deleteSession(key);
    await other.createSession(key);
    await other.recordModelCall({
      ...key,
      call: call(
        { system: 'other', tools: [], messages: [{ role: 'user', content: [{ text: 'new history' }] }], config: {} },
        5,
      ),
    });
    const next = {
      system: 'S',
      tools: [],
      messages: [...messages, { role: 'model', content: [{ text: 'reply' }] }],
      config: {},
    };
    await writer.recordModelCall({ ...key, call: call(next, 6) });
    expect((await other.getModelCall({ ...key, index: 2 }))?.request).toEqual(JSON.parse(JSON.stringify(next)));
  });
});

describe('model call lifecycle on sqlite', () => {
  const request = {
    system: 'S',
    tools: [],
    messages: [{ role: 'user' as const, content: [{ text: 'hi' }] }],
    config: {},
  };
  const pending = (n: number) => ({
    invocationId: `inv-${n}`,
    agent: 'a',
    timestamp: n,
    request,
    provenance: { system: [], tools: [], messages: [[]] },
    editedByCallback: false,
  });
  const answered = (body: string) => ({
    status: 'answered' as const,
    latencyMs: 5,
    wire: { url: 'https://x.test', method: 'POST', body, attempts: 1 },
  });
  const growing = (count: number) => {
    const history: string[] = [];
    return Array.from({ length: count }, (_, n) => {
      history.push(`{"role":"user","content":"turn ${n} héllo 👋 ${'x'.repeat(200)}"}`);
      return `{"model":"m","messages":[${history.join(',')}],"tools":[{"name":"lookup","description":"${'d'.repeat(500)}"}],"stream":true}`;
    });
  };

  it('stores the wire bodies of consecutive calls as differences, and reads each back exactly', async () => {
    const path = await newPath();
    const store = open({ path });
    await store.createSession(key);
    const bodies = growing(30);
    for (const [n, body] of bodies.entries()) {
      await store.recordModelCall({ ...key, call: pending(n + 1) });
      await store.completeModelCall({ ...key, index: n + 1, outcome: answered(body) });
    }
    type Row = {
      call_index: number;
      wire_base_index: number | null;
      wire_body_json: string;
      wire_json: string;
      status: string;
    };
    const rows = dumpTables(path)['agentctx_model_call_outcomes'] as Row[];
    expect(rows.map((row) => [row.call_index, row.status])).toEqual(bodies.map((_body, n) => [n + 1, 'answered']));
    expect(rows.map((row) => row.wire_base_index)).toEqual([null, ...Array.from({ length: 29 }, (_, n) => n + 1)]);
    const stored = rows.reduce((sum, row) => sum + row.wire_body_json.length, 0);
    const whole = bodies.reduce((sum, body) => sum + JSON.stringify(body).length, 0);
    expect(stored * 10).toBeLessThan(whole);
    expect(JSON.parse(rows[0]?.wire_json ?? '')).toEqual({ url: 'https://x.test', method: 'POST', attempts: 1 });
    const reopened = open({ path });
    for (const [n, body] of bodies.entries())
      expect((await reopened.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
  });

  it('completes a call with one INSERT by primary key, the same however long the session, and lists without the heavy columns', async () => {
    const path = await newPath();
    mkdirSync(dirname(path));
    const seen: { sql: string; params: readonly SqlParam[]; rows: number }[] = [];
    const store = createSqlSessionStore(spy(createBetterSqlite3Driver({ path }), seen));
    opened.push(store);
    await store.createSession(key);
    const bodies = growing(60);
    const completing = async (n: number) => {
      await store.recordModelCall({ ...key, call: pending(n) });
      seen.length = 0;
      await store.completeModelCall({ ...key, index: n, outcome: answered(bodies[n - 1] as string) });
      return seen.map((entry) => entry.sql.replace(/\s+/g, ' '));
    };
    const first = await completing(1);
    const second = await completing(2);
    for (let n = 3; n < 60; n++) await completing(n);
    expect(await completing(60)).toEqual(second);
    // The first has no base to check; later ones read their base's hash by primary key. Nothing is updated.
    const writes = (statements: string[]) => statements.filter((sql) => /^(INSERT|UPDATE|DELETE|REPLACE)/.test(sql));
    expect(writes(first)).toEqual([
      expect.stringMatching(
        /^INSERT INTO agentctx_model_call_outcomes \(.*\) SELECT .* FROM agentctx_model_calls WHERE app_name = \? AND user_id = \? AND session_id = \? AND call_index = \? ON CONFLICT \(app_name, user_id, session_id, call_index\) DO UPDATE SET .* WHERE agentctx_model_call_outcomes.status = 'pending'$/,
      ),
    ]);
    expect(writes(second)).toEqual(writes(first));
    expect(
      second.every((sql) => /WHERE app_name = \? AND user_id = \? AND session_id = \? AND call_index = \?/.test(sql)),
    ).toBe(true);

    seen.length = 0;
    const summaries = await store.listModelCalls(key);
    expect(summaries).toHaveLength(60);
    const listing = seen.map((entry) => entry.sql).join('\n');
    expect(listing).not.toMatch(/request_json|provenance_json|response_json|wire_/);
    expect(listing).toMatch(/LEFT JOIN agentctx_model_call_outcomes/);
  });

  it('completes a call without writing a page of its request row, in statements that never read it, whatever the request’s size', async () => {
    const path = await newPath();
    mkdirSync(dirname(path));
    const seen: { sql: string; params: readonly SqlParam[]; rows: number }[] = [];
    const store = createSqlSessionStore(spy(createBetterSqlite3Driver({ path }), seen));
    opened.push(store);
    await store.createSession(key);
    // Unrelated first messages, so every request is stored whole: 3 is two megabytes, 1 and 2 a few bytes.
    const sized = (n: number, chars: number) => ({
      ...pending(n),
      request: { ...request, messages: [{ role: 'user' as const, content: [{ text: `${n}:${'y'.repeat(chars)}` }] }] },
    });
    const bodies = growing(3);
    for (const [n, chars] of [10, 10, 2_000_000].entries())
      await store.recordModelCall({ ...key, call: sized(n + 1, chars) });
    const db = new Database(path);
    try {
      const pagesOf = (table: string): Set<number> =>
        new Set(
          (db.prepare(`SELECT pageno FROM dbstat WHERE name = ?`).all(table) as { pageno: number }[]).map(
            (row) => row.pageno,
          ),
        );
      const requestPages = new Set([
        ...pagesOf('agentctx_model_calls'),
        ...pagesOf('sqlite_autoindex_agentctx_model_calls_1'),
      ]);
      expect(requestPages.size).toBeGreaterThan(400);
      const rowsBefore = db.prepare(`SELECT rowid, * FROM agentctx_model_calls ORDER BY call_index`).all();
      // Empties the WAL, completes the call, and reads which pages the completion wrote: each WAL frame names one.
      const completing = async (n: number) => {
        expect(db.pragma('wal_checkpoint(TRUNCATE)')).toEqual([{ busy: 0, log: 0, checkpointed: 0 }]);
        seen.length = 0;
        await store.completeModelCall({ ...key, index: n, outcome: answered(bodies[n - 1] as string) });
        const wal = readFileSync(`${path}-wal`);
        const pageSize = wal.readUInt32BE(8);
        const pages: number[] = [];
        for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) pages.push(wal.readUInt32BE(at));
        return { statements: seen.map((entry) => ({ sql: entry.sql, params: entry.params })), pages };
      };
      await completing(1);
      const small = await completing(2);
      const large = await completing(3);
      expect(large.statements.map((entry) => entry.sql)).toEqual(small.statements.map((entry) => entry.sql));
      for (const { pages } of [small, large]) {
        expect(pages.length).toBeGreaterThan(0);
        expect(pages.length).toBeLessThan(8);
        expect(pages.filter((page) => requestPages.has(page))).toEqual([]);
      }
      expect(large.pages.length).toBe(small.pages.length);
      // Each statement finds its rows by primary key; the request table only through its index, so the row is never read.
      for (const { sql, params } of large.statements) {
        const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map(
          (step) => step.detail,
        );
        expect(plan.length, sql).toBeGreaterThan(0);
        for (const step of plan) {
          expect(step, sql).toMatch(
            /^SEARCH (agentctx_model_calls USING COVERING INDEX|agentctx_model_call_outcomes USING INDEX) sqlite_autoindex_\w+ \(app_name=\? AND user_id=\? AND session_id=\? AND call_index=\?\)$/,
          );
        }
      }
      expect(db.prepare(`SELECT rowid, * FROM agentctx_model_calls ORDER BY call_index`).all()).toEqual(rowsBefore);
    } finally {
      db.close();
    }
    expect((await store.listModelCalls(key)).map((summary) => summary.status)).toEqual([
      'answered',
      'answered',
      'answered',
    ]);
    expect((await store.getModelCall({ ...key, index: 3 }))?.wire?.body).toBe(bodies[2]);
  });

  it('opens a database at the previous schema version with recorded calls, which read back answered with their requests', async () => {
    const path = await newPath();
    mkdirSync(dirname(path));
    const driver = createBetterSqlite3Driver({ path });
    const previous = MIGRATIONS.findIndex((migration) => migration.name === 'model call lifecycle');
    expect(previous).toBe(4);
    await migrate(driver, { migrations: MIGRATIONS.slice(0, previous) });
    await driver.close();
    // Rows as the release before wrote them: call 2 continues call 1's history.
    const old = {
      system: 'S',
      tools: [],
      messages: [{ role: 'user', content: [{ text: 'first' }] }],
      config: { model: 'm' },
    };
    const db = new Database(path);
    db.exec(`INSERT INTO agentctx_sessions VALUES ('app', 'u1', 's1', 0, 2, 10, 11)`);
    const insert = db.prepare(
      `INSERT INTO agentctx_model_calls VALUES ('app', 'u1', 's1', ?, ?, 'a', ?, 0, ?, ?, ?, ?, ?, ?, ?)`,
    );
    insert.run(
      1,
      'inv-1',
      10,
      'ev-1',
      '{"promptTokens":3}',
      JSON.stringify(old).length,
      JSON.stringify(old),
      '{"system":[],"tools":[],"messages":[[]]}',
      null,
      null,
    );
    const added = { role: 'model', content: [{ text: 'second' }] };
    insert.run(
      2,
      'inv-2',
      11,
      null,
      null,
      JSON.stringify({ ...old, messages: [...old.messages, added] }).length,
      JSON.stringify({ ...old, messages: [added] }),
      '{"system":[],"tools":[],"messages":[[]]}',
      1,
      1,
    );
    db.close();

    const store = open({ path });
    expect(await store.listModelCalls(key)).toEqual([
      {
        index: 1,
        invocationId: 'inv-1',
        agent: 'a',
        timestamp: 10,
        editedByCallback: false,
        status: 'answered',
        responseEventId: 'ev-1',
        usage: { promptTokens: 3 },
        requestChars: JSON.stringify(old).length,
      },
      {
        index: 2,
        invocationId: 'inv-2',
        agent: 'a',
        timestamp: 11,
        editedByCallback: false,
        status: 'answered',
        requestChars: JSON.stringify({ ...old, messages: [...old.messages, added] }).length,
      },
    ]);
    expect((await store.getModelCall({ ...key, index: 1 }))?.request).toEqual(old);
    expect((await store.getModelCall({ ...key, index: 2 }))?.request).toEqual({
      ...old,
      messages: [...old.messages, added],
    });
    expect(await codeOf(store.completeModelCall({ ...key, index: 1, outcome: answered('{}') }))).toBe('already_exists');
    // Migration 5 gave each of them an outcome row, `answered`; their usage and response event stayed on the call's row.
    const outcomes = dumpTables(path)['agentctx_model_call_outcomes'] as {
      call_index: number;
      status: string;
      usage_json: string | null;
    }[];
    expect(outcomes.map((row) => [row.call_index, row.status, row.usage_json])).toEqual([
      [1, 'answered', null],
      [2, 'answered', null],
    ]);
    expect(await store.recordModelCall({ ...key, call: pending(3) })).toBe(3);
    await store.completeModelCall({ ...key, index: 3, outcome: answered('{"new":true}') });
    expect(await store.getModelCall({ ...key, index: 3 })).toMatchObject({
      status: 'answered',
      wire: { body: '{"new":true}' },
    });
    expect(dumpTables(path)['agentctx_migrations']).toHaveLength(SCHEMA_VERSION);
  });
});

describe('numberPlaceholders', () => {
  it('numbers ? outside quotes and comments', () => {
    expect(numberPlaceholders(`SELECT '?', "a?" FROM t WHERE a = ? AND b = ? -- c?\n AND c = ?`)).toBe(
      `SELECT '?', "a?" FROM t WHERE a = $1 AND b = $2 -- c?\n AND c = $3`,
    );
    expect(numberPlaceholders(`SELECT 'it''s ?' WHERE x = ?`)).toBe(`SELECT 'it''s ?' WHERE x = $1`);
  });
});

/** The driver, recording every statement it runs with the number of rows it returned. */
function spy(driver: SqlDriver, seen: { sql: string; params: readonly SqlParam[]; rows: number }[]): SqlDriver {
  const record = <T>(sql: string, params: readonly SqlParam[] | undefined, rows: T[]): T[] => {
    seen.push({ sql, params: params ?? [], rows: rows.length });
    return rows;
  };
  const spied = (tx: SqlExecutor): SqlExecutor => ({
    query: async (sql, params) => record(sql, params, await tx.query(sql, params)),
    run: async (sql, params) => (seen.push({ sql, params: params ?? [], rows: 0 }), tx.run(sql, params)),
  });
  return {
    ...driver,
    ...spied(driver),
    transaction: (fn, options) => driver.transaction((tx) => fn(spied(tx)), options),
    atomic: (issue) => driver.atomic((tx) => issue(spied(tx))),
  };
}
