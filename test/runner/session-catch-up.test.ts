import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../src/contracts/request.js';
import type { GetSessionInput, SessionStore } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createPostgresSessionStore } from '../../src/stores/postgres/create-postgres-store.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { createTestDatabase, TEST_POSTGRES_URL } from '../support/postgres.js';

// Two runners on one session, as two server processes behind a load balancer that does not keep a session on one
// process: each turn the runner's copy is behind by the other's turn. It catches up in one read of what it lacks,
// and the model sees the same history a runner that loaded the session whole would give it.

const folder = mkdtempSync(join(tmpdir(), 'agentctx-catch-up-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** The store, with every `getSession` call it was asked. */
function watched(store: SessionStore): { store: SessionStore; reads: GetSessionInput[] } {
  const reads: GetSessionInput[] = [];
  const get = store.getSession.bind(store);
  store.getSession = (input) => (reads.push(input), get(input));
  return { store, reads };
}

async function alternate(open: () => SessionStore): Promise<void> {
  const stores = [watched(open()), watched(open())];
  const model = createScriptedModel({
    rules: [{ respond: (request: LlmRequest) => ({ text: `heard ${request.messages.length} messages` }) }],
  });
  const agents = llmAgent({ name: 'echo', instruction: 'Answer.' });
  const runners = stores.map(({ store }) => createRunner({ agents, model, sessions: store }));
  await runners[0]?.createSession({ userId: 'u', sessionId: 's' });
  for (let turn = 0; turn < 6; turn++) {
    for await (const _event of (runners[turn % 2] as (typeof runners)[0]).run({
      userId: 'u',
      sessionId: 's',
      message: `turn ${turn}`,
    }));
  }
  // The sixth request carried all five turns before it (user message and answer each) and its own message.
  expect(model.requests.map((request) => request.messages.length)).toEqual([1, 3, 5, 7, 9, 11]);
  const third = open();
  const fresh = createRunner({ agents, model, sessions: third });
  for await (const _event of fresh.run({ userId: 'u', sessionId: 's', message: 'turn 6' }));
  await third.close();
  // A runner that loaded the session whole built the same history, the sixth turn's answer added.
  expect(model.requests.at(-1)?.messages.slice(0, -2)).toEqual(model.requests.at(-2)?.messages);
  // After its first load, each of a runner's turns read the session once, asking only for what came after its copy.
  for (const { reads } of stores) {
    expect(reads[0]).not.toHaveProperty('afterRevision');
    expect(reads.slice(1).every((read) => typeof read.afterRevision === 'number')).toBe(true);
    expect(reads.length).toBe(3);
  }
  for (const { store } of stores) await store.close();
}

describe('a session cached by two runners that take turns', () => {
  it('on SQLite (two connections to one file)', async () => {
    const path = join(folder, 'alternate.db');
    await alternate(() => createSqliteSessionStore({ path }));
  });

  describe.runIf(TEST_POSTGRES_URL !== undefined)('on PostgreSQL', () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>>;
    beforeAll(async () => {
      database = await createTestDatabase(TEST_POSTGRES_URL as string, 'catchup');
    });
    afterAll(async () => database?.drop());
    it('two pools, as two processes', async () => {
      await alternate(() => createPostgresSessionStore({ url: database.url, pool: { max: 2 } }));
    });
  });
});
