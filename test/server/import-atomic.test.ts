import { join } from 'node:path';
import { expect } from 'vitest';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import type { AgentctxServer } from '../../src/server/index.js';
import { createPostgresSessionStore } from '../../src/stores/postgres/index.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { weatherRunner } from '../adk/weather-app.js';
import { defineRows } from '../reliability/rows.js';
import { scratch } from '../reliability/support.js';
import { createTestDatabase, TEST_POSTGRES_URL } from '../support/postgres.js';

// ADK's POST …/sessions/{id} may carry events to import. Before: the session was created and the events appended one
// by one, so an event that failed when stored (not when checked) left the session, the events before it and their
// shared `user:` state written, answered 400, and a retry got 409. Now the store writes them with the session, all or
// none, on every store.

const tmp = scratch();
const NO_POSTGRES = TEST_POSTGRES_URL === undefined ? 'TEST_POSTGRES_URL is not set (eval "$(bash .ci/postgres.sh start)")' : undefined;
const servers: AgentctxServer[] = [];
const cleanups: (() => Promise<void>)[] = [];

async function storeOf(kind: 'memory' | 'sqlite' | 'postgres'): Promise<SessionStore> {
  if (kind === 'memory') return createInMemorySessionStore();
  if (kind === 'sqlite') {
    const store = createSqliteSessionStore({ path: join(await tmp.dir(), 'import.db') });
    cleanups.push(() => store.close());
    return store;
  }
  const database = await createTestDatabase(TEST_POSTGRES_URL as string, 'import');
  const store = createPostgresSessionStore({ url: database.url, pool: { max: 2 } });
  cleanups.push(async () => {
    await store.close();
    await database.drop();
  });
  return store;
}

const IMPORT = {
  events: [
    { id: 'ok1', author: 'user', timestamp: 1, actions: { stateDelta: { 'user:str': 's' } } },
    { id: 'bad2', author: 'user', timestamp: 2, actions: { stateOps: [{ op: 'add', key: 'user:str', by: 1 }] } },
  ],
};

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  (['memory', 'sqlite', 'postgres'] as const).map((kind) => ({
    id: `http.adk-import-${kind}`,
    entry: 'HTTP API body',
    tried: `ADK's session import (${kind} store): \`POST …/sessions/imp5\` with an event setting \`user:str\` to "s", then one adding 1 to it (valid alone, refused when stored); then the same import without the bad event`,
    expected: '400 naming the operation; the session is not there (404), `user:str` is as it was (absent), and the retry creates the session (200, not 409) with its one event',
    skip: kind === 'postgres' ? NO_POSTGRES : undefined,
    run: async () => {
      const sessions = await storeOf(kind);
      const runner = weatherRunner(sessions);
      const server = createAdkServer({ runners: [runner], version: 'test' });
      servers.push(server);
      const { url } = await server.listen(0);
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${url}${path}`, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
        return { status: response.status, json: (await response.json()) as unknown };
      };
      const base = '/apps/weather_agent/users/mallory/sessions';
      const refused = await call('POST', `${base}/imp5`, IMPORT);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.json)).toMatch(/add|number/);
      expect((await call('GET', `${base}/imp5`)).status).toBe(404);
      const other = await call('POST', `${base}/other`);
      expect((other.json as { state: Record<string, unknown> }).state).toEqual({});
      const retried = await call('POST', `${base}/imp5`, { events: [IMPORT.events[0]] });
      expect(retried.status).toBe(200);
      expect(retried.json).toMatchObject({ id: 'imp5', state: { 'user:str': 's' }, events: [{ id: 'ok1' }] });
    },
  })),
  {
    afterAll: async () => {
      for (const server of servers.splice(0)) await server.close();
      for (const cleanup of cleanups.splice(0)) await cleanup();
      await tmp.cleanup();
    },
  },
);
