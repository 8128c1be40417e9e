import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { EventInput } from '../../src/contracts/event.js';
import type { Session } from '../../src/contracts/session.js';
import { createEvent } from '../../src/engine/session/create-event.js';
import { migrate, MIGRATIONS, SCHEMA_VERSION } from '../../src/stores/sql/migrations.js';
import type { SqlArtifactStore } from '../../src/stores/sql/sql-artifact-store.js';
import { numberPlaceholders, type SqlDriver, type SqlParam } from '../../src/stores/sql/sql-driver.js';
import { createSqlSessionStore, type SqlSessionStore } from '../../src/stores/sql/sql-session-store.js';
import { createBetterSqlite3Driver } from '../../src/stores/sqlite/better-sqlite3-driver.js';
import { createSqliteArtifactStore, createSqliteSessionStore, type SqliteSessionStoreOptions } from '../../src/stores/sqlite/create-sqlite-store.js';
import { testArtifactStore, testSessionStore } from '../../src/testing/conformance/index.js';

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

testSessionStore({ name: 'sqlite :memory:', create: (clock) => open({ path: ':memory:', ...clock }) });
testSessionStore({ name: 'sqlite file', create: async (clock) => open({ path: await newPath(), ...clock }) });
testArtifactStore({ name: 'sqlite :memory:', create: () => openArtifacts({ path: ':memory:' }) });
testArtifactStore({ name: 'sqlite file', create: async () => openArtifacts({ path: await newPath() }) });

