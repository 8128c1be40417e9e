import { join } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import type { Runner } from '../../src/engine/runner/runner.js';
import { ADK_ROUTES } from '../../src/server/adk/adk-routes.js';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import { createServer, type AgentctxServer } from '../../src/server/index.js';
import { ROUTES } from '../../src/server/routes.js';
import { createSqliteArtifactStore, createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemoryArtifactStore } from '../../src/engine/session/in-memory-artifact-store.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { closeAdkServers, startAdkServer as startClient } from '../adk/adk-client.js';
import { weatherRunner } from '../adk/weather-app.js';
import { defineRows } from '../reliability/rows.js';
import { scratch } from '../reliability/support.js';
import { propertyRuns } from '../support/property-runs.js';
import { rawRequest } from '../support/raw-request.js';

// Fuzz rows for what the second outside attack found: request paths on every route of both servers, and imports
// that fail part-way, on each store that writes.

const servers: AgentctxServer[] = [];
const tmp = scratch();

const send = async (port: number, method: string, target: string): Promise<number> =>
  (await rawRequest(port, method, target)).status;

// Pieces of a path segment that URL parsing, decoding or a store might treat specially.
const PIECE = fc.constantFrom(
  '.',
  '..',
  '%2e',
  '%2E',
  '%2e%2e',
  '.%2E',
  '%2F',
  '%2f',
  '%5C',
  '\\',
  '%00',
  '%25',
  '%',
  'a',
  'x.txt',
  'd3',
  ':',
  '%3A',
  '~',
  '%20',
  'é',
  '%C3%A9',
  '%FF',
  '',
);
const SEGMENT = fc.array(PIECE, { minLength: 1, maxLength: 3 }).map((pieces) => pieces.join(''));

const decodesToDot = (segment: string): boolean => /^(?:\.|%2e){1,2}$/i.test(segment);

async function served(protocol: 'agentctx' | 'adk'): Promise<{ port: number; runner: Runner }> {
  const runner = weatherRunner(createInMemorySessionStore());
  const server =
    protocol === 'adk' ? createAdkServer({ runners: [runner], version: 'test' }) : createServer({ runner });
  servers.push(server);
  const { port } = await server.listen(0);
  await runner.createSession({ userId: 'dd', sessionId: 'keep', state: { keep: 'me' } });
  await runner.artifacts!.save({
    appName: runner.appName,
    userId: 'dd',
    sessionId: 'keep',
    filename: 'a.txt',
    artifact: { kind: 'text', mimeType: 'text/plain', text: 'kept' },
  });
  return { port, runner };
}

async function intact(runner: Runner): Promise<boolean> {
  const key = { appName: runner.appName, userId: 'dd', sessionId: 'keep' };
  const session = await runner.sessions.getSession(key);
  const versions = await runner.artifacts!.listVersions({ ...key, filename: 'a.txt' });
  return session?.state['keep'] === 'me' && versions.length === 1;
}

/** A path of `route` whose parameters are random segments, with random segments added between or after its parts. */
function pathOf(route: string, segments: string[], extra: string[], at: number): string {
  let next = 0;
  const parts = route
    .split('/')
    .slice(1)
    .map((part) =>
      part === ':app'
        ? 'weather_agent'
        : part === ':user'
          ? 'dd'
          : part.startsWith(':')
            ? (segments[next++ % segments.length] ?? 'x')
            : part,
    );
  parts.splice(Math.min(at, parts.length), 0, ...extra);
  return `/${parts.join('/')}`;
}

const IMPORTABLE_KEYS = fc.constantFrom('user:n', 'user:s', 'app:n', 'own', 'user:list');

