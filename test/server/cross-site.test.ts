import { expect } from 'vitest';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import { createServer, type AgentctxServer } from '../../src/server/index.js';
import { weatherRunner } from '../adk/weather-app.js';
import { defineRows } from '../reliability/rows.js';
import { agentctx } from '../support/cli.js';
import { sessionStores, storeSkip, STORE_KINDS, type StoreKind } from '../support/session-stores.js';

// A web page can send a bodyless POST to another origin without asking first (a CORS "simple request"), and ADK's
// protocol creates a session from one. Before: `--protocol adk` created sessions for `Origin: http://evil.example`.
// Now every request that may change something, on both protocols, is refused when a browser says it comes from a page
// of another origin, unless the server names that origin in `allowedOrigins`.

const servers: AgentctxServer[] = [];
const stores = sessionStores('crosssite');

async function serve(protocol: 'agentctx' | 'adk', allowedOrigins?: string[], kind: StoreKind = 'memory') {
  const runner = weatherRunner(await stores.open(kind));
  const settings = allowedOrigins === undefined ? {} : { allowedOrigins };
  const server =
    protocol === 'adk'
      ? createAdkServer({ runners: [runner], version: 'test', ...settings })
      : createServer({ runner, ...settings });
  servers.push(server);
  const { url, port } = await server.listen(0);
  const sessions = async () =>
    (await runner.sessions.listSessions({ appName: runner.appName, userId: 'ann' }))
      .map((session) => session.id)
      .sort();
  // What a browser sends: for ADK no body; for agentctx's API a JSON body (which a browser only sends after a preflight).
  const create = async (id: string, headers: Record<string, string>) => {
    const init =
      protocol === 'adk'
        ? { method: 'POST', headers }
        : {
            method: 'POST',
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({ sessionId: id }),
          };
    const response = await fetch(
      `${url}/apps/weather_agent/users/ann/sessions${protocol === 'adk' ? `/${id}` : ''}`,
      init,
    );
    return { status: response.status, text: await response.text() };
  };
  return { url, port, sessions, create };
}

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    ...(['adk', 'agentctx'] as const).flatMap((protocol) =>
      STORE_KINDS.map((kind) => ({
        id: `http.cross-site-${protocol}-${kind}`,
        entry: 'HTTP API body',
        skip: storeSkip(kind),
        tried: `on ${protocol === 'adk' ? "ADK's protocol" : "agentctx's API"} (${kind} store): creating a session with \`Origin: http://evil.example\`, with \`Origin: null\`, and with \`Sec-Fetch-Site: cross-site\` or \`same-site\` (a page on another port); then from the server's own origin, with \`Sec-Fetch-Site: same-origin\`, with no browser headers, and from an origin the server allows`,
        expected:
          "the three from other origins' pages: 403 `cross_site_request` naming the origin and how to allow it, nothing created; the rest create their sessions; GET answers whatever the origin",
        run: async () => {
          const { port, sessions, create } = await serve(protocol, undefined, kind);
          for (const headers of [
            { origin: 'http://evil.example' },
            { origin: 'null' },
            { 'sec-fetch-site': 'cross-site' },
            { 'sec-fetch-site': 'same-site', origin: 'http://127.0.0.1:1' },
          ]) {
            const reply = await create('evil', headers);
            expect({ headers, status: reply.status }).toEqual({ headers, status: 403 });
            expect(reply.text).toMatch(/cross_site_request|another origin's pages/);
          }
          expect(await sessions()).toEqual([]);
          expect(
            (await create('own', { origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' })).status,
          ).toBeLessThan(300);
          expect((await create('plain', {})).status).toBeLessThan(300);
          expect(await sessions()).toEqual(['own', 'plain']);
          const allowing = await serve(protocol, ['http://app.example'], kind);
          expect(
            (await allowing.create('app', { origin: 'http://app.example', 'sec-fetch-site': 'cross-site' })).status,
          ).toBeLessThan(300);
          expect((await allowing.create('evil', { origin: 'http://evil.example' })).status).toBe(403);
          expect(await allowing.sessions()).toEqual(['app']);
        },
      })),
    ),
    {
      id: 'cli.allow-origin',
      entry: 'CLI flags',
      tried: '`serve --allow-origin` with a path, a trailing slash, or no scheme',
      expected: 'one line naming the value and the origin it may have meant, exit 2',
      run: async () => {
        for (const [value, meant] of [
          ['https://app.example/', "(did you mean 'https://app.example'?)"],
          ['http://localhost:3000/ui', "(did you mean 'http://localhost:3000'?)"],
          ['app.example', "got 'app.example'."],
        ] as const) {
          const result = await agentctx('serve', 'examples/draft-and-review/pipeline.yaml', '--allow-origin', value);
          expect(result.code).toBe(2);
          expect(result.stderr).toContain(meant);
          expect(result.stderr.trim().split('\n')).toHaveLength(1);
        }
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
