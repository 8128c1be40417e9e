import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { z } from 'zod';
import type { ArtifactStore } from '../../src/contracts/artifact-store.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { textArtifact } from '../../src/engine/session/artifacts.js';
import { createInMemoryArtifactStore } from '../../src/engine/session/in-memory-artifact-store.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createFsArtifactStore } from '../../src/stores/fs/index.js';
import { createPostgresArtifactStore, createPostgresSessionStore } from '../../src/stores/postgres/index.js';
import { createSqliteArtifactStore, createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { defineRows } from '../reliability/rows.js';
import { scratch, turn } from '../reliability/support.js';
import { api, resources } from '../server/helpers.js';
import { cli } from '../support/cli.js';
import { createTestDatabase, TEST_POSTGRES_URL } from '../support/postgres.js';
import { traversalIds, traversalNames } from '../support/traversals.js';

// Part 4: what one user, session or app sees of another's state and artifacts, through the runner, the stores, the
// HTTP API and `agentctx inspect`; `temp:` state never stored; inserted values never read again as templates.
const tmp = scratch();
const res = resources();
const NO_POSTGRES =
  TEST_POSTGRES_URL === undefined ? 'TEST_POSTGRES_URL is not set (eval "$(bash .ci/postgres.sh start)")' : undefined;

const remember = functionTool({
  name: 'remember',
  description: 'Keeps a secret for the user, a motto for the app, a note for the session, scratch for this turn.',
  parameters: z.object({ secret: z.string() }),
  execute: ({ secret }, context) => {
    context.state.set('user:secret', secret);
    context.state.set('app:motto', 'Be kind');
    context.state.set('note', 'session only');
    context.state.set('temp:scratch', 'this turn only');
    return { kept: true };
  },
});
const INSTRUCTION = 'Secret: [{user:secret?}] Motto: [{app:motto?}] Note: [{note?}] Scratch: [{temp:scratch?}]';

/** Alice keeps a secret in app `vault`; then who sees what, in the system text each request carries. */
async function scopesOn(sessions: SessionStore): Promise<void> {
  const model = createScriptedModel({
    rules: [
      { when: { afterToolResponse: 'remember' }, respond: { text: 'kept' } },
      {
        when: { lastUserText: 'keep it' },
        respond: { functionCall: { name: 'remember', args: { secret: 'alice-0451' } } },
      },
      { respond: { text: 'ok' } },
    ],
  });
  const runner = (appName: string) =>
    createRunner({
      appName,
      agents: llmAgent({ name: 'keeper', instruction: INSTRUCTION, tools: [remember] }),
      model,
      sessions,
    });
  const vault = runner('vault');
  const ask = async (appName: string, userId: string, sessionId: string, message: string) => {
    const chosen = appName === 'vault' ? vault : runner(appName);
    if ((await sessions.getSession({ appName, userId, sessionId })) === undefined)
      await chosen.createSession({ userId, sessionId });
    await turn(chosen, { userId, sessionId, message });
    return model.requests.at(-1)?.system.split('\n\n')[0];
  };
  expect(await ask('vault', 'alice', 's1', 'keep it')).toBe(
    'Secret: [alice-0451] Motto: [Be kind] Note: [session only] Scratch: [this turn only]',
  );
  expect(await ask('vault', 'alice', 's1', 'again')).toBe(
    'Secret: [alice-0451] Motto: [Be kind] Note: [session only] Scratch: []',
  );
  expect(await ask('vault', 'alice', 's2', 'hi')).toBe('Secret: [alice-0451] Motto: [Be kind] Note: [] Scratch: []');
  expect(await ask('vault', 'bob', 's1', 'hi')).toBe('Secret: [] Motto: [Be kind] Note: [] Scratch: []');
  expect(await ask('other', 'alice', 's1', 'hi')).toBe('Secret: [] Motto: [] Note: [] Scratch: []');
  const bob = await sessions.getSession({ appName: 'vault', userId: 'bob', sessionId: 's1' });
  expect(Object.keys(bob?.state ?? {})).toEqual(['app:motto']);
  const alice = await sessions.getSession({ appName: 'vault', userId: 'alice', sessionId: 's1' });
  expect(JSON.stringify(alice)).not.toContain('this turn only');
}

const ALICE = '/apps/vault/users/alice/sessions';
const BOB = '/apps/vault/users/bob/sessions';
let shared: Promise<{ sessions: SessionStore; client: ReturnType<typeof api> }> | undefined;

/** Over HTTP, on SQLite: alice keeps a secret in her session s2; bob has a session s1 of his own. */
function aliceAndBob(): Promise<{ sessions: SessionStore; client: ReturnType<typeof api> }> {
  shared ??= (async () => {
    const sessions = res.sqlite(join(await res.dir(), 'http.db'));
    const model = createScriptedModel({
      rules: [
        { when: { afterToolResponse: 'remember' }, respond: { text: 'kept' } },
        {
          when: { lastUserText: 'keep it' },
          respond: { functionCall: { name: 'remember', args: { secret: 'alice-0451' } } },
        },
        { respond: { text: 'ok' } },
      ],
    });
    const runner = createRunner({
      appName: 'vault',
      agents: llmAgent({ name: 'keeper', instruction: INSTRUCTION, tools: [remember] }),
      model,
      sessions,
    });
    const client = api((await res.serve({ runner })).url);
    await client.post(ALICE, { sessionId: 's2' });
    await (await client.run(`${ALICE}/s2`, { message: 'keep it' })).text();
    await client.post(BOB, { sessionId: 's1' });
    await (await client.run(`${BOB}/s1`, { message: 'hello' })).text();
    return { sessions, client };
  })();
  return shared;
}

const ALICE_TEXTS = ['alice profile', 'alice draft', 'path trick'];

/** What a load answers with, or the error it throws: only a typed refusal is acceptable as an error. */
async function attempt<T>(run: () => Promise<T>): Promise<T | ValidationError> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
}