export const rows = defineRows(
  import.meta.url,
  'fuzzing',
  [
    ...(['agentctx', 'adk'] as const).map((protocol) => ({
      id: `fuzz.http.path-segments-${protocol}`,
      entry: 'HTTP request path',
      tried: `every route of ${protocol === 'adk' ? "ADK's protocol" : "agentctx's API"}, GET and DELETE, its parameters and extra segments made of dot segments (plain and percent-encoded), encoded slashes and backslashes, raw backslashes, NUL, stray and invalid percent signs`,
      expected:
        'never a 5xx nor a dropped connection; a path with a dot segment always 400; a session and artifact the path does not name literally are never touched',
      run: async () => {
        const { port, runner } = await served(protocol);
        const routes = (protocol === 'adk' ? ADK_ROUTES : ROUTES).map((route) => route.path);
        await fc.assert(
          fc.asyncProperty(
            fc.constantFrom(...routes),
            fc.array(SEGMENT, { minLength: 1, maxLength: 3 }),
            fc.array(SEGMENT, { maxLength: 2 }),
            fc.nat({ max: 8 }),
            fc.constantFrom('GET', 'DELETE'),
            async (route, segments, extra, at, method) => {
              const path = pathOf(route, segments, extra, at);
              // The protected ids are never generated (their pieces cannot join into 'keep' or 'a.txt').
              const status = await send(port, method, path);
              expect(status, `${method} ${path}`).toBeGreaterThanOrEqual(200);
              expect(status, `${method} ${path}`).toBeLessThan(500);
              if (path.split('/').some(decodesToDot)) expect(status, `${method} ${path}`).toBe(400);
              expect(await intact(runner), `${method} ${path} touched the session`).toBe(true);
            },
          ),
          propertyRuns(60),
        );
      },
    })),
    {
      id: 'fuzz.http.patch-partial',
      entry: "ADK's PATCH",
      tried:
        "random `stateDelta`s of 1–5 keys on ADK's PATCH, where a key may be empty, a bare scope (`user:`), `__proto__`, hold a lone surrogate, or its value be nested past the depth limit",
      expected:
        'with any such key: 400 and nothing written (no event, the state as before); otherwise 200 and every key written, in one event',
      run: async () => {
        const call = await startClient();
        const base = '/apps/weather_agent/users/pp/sessions/p1';
        expect((await call('POST', base)).status).toBe(200);
        const deep = (levels: number): unknown => (levels === 0 ? 1 : [deep(levels - 1)]);
        const good = fc.constantFrom('a', 'b', 'user:c', 'app:d', 'temp:e', 'f:g');
        const bad = fc.constantFrom('', 'user:', 'app:', '__proto__', 'x\ud800');
        const entry = fc.oneof(
          {
            weight: 4,
            arbitrary: fc.tuple(good, fc.oneof(fc.integer(), fc.string({ maxLength: 3 })), fc.constant(true)),
          },
          { weight: 1, arbitrary: fc.tuple(bad, fc.integer(), fc.constant(false)) },
          { weight: 1, arbitrary: fc.tuple(good, fc.constant(deep(600)), fc.constant(false)) },
        );
        await fc.assert(
          fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 5 }), async (entries) => {
            const before = (await call('GET', base)).json as { events: unknown[]; state: Record<string, unknown> };
            // Built as JSON text, so `__proto__` travels as a key.
            const body = `{"stateDelta":{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}}`;
            const response = await call('PATCH', base, body);
            const after = (await call('GET', base)).json as { events: unknown[]; state: Record<string, unknown> };
            if (entries.every(([, , ok]) => ok)) {
              expect(response.status).toBe(200);
              expect(after.events.length).toBe(before.events.length + 1);
            } else {
              expect(response.status).toBe(400);
              expect(after).toEqual(before);
            }
          }),
          propertyRuns(40),
        );
      },
    },
    ...(['memory', 'sqlite'] as const).map((kind) => ({
      id: `fuzz.http.artifact-partial-${kind}`,
      entry: 'runner (tool artifacts)',
      tried: `random turns (${kind} artifact store) whose tool saves 1–3 artifacts (a name twice, a \`user:\` artifact shared by the turns), the session store refusing the event that records them in some`,
      expected:
        "the versions held are exactly those saved by turns whose event was stored: a refused event takes every version saved for it along (before, they stayed, named by no event), and each stored event's versions are there",
      run: async () => {
        const artifacts =
          kind === 'memory'
            ? createInMemoryArtifactStore()
            : createSqliteArtifactStore({ path: join(await tmp.dir(), 'fuzz-artifacts.db') });
        const inner = createInMemorySessionStore();
        let refuse = false;
        // Refuses, as a store refuses a value it cannot keep, the events that record artifacts while `refuse` is set.
        const sessions: SessionStore = {
          ...inner,
          appendEvent: async (input) => {
            if (refuse && Object.keys(input.event.actions.artifactDelta ?? {}).length > 0)
              throw new ValidationError({
                subject: 'event',
                issues: [{ path: 'actions', message: 'refused by the test' }],
              });
            return inner.appendEvent(input);
          },
        };
        let names: string[] = [];
        let savedThisTurn: string[] = [];
        const at = (sessionId: string, name: string, version: number) =>
          `${name.startsWith('user:') ? '' : sessionId}/${name}@${version}`;
        const save = functionTool<Record<string, never>>({
          name: 'save_files',
          description: 'Saves files.',
          jsonSchema: { type: 'object', properties: {} },
          execute: async (_args, context) => {
            for (const name of names)
              savedThisTurn.push(
                at(
                  context.sessionId,
                  name,
                  await context.artifacts.save(name, { kind: 'text', mimeType: 'text/plain', text: name }),
                ),
              );
            return { saved: names.length };
          },
        });
        const model = createScriptedModel({
          rules: [{ when: { afterToolResponse: 'save_files' }, respond: { text: 'Saved.' } }],
          fallback: { functionCall: { name: 'save_files', args: {} } },
        });
        const runner = createRunner({
          agents: llmAgent({ name: 'saver', instruction: 'Save.', tools: [save] }),
          model,
          sessions,
          artifacts,
        });
        const kept = new Set<string>();
        let turns = 0;
        try {
          await fc.assert(
            fc.asyncProperty(
              fc.array(fc.constantFrom('a.txt', 'b.txt', 'user:shared.txt'), { minLength: 1, maxLength: 3 }),
              fc.boolean(),
              async (chosen, refused) => {
                const sessionId = `s${turns++}`;
                await runner.createSession({ userId: 'u', sessionId });
                names = chosen;
                refuse = refused;
                savedThisTurn = [];
                try {
                  for await (const _event of runner.run({ userId: 'u', sessionId, message: 'Save them.' }));
                } catch {
                  // A refused append ends the turn with an error; what is left is checked below.
                }
                refuse = false;
                if (!refused) for (const version of savedThisTurn) kept.add(version);
                const held = new Set<string>();
                const named = new Set<string>();
                for (const listed of await inner.listSessions({ appName: 'saver', userId: 'u' })) {
                  const key = { appName: 'saver', userId: 'u', sessionId: listed.id };
                  for (const name of await artifacts.list(key))
                    for (const version of await artifacts.listVersions({ ...key, filename: name }))
                      held.add(at(listed.id, name, version));
                  for (const event of (await inner.getSession(key))?.events ?? [])
                    for (const [name, version] of Object.entries(event.actions.artifactDelta ?? {}))
                      named.add(at(listed.id, name, version));
                }
                expect([...held].sort()).toEqual([...kept].sort());
                for (const version of named) expect(held.has(version), version).toBe(true);
              },
            ),
            propertyRuns(30),
          );
        } finally {
          if ('close' in artifacts && typeof artifacts.close === 'function')
            await (artifacts.close as () => Promise<void>)();
        }
      },
    })),
    ...(['memory', 'sqlite'] as const).map((kind) => ({
      id: `fuzz.http.import-partial-${kind}`,
      entry: 'session store',
      tried: `random imports (${kind} store): 1–6 events setting and operating on session, \`user:\` and \`app:\` keys, where an operation may not apply to what the events before it stored (adding to a string, appending to a number)`,
      expected:
        'each import is stored whole (every event, in order, with its state) or not at all (no session, and the shared state exactly as before)',
      run: async () => {
        const store: SessionStore =
          kind === 'memory'
            ? createInMemorySessionStore()
            : createSqliteSessionStore({ path: join(await tmp.dir(), 'fuzz-import.db') });
        const value = fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('s', 't'), fc.constant([1]));
        const change = fc.oneof(
          fc.record({ set: IMPORTABLE_KEYS, value }),
          fc.record({ add: IMPORTABLE_KEYS, by: fc.integer({ min: -2, max: 2 }) }),
          fc.record({ append: IMPORTABLE_KEYS, item: fc.integer() }),
        );
        let imports = 0;
        try {
          await fc.assert(
            fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 6 }), async (changes) => {
              const sessionId = `imp-${imports++}`;
              const events = changes.map((each, index) => ({
                id: `${sessionId}-e${index}`,
                author: 'user',
                invocationId: 'import',
                timestamp: index + 1,
                actions:
                  'set' in each
                    ? { stateDelta: { [each.set]: each.value } }
                    : {
                        stateDelta: {},
                        stateOps: [
                          'add' in each
                            ? { op: 'add' as const, key: each.add, by: each.by }
                            : { op: 'append' as const, key: each.append, items: [each.item] },
                        ],
                      },
              }));
              const probe = { appName: 'app', userId: 'u' };
              const sharedBefore = (await store.listSessions(probe)).at(0)?.state;
              const created = await store.createSession({ ...probe, sessionId, events: events as never }).then(
                (session) => session,
                () => undefined,
              );
              const stored = await store.getSession({ ...probe, sessionId });
              if (created === undefined) {
                expect(stored).toBeUndefined();
                const after = (await store.listSessions(probe)).at(0)?.state;
                const shared = (state: Record<string, unknown> | undefined) =>
                  Object.fromEntries(
                    Object.entries(state ?? {}).filter(([key]) => key.startsWith('user:') || key.startsWith('app:')),
                  );
                expect(shared(after)).toEqual(shared(sharedBefore));
              } else {
                expect(stored?.events.map((event) => event.id)).toEqual(events.map((event) => event.id));
                expect(stored?.revision).toBe(events.length);
                expect(stored?.state).toEqual(created.state);
              }
            }),
            propertyRuns(60),
          );
        } finally {
          await store.close();
        }
      },
    })),
  ],
  {
    afterAll: async () => {
      for (const server of servers.splice(0)) await server.close();
      await closeAdkServers();
      await tmp.cleanup();
    },
  },
);
