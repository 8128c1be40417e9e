import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { expect } from 'vitest';
import { UnavailableError } from '../../src/contracts/errors/unavailable-error.js';
import type { SessionKey } from '../../src/contracts/session.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createServer, type AgentctxServer } from '../../src/server/index.js';
import { createPostgresSessionStore } from '../../src/stores/postgres/create-postgres-store.js';
import { createPgDriver } from '../../src/stores/postgres/pg-driver.js';
import { defineRows } from '../reliability/rows.js';
import { caught, scratch } from '../reliability/support.js';
import { spawnListening } from '../support/listening.js';
import { startOwnCluster, type OwnCluster } from '../../bench/postgres-cluster.js';
import { createTestDatabase, TEST_POSTGRES_URL } from '../support/postgres.js';
import { api, parseSse, sseReader } from './helpers.js';

// Part 3, PostgreSQL failing under the servers: restarted while turns are in flight (on a cluster of this file's own,
// so other files' server is not disturbed), its pool exhausted, a statement past statement_timeout. Each request it
// cuts off gets 503 `store_unavailable` with Retry-After (an `event: error` once a turn's stream has started), nothing
// is half-written, nothing is logged as a bug, and the same server process answers again once PostgreSQL does.

const NO_POSTGRES =
  TEST_POSTGRES_URL === undefined ? 'TEST_POSTGRES_URL is not set (eval "$(bash .ci/postgres.sh start)")' : undefined;
// A restart needs a cluster of this file's own, which .ci/postgres.sh makes from local binaries (or installs, as root).
const NO_CLUSTER =
  NO_POSTGRES ??
  (process.getuid?.() !== 0 && !existsSync('/usr/lib/postgresql')
    ? 'no PostgreSQL under /usr/lib/postgresql to start a cluster of its own with'
    : undefined);
const tmp = scratch();
const children: ChildProcessWithoutNullStreams[] = [];
const servers: AgentctxServer[] = [];
const disposals: (() => Promise<unknown>)[] = [];
let cluster: Promise<OwnCluster> | undefined;

const ownCluster = (): Promise<OwnCluster> => {
  cluster ??= startOwnCluster().then((started) => {
    disposals.push(started.dispose);
    return started;
  });
  return cluster;
};

// Run after the rows (through defineRows, so the table writer can import this file outside vitest).
const cleanUp = async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const server of servers.splice(0)) {
    server.abortTurns();
    await server.close();
  }
  for (const dispose of disposals.splice(0).reverse()) await dispose().catch(() => undefined);
  await tmp.cleanup();
};

const SESSIONS = '/apps/waiter/users/u/sessions';
const KEY: SessionKey = { appName: 'waiter', userId: 'u', sessionId: 's1' };
// A shutdown ends the lock holder's session and the writer's in either order, and a writer that got the lock first
// commits at once (its whole transaction is already on the wire): so the test ends the waiting writer's session
// first, as the shutdown does to every session (57P01, "terminating connection due to administrator command"), then
// stops the server. The message is matched loosely: the writer may also find its connection gone at its next read.
const CLOSED = /^PostgreSQL closed the connection during this request: .+\. The server restarted or stopped/;
const unavailable = (message: RegExp) => ({
  code: 'store_unavailable',
  message: expect.stringMatching(message),
  hint: expect.stringMatching(/^Retry/),
});

/** A cluster of the row's own, started, and one server on it (the restart rows stop and start the cluster). */
async function serveOnOwnCluster(protocol: 'agentctx' | 'adk') {
  const cluster = await ownCluster();
  await cluster.start();
  const release = join(await tmp.dir(), 'release');
  const server = await serve(cluster.url, release, protocol);
  return { ...cluster, release, server, client: api(server.url) };
}

/** `agentctx serve` on `store`, with the agent whose tool waits for the file `release`; resolves once it listens. */
async function serve(
  store: string,
  release: string,
  protocol: 'agentctx' | 'adk',
): Promise<{ url: string; child: ChildProcessWithoutNullStreams; stderr: () => string }> {
  const server = spawnListening(
    [
      'serve',
      'test/fixtures/waiting-agent.mjs',
      '--model',
      'scripted:test/fixtures/waiting-script.yaml',
      '--store',
      store,
      '--protocol',
      protocol,
      '--port',
      '0',
    ],
    {
      AGENTCTX_TEST_RELEASE: release,
      AGENTCTX_TOKEN: '',
    },
    /listening on (http:\/\/127\.0\.0\.1:\d+)/,
  );
  children.push(server.child);
  return { url: await server.url, child: server.child, stderr: () => server.output().stderr };
}