/**
 * Alice's `user:` artifact and session artifact; then every traversal form (as filenames, user ids and session ids)
 * tried by others: none of it reaches her artifacts. `root` is a file store's folder (nothing is written outside it).
 */
async function artifactsOn(artifacts: ArtifactStore, root?: string): Promise<void> {
  const alice = { appName: 'vault', userId: 'alice', sessionId: 's1' };
  await artifacts.save({ ...alice, filename: 'user:profile.txt', artifact: textArtifact('alice profile') });
  await artifacts.save({ ...alice, filename: 'draft.txt', artifact: textArtifact('alice draft') });
  const bob = { appName: 'vault', userId: 'bob', sessionId: 's1' };
  // Names alice gives her own artifacts that walk into bob's folders stay hers.
  const towardBob = traversalNames(root, {
    user: 'bob',
    session: 's1',
    filename: 'draft.txt',
    userFilename: 'user:profile.txt',
  });
  for (const filename of towardBob.filter((name) => name.startsWith('../') || name.startsWith('user:../'))) {
    await attempt(() => artifacts.save({ ...alice, filename, artifact: textArtifact('path trick') }));
  }
  expect(await artifacts.list(bob)).toEqual([]);
  expect(await artifacts.load({ ...bob, filename: 'user:profile.txt' })).toBeUndefined();
  expect(await artifacts.load({ ...bob, filename: 'draft.txt' })).toBeUndefined();
  // Bob's walks toward alice's folders, as filenames and as his own user and session ids.
  const leaks: string[] = [];
  const noLeak = async (what: string, run: () => Promise<unknown>) => {
    const found = await attempt(run);
    const text = found instanceof ValidationError ? '' : JSON.stringify(found ?? null);
    if (ALICE_TEXTS.some((secret) => text.includes(secret)) || (Array.isArray(found) && found.length > 0))
      leaks.push(`${what} → ${text}`);
  };
  const towardAlice = traversalNames(root, {
    user: 'alice',
    session: 's1',
    filename: 'draft.txt',
    userFilename: 'user:profile.txt',
  });
  expect(towardAlice.length).toBeGreaterThan(300);
  for (const filename of towardAlice) {
    await noLeak(`load ${filename}`, () => artifacts.load({ ...bob, filename }));
    await noLeak(`versions of ${filename}`, () => artifacts.listVersions({ ...bob, filename }));
  }
  const { userIds, sessionIds } = traversalIds('alice', 's1');
  for (const key of [
    ...userIds.map((userId) => ({ ...bob, userId })),
    ...sessionIds.map((sessionId) => ({ ...bob, sessionId })),
  ]) {
    for (const filename of ['user:profile.txt', 'draft.txt'])
      await noLeak(`load ${filename} as ${JSON.stringify(key)}`, () => artifacts.load({ ...key, filename }));
    await noLeak(`list as ${JSON.stringify(key)}`, () => artifacts.list(key));
  }
  expect(leaks).toEqual([]);
  expect(await artifacts.list({ ...alice, sessionId: 's2' })).toEqual(expect.arrayContaining(['user:profile.txt']));
  expect((await artifacts.list({ ...alice, sessionId: 's2' })).filter((name) => !name.startsWith('user:'))).toEqual([]);
  expect(await artifacts.list({ ...alice, appName: 'other' })).toEqual([]);
  if (root !== undefined) expect(await readdir(join(root, '..'))).toEqual([basename(root)]);
  const model = createScriptedModel([{ text: 'never' }]);
  const runner = createRunner({
    appName: 'vault',
    agents: llmAgent({ name: 'keeper', instruction: 'Profile: {artifact.user:profile.txt}' }),
    model,
    artifacts,
  });
  await runner.createSession({ userId: 'bob', sessionId: 's1' });
  expect((await turn(runner, { userId: 'bob', sessionId: 's1', message: 'hi' })).at(-1)).toMatchObject({
    errorCode: 'missing_artifact',
  });
}

