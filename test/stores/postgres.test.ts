import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { EventInput } from '../../src/contracts/event.js';
import type { StoreClock } from '../../src/contracts/session-store.js';
import type { Session } from '../../src/contracts/session.js';
import { textArtifact } from '../../src/engine/session/artifacts.js';
import { createEvent } from '../../src/engine/session/create-event.js';
import {
  createPostgresArtifactStore,
  createPostgresSessionStore,
  type PostgresSessionStoreOptions,
} from '../../src/stores/postgres/create-postgres-store.js';
import { createPgDriver } from '../../src/stores/postgres/pg-driver.js';
import { migrate, MIGRATIONS, SCHEMA_VERSION } from '../../src/stores/sql/migrations.js';
import type { SqlArtifactStore } from '../../src/stores/sql/sql-artifact-store.js';
import type { SqlSessionStore } from '../../src/stores/sql/sql-session-store.js';
import { testArtifactStore, testModelCallLog, testSessionStore } from '../../src/testing/conformance/index.js';
import {
  createTestDatabase,
  explainDirect,
  queryDirect,
  skipWithoutPostgres,
  TEST_POSTGRES_URL,
} from '../support/postgres.js';

if (TEST_POSTGRES_URL === undefined) {
  skipWithoutPostgres('PostgreSQL session and artifact stores');
} else {
  const server = TEST_POSTGRES_URL;
  // One database for this file; every store below gets a schema of its own in it.
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let schemas = 0;
  const opened: (SqlSessionStore | SqlArtifactStore)[] = [];
  const url = (): string => {
    if (database === undefined) throw new Error('the test database is not ready');
    return database.url;
  };
  const newSchema = () => `s${++schemas}`;
  const open = (options: PostgresSessionStoreOptions = {}): SqlSessionStore => {
    const store = createPostgresSessionStore({ url: url(), pool: { max: 3 }, ...options });
    opened.push(store);
    return store;
  };
  const openArtifacts = (schema: string): SqlArtifactStore => {
    const store = createPostgresArtifactStore({ url: url(), schema, pool: { max: 3 } });
    opened.push(store);
    return store;
  };

  beforeAll(async () => {
    database = await createTestDatabase(server, 'stores');
  });
  afterAll(async () => {
    await Promise.all(opened.map((store) => store.close()));
    await database?.drop();
  });

  // The schema of each store the suite makes, so its twin can open the same one.
  const schemaOf = new Map<object, string>();
  const stores = {
    name: 'postgres',
    create: (clock: StoreClock) => {
      const schema = newSchema();
      const store = open({ schema, ...clock });
      schemaOf.set(store, schema);
      return store;
    },
    twin: (store: object) => open({ schema: schemaOf.get(store) as string }),
  };
  testSessionStore(stores);
  testModelCallLog(stores);
  testArtifactStore({ name: 'postgres', create: () => openArtifacts(newSchema()) });

  let counter = 0;
  const event = (input: Partial<EventInput> = {}) =>
    createEvent({ author: 'user', invocationId: 'inv', ...input }, { newId: () => `ev-${++counter}` });
  const key = { appName: 'app', userId: 'u1', sessionId: 's1' };
  const codeOf = (reason: unknown) =>
    AgentctxError.isInstance(reason) ? reason.code : `not an AgentctxError: ${String(reason)}`;

  describe('postgres stores under real concurrency', () => {
    // Appends issued in one tick leave together on one connection. The refused one aborts its transaction before
    // the first use of the statement that writes a new user: key, so PostgreSQL refuses that statement's Parse; the
    // next append counted on it (pg sends a Parse once per connection), fails with 26000, and is sent again.
    it('sends an append again when an earlier append of its batch lost it a prepared statement', async () => {
      const store = open({ schema: newSchema(), pool: { max: 1 } });
      const mine = { appName: 'app', userId: 'u1', sessionId: 'a' };
      const other = { ...mine, sessionId: 'b' };
      const [stale, fresh] = [await store.createSession(mine), await store.createSession(other)];
      const wrong = { ...stale, revision: 7 };
      const [refused, written] = await Promise.allSettled([
        store.appendEvent({ session: wrong, event: event({ actions: { stateDelta: { 'user:k': 'from a' } } }) }),
        store.appendEvent({ session: fresh, event: event({ actions: { stateDelta: { 'user:k': 'from b' } } }) }),
      ]);
      expect(refused.status === 'rejected' && codeOf(refused.reason)).toBe('stale_session');
      expect(written.status).toBe('fulfilled');
      expect((await store.getSession(other))?.state['user:k']).toBe('from b');
    });

    it('sends lone statements and atomic writes issued at once on one connection, each answered on its own', async () => {
      // Room for three connections: statements sent one by one would take more than one.
      const driver = createPgDriver({ url: url(), schema: newSchema(), pool: { max: 3 } });
      try {
        await driver.run('CREATE TABLE batched (id INTEGER PRIMARY KEY, note TEXT NOT NULL)');
        const backend = 'SELECT pg_backend_pid() AS pid';
        const [pidBefore, failed, inserted, refused, read, pidAfter] = await Promise.allSettled([
          driver.query<{ pid: number }>(backend),
          driver.query('SELECT 1 / 0 AS never'),
          driver.atomic((tx) => [{ result: tx.run('INSERT INTO batched VALUES (?, ?)', [1, 'kept']) }]),
          driver.atomic((tx) => [
            { result: tx.run('INSERT INTO batched VALUES (?, ?)', [2, 'rolled back']) },
            { result: tx.run('INSERT INTO batched VALUES (?, ?)', [1, 'duplicate']) },
          ]),
          driver.query<{ id: number; note: string; pid: number }>(
            'SELECT id, note, pg_backend_pid() AS pid FROM batched ORDER BY id',
          ),
          driver.query<{ pid: number }>(backend),
        ]);
        // One connection took them all; a lone statement's error and a refused write left it usable for what followed.
        const pids = [pidBefore, read, pidAfter].map((settled) =>
          settled.status === 'fulfilled' ? settled.value[0]?.pid : undefined,
        );
        expect(new Set(pids).size).toBe(1);
        expect(pids[0]).toEqual(expect.any(Number));
        expect(failed.status === 'rejected' && (failed.reason as { code?: string }).code).toBe('22012');
        expect(inserted.status).toBe('fulfilled');
        expect(refused.status === 'rejected' && (refused.reason as { code?: string }).code).toBe('23505');
        expect(read).toEqual({ status: 'fulfilled', value: [{ id: 1, note: 'kept', pid: pids[0] }] });
        expect(await driver.run('UPDATE batched SET note = ? WHERE id = ?', ['changed', 1])).toEqual({ changes: 1 });
      } finally {
        await driver.close();
      }
    });

    it('lets exactly one of 20 appends from 20 pools win each revision', async () => {
      const schema = newSchema();
      const stores = Array.from({ length: 20 }, () => open({ schema, pool: { max: 1 } }));
      await stores[0]?.createSession(key);
      for (let round = 0; round < 5; round++) {
        const copies = await Promise.all(stores.map(async (store) => (await store.getSession(key)) as Session));
        expect(new Set(copies.map((copy) => copy.revision))).toEqual(new Set([round]));
        const results = await Promise.allSettled(
          stores.map((store, i) =>
            store.appendEvent({
              session: copies[i] as Session,
              event: event({ actions: { stateDelta: { winner: i } } }),
            }),
          ),
        );
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
        expect(
          results
            .flatMap((result) => (result.status === 'rejected' ? [codeOf(result.reason)] : []))
            .every((code) => code === 'stale_session'),
        ).toBe(true);
      }
      const final = (await stores[0]?.getSession(key)) as Session;
      expect(final.revision).toBe(5);
      expect(final.events).toHaveLength(5);
    });

    it('counts 20 concurrent increments of user:count from 20 sessions exactly, with reload and retry', async () => {
      const schema = newSchema();
      const stores = Array.from({ length: 20 }, () => open({ schema, pool: { max: 1 } }));
      await Promise.all(stores.map((store, i) => store.createSession({ ...key, sessionId: `s${i}` })));
      let conflicts = 0;
      await Promise.all(
        stores.map(async (store, i) => {
          for (let attempt = 0; attempt < 200; attempt++) {
            const session = (await store.getSession({ ...key, sessionId: `s${i}` })) as Session;
            const count = ((session.state['user:count'] as number | undefined) ?? 0) + 1;
            try {
              await store.appendEvent({
                session,
                event: event({ actions: { stateDelta: { 'user:count': count, mine: count } } }),
              });
              return;
            } catch (error) {
              expect(codeOf(error)).toBe('stale_shared_state');
              conflicts += 1;
            }
          }
          throw new Error(`session s${i} never won`);
        }),
      );
      const state = (await stores[0]?.createSession({ ...key, sessionId: 'check' }))?.state;
      expect(state).toEqual({ 'user:count': 20 });
      // Every session stored exactly one event: a refused append left nothing behind.
      for (let i = 0; i < 20; i++)
        expect((await stores[0]?.getSession({ ...key, sessionId: `s${i}` }))?.events).toHaveLength(1);
      expect(conflicts).toBeGreaterThan(0);
      const rows = await queryDirect<{ version: number }>(
        url(),
        `SELECT version FROM ${schema}.agentctx_user_state WHERE state_key = 'count'`,
      );
      expect(rows).toEqual([{ version: 20 }]);
    });

    it('keeps every concurrent write of distinct shared keys, and gives concurrent artifact saves distinct versions', async () => {
      const schema = newSchema();
      const stores = Array.from({ length: 10 }, () => open({ schema, pool: { max: 1 } }));
      await Promise.all(stores.map((store, i) => store.createSession({ ...key, sessionId: `s${i}` })));
      await Promise.all(
        stores.map(async (store, i) => {
          const session = (await store.getSession({ ...key, sessionId: `s${i}` })) as Session;
          for (let n = 0; n < 5; n++)
            await store.appendEvent({
              session,
              event: event({ actions: { stateDelta: { [`user:k${i}`]: n, [`app:k${i}`]: n } } }),
            });
        }),
      );
      const state = (await stores[0]?.createSession({ ...key, sessionId: 'check' }))?.state ?? {};
      expect(Object.keys(state)).toHaveLength(20);
      expect(Object.values(state).every((value) => value === 4)).toBe(true);

      const artifacts = Array.from({ length: 10 }, () => openArtifacts(schema));
      const versions = await Promise.all(
        artifacts.map((store, i) => store.save({ ...key, filename: 'log.txt', artifact: textArtifact(`v${i}`) })),
      );
      expect([...versions].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    });

    it('migrates a new schema once when many stores open it at the same moment', async () => {
      const schema = newSchema();
      const results = await Promise.all(Array.from({ length: 8 }, () => open({ schema }).migrate()));
      expect(results.filter((result) => result.applied.length > 0)).toEqual([
        { from: 0, to: SCHEMA_VERSION, applied: MIGRATIONS.map((m) => m.name) },
      ]);
    });
  });

  describe('postgres schema', () => {
    it('stores event payloads and state values as json, keeping the exact text, key order and all', async () => {
      const schema = newSchema();
      const store = open({ schema });
      const session = await store.createSession({ ...key, state: { 'user:profile': { zeta: 1, alpha: 'a\u0000b' } } });
      const odd = { z: 1, a: [{ y: 'lone \ud800 surrogate', b: null }], 'key with \u0000': true };
      const input = event({
        content: { role: 'model', parts: [{ functionCall: { name: 'f', args: odd } }] },
        actions: { stateDelta: { own: odd, 'app:odd': odd } },
      });
      const stored = await store.appendEvent({ session, event: input });
      const reloaded = (await store.getSession(key)) as Session;
      expect(JSON.stringify(reloaded.events)).toBe(JSON.stringify([stored]));
      expect(JSON.stringify(reloaded.events[0]?.content)).toBe(JSON.stringify(input.content));
      expect(JSON.stringify(reloaded.state)).toBe(
        JSON.stringify({ own: odd, 'app:odd': odd, 'user:profile': { zeta: 1, alpha: 'a\u0000b' } }),
      );
      const types = await queryDirect<{ table_name: string; column_name: string; data_type: string }>(
        url(),
        `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND column_name IN ('event_json', 'value_json') ORDER BY table_name`,
        [schema],
      );
      expect(types.map((row) => row.data_type)).toEqual(['json', 'json', 'json', 'json']);
    });

    it('reads a window of recent events backwards along the primary key, never the whole history', async () => {
      const schema = newSchema();
      const store = open({ schema });
      const session = await store.createSession(key);
      for (let i = 0; i < 30; i++) await store.appendEvent({ session, event: event({ timestamp: 100 + i }) });
      expect((await store.getSession({ ...key, numRecentEvents: 3 }))?.events.map((e) => e.timestamp)).toEqual([
        127, 128, 129,
      ]);
      const explain = async (sql: string): Promise<string> =>
        (await explainDirect(url(), sql.replace('FROM agentctx_events', `FROM ${schema}.agentctx_events`))).join('\n');
      const recent = await explain(
        `SELECT event_json FROM agentctx_events WHERE app_name = 'app' AND user_id = 'u1' AND session_id = 's1' ORDER BY seq DESC LIMIT 20`,
      );
      expect(recent).toMatch(/Index Scan Backward using agentctx_events_pkey/);
      expect(recent).not.toMatch(/Sort|Seq Scan/);
      const after = await explain(
        `SELECT event_json FROM agentctx_events WHERE app_name = 'app' AND user_id = 'u1' AND session_id = 's1' AND event_time >= 125 ORDER BY seq`,
      );
      expect(after).toMatch(/agentctx_events_by_time|agentctx_events_pkey/);
      expect(after).not.toMatch(/Seq Scan/);
    });

    it('upgrades a database written at schema version 1 in place', async () => {
      const schema = newSchema();
      const driver = createPgDriver({ url: url(), schema });
      await migrate(driver, { migrations: MIGRATIONS.slice(0, 1) });
      await driver.run(`INSERT INTO agentctx_sessions VALUES ('app', 'u1', 's1', 1, 0, 10, 11)`);
      await driver.run(
        `INSERT INTO agentctx_events VALUES ('app', 'u1', 's1', 1, 'ev-old', 11, '{"id":"ev-old","invocationId":"i","author":"user","timestamp":11,"actions":{"stateDelta":{"b":1,"a":2},"artifactDelta":{}}}')`,
      );
      await driver.run(`INSERT INTO agentctx_user_state VALUES ('app', 'u1', 'count', '1')`);
      await driver.close();
      const store = open({ schema });
      const session = (await store.getSession(key)) as Session;
      expect(session).toMatchObject({
        revision: 1,
        state: { 'user:count': 1 },
        sharedStateVersions: { 'user:count': 1 },
      });
      expect(Object.keys(session.events[0]?.actions.stateDelta ?? {})).toEqual(['b', 'a']);
      await store.appendEvent({ session, event: event({ actions: { stateDelta: { 'user:count': 2 } } }) });
      expect(await store.migrate()).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION, applied: [] });
    });

    it('upgrades a database at the previous schema version whose recorded calls read back answered', async () => {
      const schema = newSchema();
      const driver = createPgDriver({ url: url(), schema });
      const previous = MIGRATIONS.findIndex((migration) => migration.name === 'model call lifecycle');
      await migrate(driver, { migrations: MIGRATIONS.slice(0, previous) });
      const old = { system: 'S', tools: [], messages: [{ role: 'user', content: [{ text: 'first ✓' }] }], config: {} };
      await driver.run(`INSERT INTO agentctx_sessions VALUES ('app', 'u1', 's1', 0, 1, 10, 11)`);
      await driver.run(
        `INSERT INTO agentctx_model_calls VALUES ('app', 'u1', 's1', 1, 'inv-1', 'a', 10.5, 1, 'ev-1', '{"outputTokens":2}', ?, ?, '{"system":[],"tools":[],"messages":[[]]}', NULL, NULL)`,
        [JSON.stringify(old).length, JSON.stringify(old)],
      );
      await driver.close();
      const store = open({ schema });
      expect(await store.listModelCalls(key)).toEqual([
        {
          index: 1,
          invocationId: 'inv-1',
          agent: 'a',
          timestamp: 10.5,
          editedByCallback: true,
          status: 'answered',
          responseEventId: 'ev-1',
          usage: { outputTokens: 2 },
          requestChars: JSON.stringify(old).length,
        },
      ]);
      expect((await store.getModelCall({ ...key, index: 1 }))?.request).toEqual(old);
      expect(
        await store.recordModelCall({
          ...key,
          call: {
            invocationId: 'inv-2',
            agent: 'a',
            timestamp: 12,
            request: old as never,
            provenance: { system: [], tools: [], messages: [[]] },
            editedByCallback: false,
          },
        }),
      ).toBe(2);
      // Completing a call writes its outcome row and leaves the request row as it was: the same version (xmin) in the same place (ctid).
      const requestRow = () =>
        queryDirect<{ version: string }>(
          url(),
          `SELECT xmin::text || ' ' || ctid::text AS version FROM ${schema}.agentctx_model_calls WHERE call_index = 2`,
        );
      const before = await requestRow();
      await store.completeModelCall({
        ...key,
        index: 2,
        outcome: {
          status: 'answered',
          latencyMs: 0.125,
          firstTokenMs: 1e-3,
          wire: { url: 'u', method: 'POST', body: 'nul \u0000 and 👋', attempts: 1 },
        },
      });
      expect(await requestRow()).toEqual(before);
      expect(await store.getModelCall({ ...key, index: 2 })).toMatchObject({
        status: 'answered',
        latencyMs: 0.125,
        firstTokenMs: 1e-3,
        wire: { body: 'nul \u0000 and 👋' },
      });
      expect(
        codeOf(
          await store
            .completeModelCall({ ...key, index: 2, outcome: { status: 'failed', latencyMs: 1 } })
            .catch((error: unknown) => error),
        ),
      ).toBe('already_exists');
      const outcomes = await queryDirect<{ call_index: number; status: string }>(
        url(),
        `SELECT call_index, status FROM ${schema}.agentctx_model_call_outcomes ORDER BY call_index`,
      );
      expect(outcomes).toEqual([
        { call_index: 1, status: 'answered' },
        { call_index: 2, status: 'answered' },
      ]);
      const columns = await queryDirect<{ table_name: string; column_name: string; data_type: string }>(
        url(),
        `SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name LIKE 'agentctx_model_call%' ORDER BY table_name, ordinal_position`,
        [schema],
      );
      const of = (table: string) =>
        columns.filter((row) => row.table_name === table).map((row) => `${row.column_name} ${row.data_type}`);
      expect(of('agentctx_model_calls').slice(15)).toEqual([
        'model_provider text',
        'model_id text',
        'parent_call_index integer',
        'parent_function_call_id text',
        'parent_tool text',
        'warnings_json text',
        'operation text',
        'billed_provider text',
        'billed_model_id text',
      ]);
      expect(of('agentctx_model_call_outcomes')).toEqual([
        'app_name text',
        'user_id text',
        'session_id text',
        'call_index integer',
        'status text',
        'latency_ms double precision',
        'first_token_ms double precision',
        'usage_json text',
        'error_text text',
        'response_event_id text',
        'wire_hash text',
        'wire_base_index integer',
        'wire_prefix integer',
        'wire_suffix integer',
        'wire_json text',
        'response_json text',
        'wire_body_json text',
      ]);
    });

    it('never writes a temp: key, and fails every call once closed', async () => {
      const schema = newSchema();
      const store = open({ schema });
      const session = await store.createSession({ ...key, state: { 'temp:init': 'TEMP-SECRET-1' } });
      await store.appendEvent({
        session,
        event: event({ actions: { stateDelta: { 'temp:x': 'TEMP-SECRET-2', 'user:y': 1 } } }),
      });
      const rows = await queryDirect<{ dump: string }>(
        url(),
        `SELECT concat_ws('|', (SELECT string_agg(event_json::text, '|') FROM ${schema}.agentctx_events), (SELECT string_agg(state_key || value_json::text, '|') FROM ${schema}.agentctx_user_state), (SELECT string_agg(state_key || value_json::text, '|') FROM ${schema}.agentctx_session_state)) AS dump`,
      );
      expect(rows[0]?.dump).toContain('user');
      expect(rows[0]?.dump).not.toMatch(/temp:|TEMP-SECRET/);
      await store.close();
      await expect(store.getSession(key)).rejects.toMatchObject({ code: 'usage' });
    });

    it('refuses a schema name it would have to quote', () => {
      expect(() => createPostgresSessionStore({ url: url(), schema: 'Bad-Name' })).toThrow(
        /schema: "Bad-Name" must be lower-case/,
      );
    });
  });
}
