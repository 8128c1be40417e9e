import { expect } from 'vitest';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import type { AgentctxServer } from '../../src/server/index.js';
import { weatherRunner } from '../adk/weather-app.js';
import { defineRows } from '../reliability/rows.js';
import { sessionStores, storeSkip, STORE_KINDS } from '../support/session-stores.js';

// ADK's POST …/sessions/{id} may carry events to import. Before: the session was created and the events appended one
// by one, so an event that failed when stored (not when checked) left the session, the events before it and their
// shared `user:` state written, answered 400, and a retry got 409. Now the store writes them with the session, all or
// none, on every store.

const stores = sessionStores('import');
const servers: AgentctxServer[] = [];

const IMPORT = {
  events: [
    { id: 'ok1', author: 'user', timestamp: 1, actions: { stateDelta: { 'user:str': 's' } } },
    { id: 'bad2', author: 'user', timestamp: 2, actions: { stateOps: [{ op: 'add', key: 'user:str', by: 1 }] } },
  ],
};

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  STORE_KINDS.map((kind) => ({
    id: `http.adk-import-${kind}`,
    entry: 'HTTP API body',
    tried: `ADK's session import (${kind} store): \`POST …/sessions/imp5\` with an event setting \`user:str\` to "s", then one adding 1 to it (valid alone, refused when stored); then the same import without the bad event`,
    expected:
      '400 naming the operation; the session is not there (404), `user:str` is as it was (absent), and the retry creates the session (200, not 409) with its one event',
    skip: storeSkip(kind),
    run: async () => {
      const sessions = await stores.open(kind);
      const runner = weatherRunner(sessions);
      const server = createAdkServer({ runners: [runner], version: 'test' });
      servers.push(server);
      const { url } = await server.listen(0);
      const call = async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${url}${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
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
      await stores.closeAll();
    },
  },
);