let counter = 0;
const event = (input: Partial<EventInput> = {}) => createEvent({ author: 'user', invocationId: 'inv-1', ...input }, { newId: () => `ev-${++counter}` });
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
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[];
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
    await store.appendEvent({ session, event: event({ actions: { stateDelta: { 'temp:scratch': 'TEMP-SECRET-2', 'user:seen': true } } }) });
    await store.appendEvent({ session, event: event({ actions: { stateDelta: { 'temp:other': { v: 'TEMP-SECRET-3' }, 'app:n': 2 } } }) });
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
    expect(JSON.stringify([tables['agentctx_session_state'], tables['agentctx_user_state'], tables['agentctx_app_state']])).not.toContain('lost');
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
      for (let i = 0; i < 10; i++) await store.appendEvent({ session, event: event({ actions: { stateDelta: { [`user:${prefix}${i}`]: i } } }) });
    };
    await Promise.all([writer(first, s1, 'a'), writer(second, s2, 'b')]);
    const state = (await first.createSession({ ...key, sessionId: 's3' })).state;
    expect(Object.keys(state).sort()).toEqual([...Array.from({ length: 10 }, (_, i) => `user:a${i}`), ...Array.from({ length: 10 }, (_, i) => `user:b${i}`)].sort());
  });

  it('rolls back an append whose event id is taken: no revision, no state', async () => {
    const path = await newPath();
    const store = open({ path });
    const session = await store.createSession({ ...key });
    const first = event();
    await store.appendEvent({ session, event: first });
    expect(await codeOf(store.appendEvent({ session, event: { ...first, actions: { stateDelta: { 'app:half': 1, half: 1 }, artifactDelta: {} } } }))).toBe(
      'already_exists',
    );
    const tables = dumpTables(path);
    expect(tables['agentctx_sessions']).toMatchObject([{ revision: 1 }]);
    expect(JSON.stringify(tables)).not.toContain('half');
    expect(session.revision).toBe(1);
  });

  it('keeps everything across closing and reopening the file', async () => {
    const path = await newPath();
    const store = createSqliteSessionStore({ path });
    const session = await store.createSession({ ...key, state: { 'app:a': 1, 'user:u': [1], own: { x: 'héllo こんにちは' } } });
    for (let i = 0; i < 3; i++) await store.appendEvent({ session, event: event({ content: { role: 'user', parts: [{ text: `m${i}` }] }, actions: { stateDelta: { n: i } } }) });
    const request = { system: 'S', tools: [], messages: [], config: { model: 'm' } };
    await store.recordModelCall({ ...key, call: { invocationId: 'inv-1', agent: 'a', timestamp: 5, request, provenance: { system: [], tools: [], messages: [] }, editedByCallback: true } });
    const before = await store.getSession(key);
    await store.close();
    await expect(store.getSession(key)).rejects.toMatchObject({ code: 'usage' });

    const reopened = open({ path });
    expect(await reopened.getSession(key)).toEqual(before);
    expect(before?.events).toEqual(session.events);
    expect(await reopened.listModelCalls(key)).toMatchObject([{ index: 1, editedByCallback: true, requestChars: JSON.stringify(request).length }]);
    expect(await reopened.recordModelCall({ ...key, call: { invocationId: 'inv-2', agent: 'a', timestamp: 6, request, provenance: { system: [], tools: [], messages: [] }, editedByCallback: false } })).toBe(2);
  });

  it('removes every row of a deleted session but keeps shared state', async () => {
    const path = await newPath();
    const store = open({ path });
    const session = await store.createSession({ ...key, state: { own: 1, 'user:u': 1, 'app:a': 1 } });
    await store.appendEvent({ session, event: event() });
    await store.recordModelCall({ ...key, call: { invocationId: 'i', agent: 'a', timestamp: 1, request: { system: '', tools: [], messages: [], config: {} }, provenance: { system: [], tools: [], messages: [] }, editedByCallback: false } });
    await store.deleteSession(key);
    const tables = dumpTables(path);
    for (const table of ['agentctx_sessions', 'agentctx_events', 'agentctx_session_state', 'agentctx_model_calls']) expect(tables[table], table).toEqual([]);
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
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${eventQueries[0]?.sql}`).all(...(eventQueries[0]?.params ?? [])) as { detail: string }[];
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
    expect(session).toMatchObject({ revision: 1, state: { 'user:count': 1, 'app:mode': 'on' }, sharedStateVersions: { 'user:count': 1, 'app:mode': 1 } });
    expect(session.events.map((e) => e.id)).toEqual(['ev-old']);
    await store.appendEvent({ session, event: event({ actions: { stateDelta: { 'user:count': 2 } } }) });
    expect(dumpTables(path)['agentctx_user_state']).toEqual([{ app_name: 'app', user_id: 'u1', state_key: 'count', value_json: '2', version: 2 }]);
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
    const newer = await open({ path }).getSession(key).catch((caught: unknown) => caught);
    expect(newer).toMatchObject({ name: 'ValidationError', code: 'unsupported_version' });
    expect((newer as Error).message).toBe(
      `Invalid database schema: agentctx_migrations: version ${future} is newer than this release of agentctx, which knows versions up to ${SCHEMA_VERSION}`,
    );
    expect((newer as AgentctxError).hint).toMatch(/Upgrade agentctx/);

    edit(`DELETE FROM agentctx_migrations WHERE version = ${future}; UPDATE agentctx_migrations SET name = 'something else' WHERE version = 1`);
    const renamed = await open({ path }).listSessions({ appName: 'app' }).catch((caught: unknown) => caught);
    expect(renamed).toMatchObject({ code: 'invalid_input', message: expect.stringContaining(`names version 1 "something else"`) });

    edit(`DROP TABLE agentctx_migrations; CREATE TABLE agentctx_migrations (v TEXT)`);
    const foreign = await open({ path }).migrate().catch((caught: unknown) => caught);
    expect(foreign).toMatchObject({ code: 'invalid_input', message: expect.stringContaining('agentctx_migrations: cannot be read') });
  });
});

describe('recorded model calls on sqlite', () => {
  const call = (request: unknown, timestamp: number) => ({
    invocationId: 'inv',
    agent: 'a',
    timestamp,
    request: request as never,
    provenance: { system: [], tools: [], messages: (request as { messages: unknown[] }).messages.map(() => []) } as never,
    editedByCallback: false,
  });

  it('stores a call that repeats the previous call’s history as a difference, and reads it back whole', async () => {
    const path = await newPath();
    const store = open({ path });
    await store.createSession(key);
    const messages = Array.from({ length: 50 }, (_, i) => ({ role: 'user', content: [{ text: `message ${i} ${'x'.repeat(100)}` }] }));
    const first = { system: 'S', tools: [], messages: messages.slice(0, 49), config: {} };
    const second = { system: 'S', tools: [], messages, config: {} };
    const one = call(first, 1);
    await store.recordModelCall({ ...key, call: one });
    const two = call(second, 2);
    two.provenance = { ...(two.provenance as object), messages: [...(one.provenance as { messages: unknown[] }).messages, []] } as never;
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
    await other.recordModelCall({ ...key, call: call({ system: 'other', tools: [], messages: [{ role: 'user', content: [{ text: 'new history' }] }], config: {} }, 5) });
    const next = { system: 'S', tools: [], messages: [...messages, { role: 'model', content: [{ text: 'reply' }] }], config: {} };
    await writer.recordModelCall({ ...key, call: call(next, 6) });
    expect((await other.getModelCall({ ...key, index: 2 }))?.request).toEqual(JSON.parse(JSON.stringify(next)));
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
  return {
    ...driver,
    query: async (sql, params) => record(sql, params, await driver.query(sql, params)),
    run: async (sql, params) => (seen.push({ sql, params: params ?? [], rows: 0 }), driver.run(sql, params)),
    transaction: (fn, options) =>
      driver.transaction(
        (tx) =>
          fn({
            query: async (sql, params) => record(sql, params, await tx.query(sql, params)),
            run: async (sql, params) => (seen.push({ sql, params: params ?? [], rows: 0 }), tx.run(sql, params)),
          }),
        options,
      ),
  };
}
