import { expect } from 'vitest';
import { createInMemoryArtifactStore } from '../../src/engine/session/in-memory-artifact-store.js';
import type { Runner } from '../../src/engine/runner/runner.js';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import { createServer, type AgentctxServer } from '../../src/server/index.js';
import { weatherRunner } from '../adk/weather-app.js';
import { defineRows } from '../reliability/rows.js';
import { rawRequest } from '../support/raw-request.js';
import { sessionStores, storeSkip, STORE_KINDS, type StoreKind } from '../support/session-stores.js';

// Request paths that WHATWG URL parsing would rewrite — dot segments, plain or percent-encoded, and backslashes —
// on both servers. Before: `DELETE …/sessions/d3/artifacts/%2e%2e` was routed to `DELETE …/sessions/d3` and deleted
// the session with its events. Now such a path is refused with 400 `bad_path` and nothing is touched.

const servers: AgentctxServer[] = [];
const stores = sessionStores('dots');

type Served = { port: number; runner: Runner; base: string };

/** Either server over the weather app, with session d3 of user dd holding state and artifact a.txt. */
async function serve(protocol: 'agentctx' | 'adk', kind: StoreKind = 'memory'): Promise<Served> {
  const runner = weatherRunner(await stores.open(kind));
  const server =
    protocol === 'adk' ? createAdkServer({ runners: [runner], version: 'test' }) : createServer({ runner });
  servers.push(server);
  const { port } = await server.listen(0);
  await runner.createSession({ userId: 'dd', sessionId: 'd3', state: { keep: 'me' } });
  await runner.artifacts!.save({
    appName: runner.appName,
    userId: 'dd',
    sessionId: 'd3',
    filename: 'a.txt',
    artifact: { kind: 'text', mimeType: 'text/plain', text: 'kept' },
  });
  return { port, runner, base: `/apps/${runner.appName}/users/dd/sessions` };
}

/** A raw request's status, its error code (agentctx's API) and its body. */
async function send(
  port: number,
  method: string,
  target: string,
): Promise<{ status: number; code: string | undefined; body: string }> {
  const { status, body } = await rawRequest(port, method, target);
  return { status, code: /"code":"([a-z_]+)"/.exec(body)?.[1], body };
}

async function kept(runner: Runner): Promise<unknown> {
  const key = { appName: runner.appName, userId: 'dd', sessionId: 'd3' };
  return {
    state: (await runner.sessions.getSession(key))?.state,
    versions: await runner.artifacts!.listVersions({ ...key, filename: 'a.txt' }),
  };
}

const DOTS = ['..', '%2e%2e', '.%2E', '%2E.', '.', '%2e'];

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    ...(['agentctx', 'adk'] as const).flatMap((protocol) =>
      STORE_KINDS.map((kind) => ({
        id: `http.dot-segments-${protocol}-${kind}`,
        entry: 'HTTP API body',
        skip: storeSkip(kind),
        tried: `on ${protocol === 'adk' ? "ADK's protocol" : "agentctx's API"} (${kind} store): DELETE and GET of …/artifacts/{..|%2e%2e|.%2E|%2E.|.|%2e}, a dot segment in the middle of a path (…/sessions/d3/x/../artifacts) and a backslash (…/artifacts/x\\..)`,
        expected: `400 ${protocol === 'adk' ? '`{ error }` naming the segment' : '`bad_path`'} for every one; the session, its state and its artifact are all still there (before: the DELETE deleted the whole session)`,
        run: async () => {
          const { port, runner, base } = await serve(protocol, kind);
          const before = await kept(runner);
          expect(before).toEqual({ state: { keep: 'me' }, versions: [0] });
          const targets = [
            ...DOTS.map((dots) => `${base}/d3/artifacts/${dots}`),
            `${base}/d3/x/../artifacts`,
            `${base}/d3/artifacts/x\\..`,
            `${base}/d3/artifacts/a.txt/..`,
          ];
          for (const target of targets) {
            for (const method of ['DELETE', 'GET']) {
              const { status, code, body } = await send(port, method, target);
              // ADK's protocol answers `{ error: message }`, without agentctx's codes.
              expect({
                target,
                method,
                status,
                refused: protocol === 'adk' ? /resolved as a step up|backslash/.test(body) : code === 'bad_path',
              }).toEqual({ target, method, status: 400, refused: true });
            }
          }
          expect(await kept(runner)).toEqual(before);
          // Names that only look like dot segments are ordinary names.
          expect((await send(port, 'GET', `${base}/d3/artifacts/...`)).status).toBe(404);
          expect((await send(port, 'GET', `${base}/d3/artifacts/a.txt`)).status).toBe(200);
        },
      })),
    ),
    {
      id: 'tool.artifact-dot-names',
      entry: 'tool arguments',
      tried: "a tool saving an artifact named '..' or '.'; deleting one saved before the rule",
      expected:
        'the save is refused with a ValidationError naming `filename` and why (no URL can name it); `...` is an ordinary name; deleting `..` still works (for one stored before)',
      run: async () => {
        const store = createInMemoryArtifactStore();
        const key = { appName: 'app', userId: 'u', sessionId: 's' };
        for (const filename of ['..', '.']) {
          await expect(
            store.save({ ...key, filename, artifact: { kind: 'text', mimeType: 'text/plain', text: 'x' } }),
          ).rejects.toMatchObject({
            name: 'ValidationError',
            issues: [{ path: 'filename', message: expect.stringContaining('no URL can name') }],
          });
        }
        expect(await store.list(key)).toEqual([]);
        await store.save({ ...key, filename: '...', artifact: { kind: 'text', mimeType: 'text/plain', text: 'x' } });
        expect(await store.list(key)).toEqual(['...']);
        await store.delete({ ...key, filename: '..' });
      },
    },
  ],
  {
    afterAll: async () => {
      for (const server of servers.splice(0)) await server.close();
      await stores.closeAll();
    },
  },
);