export const rows = defineRows(
  import.meta.url,
  'isolation',
  [
    {
      id: 'isolation.scopes.sqlite',
      entry: 'runner (memory and SQLite stores)',
      tried:
        "alice's tool writes `user:secret`, `app:motto`, a session key and `temp:scratch`; then alice's other session, bob, another app",
      expected:
        "alice's sessions see her secret; bob sees only the app's motto; another app sees nothing; the session key stays in its session; `temp:` lasts one turn",
      run: async () => {
        await scopesOn(
          (await import('../../src/engine/session/in-memory-session-store.js')).createInMemorySessionStore(),
        );
        const sqlite = createSqliteSessionStore({ path: join(await tmp.dir(), 'scopes.db') });
        try {
          await scopesOn(sqlite);
        } finally {
          await sqlite.close();
        }
      },
    },
    {
      id: 'isolation.scopes.postgres',
      entry: 'runner (PostgreSQL store)',
      tried: 'the same, on PostgreSQL',
      expected: 'the same',
      skip: NO_POSTGRES,
      run: async () => {
        const database = await createTestDatabase(TEST_POSTGRES_URL as string, 'isolation');
        const store = createPostgresSessionStore({ url: database.url });
        try {
          await scopesOn(store);
        } finally {
          await store.close();
          await database.drop();
        }
      },
    },
    {
      id: 'isolation.artifacts',
      entry: 'artifact stores (memory, files and SQLite)',
      tried:
        "alice saves `user:profile.txt`, a session artifact and names that walk into bob's folders; bob then tries over 300 traversal forms as filenames (`..` at every depth to past the store's root, `user:` walks, encoded, double-encoded and backslash separators, absolute paths including the file store's own layout) and as his user and session ids",
      expected:
        "bob lists, loads and versions none of alice's artifacts (each try finds nothing or is refused with a ValidationError), `{artifact.user:profile.txt}` fails for him (`missing_artifact`); alice's other session sees only her `user:` artifacts; the file store writes nothing outside its root",
      run: async () => {
        const dir = await tmp.dir();
        await artifactsOn(createInMemoryArtifactStore());
        await artifactsOn(
          createFsArtifactStore({ root: join(dir, 'files', 'artifacts') }),
          join(dir, 'files', 'artifacts'),
        );
        await artifactsOn(createSqliteArtifactStore({ path: join(dir, 'artifacts.db') }));
      },
    },
    {
      id: 'isolation.artifacts.postgres',
      entry: 'artifact stores (PostgreSQL)',
      tried: 'the same, on PostgreSQL',
      expected: 'the same',
      skip: NO_POSTGRES,
      run: async () => {
        const database = await createTestDatabase(TEST_POSTGRES_URL as string, 'artifacts');
        const store = createPostgresArtifactStore({ url: database.url });
        try {
          await artifactsOn(store);
        } finally {
          await store.close();
          await database.drop();
        }
      },
    },
    {
      id: 'isolation.http',
      entry: 'HTTP API',
      tried: "bob's paths naming alice's session: read, list, events, calls, run, delete",
      expected:
        "404 for each (the session is looked up under bob); bob's list is empty; a session bob makes gets the app's state, not alice's",
      run: async () => {
        const { client } = await aliceAndBob();
        for (const path of [`${BOB}/s2`, `${BOB}/s2/events`, `${BOB}/s2/calls`, `${BOB}/s2/calls/1`])
          expect((await client.get(path)).status, path).toBe(404);
        expect((await client.run(`${BOB}/s2`, { message: 'hi' })).status).toBe(404);
        expect((await client.delete(`${BOB}/s2`)).status).toBe(404);
        expect((await client.get(`${BOB}/s1`)).json.state).toEqual({ 'app:motto': 'Be kind' });
        expect((await client.get(BOB)).json.sessions.map((session: { id: string }) => session.id)).toEqual(['s1']);
        expect((await client.get(`${ALICE}/s2`)).json).toMatchObject({
          revision: 4,
          state: { 'user:secret': 'alice-0451', note: 'session only' },
        });
      },
    },
    {
      id: 'isolation.inspector',
      entry: 'web inspector',
      tried: "bob's session and alice's session ids under bob's path: the session view, its calls, find",
      expected:
        "bob's view shows the app's state and no `user:` key of alice's; alice's session under bob's path is 404; finding alice's secret in bob's calls finds nothing",
      run: async () => {
        const { sessions } = await aliceAndBob();
        const app = createInspectorApp({
          store: sessions,
          onError: (error) => {
            throw error;
          },
        });
        const get = (path: string) => app.request(`/api${path}`, { headers: { host: '127.0.0.1' } });
        const bob = (await (await get(`${BOB}/s1`)).json()) as { state: { key: string }[] };
        expect(bob.state.map((entry) => entry.key)).toEqual(['app:motto']);
        for (const path of [`${BOB}/s2`, `${BOB}/s2/calls/1`, `${BOB}/s2/find?text=alice`])
          expect((await get(path)).status, path).toBe(404);
        const found = (await (await get(`${BOB}/s1/find?text=alice-0451`)).json()) as { calls: unknown[] };
        expect(found.calls).toEqual([]);
        const alice = (await (await get(`${ALICE}/s2/find?text=alice-0451`)).json()) as { calls: unknown[] };
        expect(alice.calls.length).toBeGreaterThan(0);
      },
    },
    {
      id: 'isolation.inspect-cli',
      entry: 'CLI inspector (`agentctx inspect --session`)',
      tried: "`--user bob` for alice's recorded session",
      expected: '`Session s1 of user bob in app … is not in the store`, exit 2; `--user alice` shows her calls',
      run: async () => {
        const store = join(await tmp.dir(), 'inspect.db');
        const args = ['examples/draft-and-review/pipeline.yaml', '--session', 's1', '--store', store];
        expect(
          (
            await cli([
              'run',
              ...args,
              '--user',
              'alice',
              '--model',
              'scripted:examples/draft-and-review/script.yaml',
              '--message',
              'Write about X',
            ])
          ).code,
        ).toBe(0);
        const bob = await cli(['inspect', ...args, '--user', 'bob']);
        expect({ code: bob.code, stderr: bob.stderr }).toEqual({
          code: 2,
          stderr:
            'error: Session s1 of user bob in app draft_and_review is not in the store. Check --session, --user, --app and --store.\n',
        });
        expect((await cli(['inspect', ...args, '--user', 'alice'])).stdout).toMatch(/Session s1: 2 model calls/);
      },
    },
    {
      id: 'isolation.temp-never-stored',
      entry: 'runner (SQLite store)',
      tried: "`temp:` keys from a run's `stateDelta`, from a tool, and in a new session's state",
      expected:
        'visible to the turn that wrote them; in no stored event or state row of the database, not after a reload (a recorded request keeps the prompt text it was sent, by design)',
      run: async () => {
        const path = join(await tmp.dir(), 'temp.db');
        const sessions = createSqliteSessionStore({ path });
        const model = createScriptedModel({
          rules: [
            { when: { afterToolResponse: 'remember' }, respond: { text: 'ok' } },
            { respond: { functionCall: { name: 'remember', args: { secret: 's' } } } },
          ],
        });
        const runner = createRunner({
          agents: llmAgent({
            name: 'keeper',
            instruction: 'Given: {temp:given?} Scratch: {temp:scratch?}',
            tools: [remember],
          }),
          model,
          sessions,
        });
        try {
          const live = await runner.createSession({
            userId: 'u1',
            sessionId: 's1',
            state: { 'temp:created': 'TEMP-CREATED' },
          });
          expect(live.state).toEqual({});
          const events = await turn(runner, { message: 'hi', stateDelta: { 'temp:given': 'TEMP-GIVEN' } });
          expect(model.requests.at(-1)?.system).toMatch(/^Given: TEMP-GIVEN Scratch: this turn only\n/);
          expect(JSON.stringify(events)).not.toMatch(/TEMP-GIVEN|this turn only/);
          expect(
            JSON.stringify(await sessions.getSession({ appName: 'keeper', userId: 'u1', sessionId: 's1' })),
          ).not.toMatch(/temp:|TEMP-|this turn only/);
        } finally {
          await sessions.close();
        }
        const db = new Database(path, { readonly: true });
        const rows = ['agentctx_events', 'agentctx_session_state', 'agentctx_user_state', 'agentctx_app_state'].map(
          (table) => JSON.stringify(db.prepare(`SELECT * FROM ${table}`).all()),
        );
        // A recorded request is what the model was sent, so it keeps the prompt text a temp: value was rendered into.
        const calls = JSON.stringify(db.prepare('SELECT * FROM agentctx_model_calls').all());
        db.close();
        expect(rows.join('')).not.toMatch(/temp:|TEMP-|this turn only/);
        expect(calls).toContain('Given: TEMP-GIVEN');
      },
    },
    {
      id: 'isolation.no-reevaluation',
      entry: 'templates',
      tried:
        "a tool returning `{user:secret}`, and a model answer `{user:secret}` saved by `outputKey` and inserted into the next agent's instruction",
      expected: "both reach the model as the literal text `{user:secret}`; the secret's value appears in no request",
      run: async () => {
        const echo = functionTool({
          name: 'echo',
          description: 'Echoes.',
          jsonSchema: { type: 'object' },
          execute: () => ({ text: 'see {user:secret}' }),
        });
        const model = createScriptedModel({
          rules: [
            {
              when: { agent: 'writer', afterToolResponse: 'echo' },
              respond: { text: 'Draft: {user:secret} {app:x?}' },
            },
            { when: { agent: 'writer' }, respond: { functionCall: { name: 'echo', args: {} } } },
            { respond: { text: 'reviewed' } },
          ],
        });
        const { sequentialAgent } = await import('../../src/engine/agent/define-agent.js');
        const agents = sequentialAgent({
          name: 'flow',
          subAgents: [
            llmAgent({ name: 'writer', tools: [echo], outputKey: 'draft' }),
            llmAgent({ name: 'reviewer', instruction: 'Review: {draft}' }),
          ],
        });
        const runner = createRunner({ agents, model });
        await runner.createSession({ userId: 'u1', sessionId: 's1', state: { 'user:secret': 'TOP-SECRET' } });
        await turn(runner, { message: 'go' });
        expect(JSON.stringify(model.requests[1]?.messages)).toContain('see {user:secret}');
        expect(model.requests.at(-1)?.system).toMatch(/^Review: Draft: \{user:secret\} \{app:x\?\}/);
        expect(JSON.stringify(model.requests)).not.toContain('TOP-SECRET');
      },
    },
  ],
  {
    afterAll: async () => {
      await res.cleanup();
      await tmp.cleanup();
    },
  },
);