/**
 * Holds session `key`'s row locked from another connection, so the store's next append waits mid-transaction (its
 * UPDATE of the revision blocks); `waiting()` counts the statements of the database waiting for a lock, and
 * `endWaiting()` ends their sessions.
 */
async function lockSession(
  url: string,
  key: SessionKey,
): Promise<{ waiting(): Promise<number>; endWaiting(): Promise<void>; release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  // A restart ends this connection too.
  client.on('error', () => undefined);
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT 1 FROM agentctx_sessions WHERE app_name = $1 AND user_id = $2 AND id = $3 FOR UPDATE', [
    key.appName,
    key.userId,
    key.sessionId,
  ]);
  return {
    waiting: async () =>
      (
        await client.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
        )
      ).rows[0]?.n ?? 0,
    // What a shutdown does to each session, done to the waiting writer's first.
    endWaiting: async () =>
      void (await client.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
      )),
    release: async () => {
      await client.query('COMMIT').catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

/**
 * Lets the waiting tool go while session `key`'s row is locked, so its answer's write waits mid-transaction, then
 * stops PostgreSQL under it (the writer's session ended first, as the shutdown does to every session).
 */
async function stopMidWrite(url: string, key: SessionKey, release: string, stop: () => Promise<void>): Promise<void> {
  const lock = await lockSession(url, key);
  await writeFile(release, '');
  await expect.poll(() => lock.waiting(), { timeout: 10_000 }).toBe(1);
  await lock.endWaiting();
  await stop();
  await lock.release();
}

/**
 * What the restart left, after the next turn: one revision per stored event, no event twice, and the tool's answer the
 * restart cut off not stored: the next turn first answered that call as interrupted, then ran its own.
 */
async function expectWhole(url: string, key: SessionKey): Promise<void> {
  const store = createPostgresSessionStore({ url });
  try {
    const session = await store.getSession(key);
    const events = session?.events ?? [];
    expect(session?.revision, 'one revision per stored event: nothing half-written').toBe(events.length);
    expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
    const answered = events.flatMap((event) =>
      (event.content?.parts ?? []).flatMap((part) => ('functionResponse' in part ? [part.functionResponse.id] : [])),
    );
    expect(new Set(answered).size, 'no call answered twice').toBe(answered.length);
    expect(events.map((event) => event.content?.parts?.[0])).toMatchObject([
      { text: 'go' },
      { functionCall: { name: 'wait' } },
      { functionResponse: { name: 'wait', response: { error: expect.stringMatching(/^interrupted: /) } } },
      { text: 'after the restart' },
      { functionCall: { name: 'wait' } },
      { functionResponse: { name: 'wait', response: { released: true } } },
      { text: 'finished' },
    ]);
  } finally {
    await store.close();
  }
}

/** A server in this process on `url`, with an agent that answers at once; its log of unexpected errors is kept. */
async function inProcess(url: string): Promise<{ client: ReturnType<typeof api>; logged: unknown[] }> {
  const store = createPostgresSessionStore({ url });
  disposals.push(() => store.close());
  const model = createScriptedModel({ rules: [{ respond: { text: 'answered' } }] });
  const runner = createRunner({ agents: llmAgent({ name: 'waiter', instruction: 'Answer.' }), sessions: store, model });
  const logged: unknown[] = [];
  const server = createServer({ runner, onError: (error) => logged.push(error) });
  servers.push(server);
  const { url: base } = await server.listen(0);
  return { client: api(base), logged };
}

async function testDatabase(label: string): Promise<string> {
  const database = await createTestDatabase(TEST_POSTGRES_URL as string, label);
  disposals.push(database.drop);
  return database.url;
}

export const rows = defineRows(
  import.meta.url,
  'faults',
  [
    {
      id: 'store.postgres-restart',
      entry: 'serve (PostgreSQL)',
      tried:
        'PostgreSQL stopped (fast shutdown, as a restart does, the waiting writer\u2019s session ended first) while a turn\u2019s write waits mid-transaction, requests sent while it is down, then started again; one `agentctx serve` process throughout',
      expected:
        'the turn in flight ends with `event: error` `store_unavailable` ("PostgreSQL closed the connection during this request: terminating connection due to administrator command (SQLSTATE 57P01)", or the connection found broken at the next statement); while down, creating a session, a turn and a read get 503 `store_unavailable` with `Retry-After: 1`; once it is back the same process answers the next turn, which first answers the cut-off call as interrupted (the tool\u2019s answer that was being written is not stored); revision = events; no write retried as a conflict; nothing on stderr',
      skip: NO_CLUSTER,
      timeout: 30_000,
      run: async () => {
        const { url, stop, start, release, server, client } = await serveOnOwnCluster('agentctx');
        expect((await client.post(SESSIONS, { sessionId: 's1' })).status).toBe(201);
        const stream = sseReader(await client.run(`${SESSIONS}/s1`, { message: 'go' }));
        expect((await stream.next())?.data).toMatchObject({ author: 'user' });
        expect((await stream.next())?.data).toMatchObject({ content: { parts: [{ functionCall: { name: 'wait' } }] } });
        await stopMidWrite(url, KEY, release, stop);
        expect(await stream.rest()).toEqual([{ event: 'error', data: { error: unavailable(CLOSED) } }]);

        const down = [
          await client.post(SESSIONS, { sessionId: 's2' }),
          await client.post(`${SESSIONS}/s1/run`, { message: 'again' }),
          await client.get(`${SESSIONS}/s1`),
        ];
        for (const answer of down) {
          expect({ status: answer.status, retryAfter: answer.headers.get('retry-after'), body: answer.json }).toEqual({
            status: 503,
            retryAfter: '1',
            body: { error: unavailable(/^PostgreSQL cannot be reached: connect ECONNREFUSED 127\.0\.0\.1:\d+\.$/) },
          });
        }

        await start();
        const next = parseSse(await (await client.run(`${SESSIONS}/s1`, { message: 'after the restart' })).text());
        expect(next.at(-1)?.event).toBe('done');
        expect(next.filter((frame) => frame.event !== 'event' && frame.event !== 'done')).toEqual([]);
        expect(next.filter((frame) => (frame.data as { errorCode?: string }).errorCode !== undefined)).toEqual([]);
        expect(next.at(-2)?.data).toMatchObject({ content: { parts: [{ text: 'finished' }] } });
        await expectWhole(url, KEY);
        // Not taken for a conflict: the runner did not reload and retry the write.
        expect((await client.get('/healthz')).json).toMatchObject({ conflictsRetried: 0 });
        expect(server.child.exitCode).toBeNull();
        expect(server.stderr()).toBe('');
      },
    },
    {
      id: 'store.postgres-restart-adk',
      entry: 'serve --protocol adk (PostgreSQL)',
      tried:
        'the same restart under ADK\u2019s protocol: PostgreSQL stopped while a `/run_sse` turn\u2019s write waits mid-transaction, `/run` and a new session sent while it is down, then started again',
      expected:
        'the stream in flight ends with ADK\u2019s `data: {"error": …}` naming PostgreSQL and saying to retry; while down, 503 `{ "error": "PostgreSQL cannot be reached: … Retry …" }` with `Retry-After: 1`; once it is back `/run` answers, the cut-off answer not stored; revision = events; nothing on stderr',
      skip: NO_CLUSTER,
      timeout: 30_000,
      run: async () => {
        const { url, stop, start, release, server, client } = await serveOnOwnCluster('adk');
        const key = { ...KEY, sessionId: 'adk1' };
        expect((await client.post(`${SESSIONS}/adk1`, {})).status).toBe(200);
        const turn = (text: string) => ({
          appName: 'waiter',
          userId: 'u',
          sessionId: 'adk1',
          newMessage: { role: 'user', parts: [{ text }] },
        });
        const stream = sseReader(
          await fetch(`${server.url}/run_sse`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(turn('go')),
          }),
        );
        expect((await stream.next())?.data).toMatchObject({ content: { parts: [{ functionCall: { name: 'wait' } }] } });
        await stopMidWrite(url, key, release, stop);
        expect(await stream.rest()).toEqual([
          {
            event: 'message',
            data: { error: expect.stringMatching(new RegExp(`${CLOSED.source}.* Retry once the server is back`)) },
          },
        ]);

        for (const answer of [await client.post('/run', turn('again')), await client.post(`${SESSIONS}/adk2`, {})]) {
          expect({ status: answer.status, retryAfter: answer.headers.get('retry-after') }).toEqual({
            status: 503,
            retryAfter: '1',
          });
          expect(answer.json).toEqual({
            error: expect.stringMatching(/^PostgreSQL cannot be reached: connect ECONNREFUSED .* Retry in a moment/),
          });
        }

        await start();
        const after = await client.post('/run', turn('after the restart'));
        expect(after.status).toBe(200);
        expect((after.json as { content?: unknown }[]).at(-1)).toMatchObject({
          content: { parts: [{ text: 'finished' }] },
        });
        await expectWhole(url, key);
        expect(server.child.exitCode).toBeNull();
        expect(server.stderr()).toBe('');
      },
    },
    {
      id: 'store.pool-exhausted',
      entry: 'HTTP API (PostgreSQL)',
      tried:
        'a store URL with `?max=1&connectionTimeoutMillis=300`; the pool\u2019s one connection held by a turn whose write waits on a row lock mid-transaction; a read of the session sent meanwhile',
      expected:
        'the read gets 503 `store_unavailable` ("No PostgreSQL connection came free within 300 ms: all 1 of this process\u2019s pool were in use") with `Retry-After: 1` after 300 ms, not 10 s; once the lock goes the turn finishes and the next read answers; nothing logged as a bug',
      skip: NO_POSTGRES,
      run: async () => {
        const url = await testDatabase('pool');
        const { client, logged } = await inProcess(`${url}?max=1&connectionTimeoutMillis=300`);
        expect((await client.post(SESSIONS, { sessionId: 's1' })).status).toBe(201);
        const lock = await lockSession(url, KEY);
        const turn = client.run(`${SESSIONS}/s1`, { message: 'go' }).then((response) => response.text());
        await expect.poll(() => lock.waiting(), { timeout: 10_000 }).toBe(1);
        const started = Date.now();
        const read = await client.get(`${SESSIONS}/s1`);
        const waited = Date.now() - started;
        expect({ status: read.status, retryAfter: read.headers.get('retry-after'), body: read.json }).toEqual({
          status: 503,
          retryAfter: '1',
          body: {
            error: unavailable(
              /^No PostgreSQL connection came free within 300 ms: all 1 of this process's pool were in use\.$/,
            ),
          },
        });
        expect(waited).toBeGreaterThanOrEqual(250);
        expect(waited).toBeLessThan(2000);
        await lock.release();
        expect(parseSse(await turn).map((frame) => frame.event)).toEqual(['event', 'event', 'done']);
        expect((await client.get(`${SESSIONS}/s1`)).json).toMatchObject({ revision: 2 });
        expect(logged).toEqual([]);
      },
    },
    {
      id: 'store.statement-timeout',
      entry: 'HTTP API (PostgreSQL)',
      tried:
        'a store URL with `?statement_timeout=200` (pg\u2019s own parameter): a turn whose first write waits on a row lock past it; then `SELECT pg_sleep(2)` through the driver',
      expected:
        'the turn gets 503 `store_unavailable` ("canceled a statement that ran past its time limit: canceling statement due to statement timeout (SQLSTATE 57014)") before its stream starts, and stores nothing (revision 0); the driver throws `UnavailableError` (reason `timeout`) and its next statement runs; the next turn answers',
      skip: NO_POSTGRES,
      run: async () => {
        const url = await testDatabase('timeout');
        const { client, logged } = await inProcess(`${url}?statement_timeout=200`);
        expect((await client.post(SESSIONS, { sessionId: 's1' })).status).toBe(201);
        const lock = await lockSession(url, KEY);
        const refused = await client.post(`${SESSIONS}/s1/run`, { message: 'go' });
        await lock.release();
        expect({ status: refused.status, retryAfter: refused.headers.get('retry-after'), body: refused.json }).toEqual({
          status: 503,
          retryAfter: '1',
          body: {
            error: unavailable(
              /^PostgreSQL canceled a statement that ran past its time limit: canceling statement due to statement timeout \(SQLSTATE 57014\)\.$/,
            ),
          },
        });
        expect((await client.get(`${SESSIONS}/s1`)).json).toMatchObject({ revision: 0, events: [] });

        const driver = createPgDriver({ url: `${url}?statement_timeout=200` });
        disposals.push(() => driver.close());
        const slow = await caught(() => driver.query('SELECT pg_sleep(2)'));
        expect(UnavailableError.isInstance(slow) && slow.reason).toBe('timeout');
        expect(await driver.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);

        expect(
          parseSse(await (await client.run(`${SESSIONS}/s1`, { message: 'again' })).text()).map((frame) => frame.event),
        ).toEqual(['event', 'event', 'done']);
        expect(logged).toEqual([]);
      },
    },
  ],
  { afterAll: cleanUp },
);
