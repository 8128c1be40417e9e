import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresSessionStore } from '../../src/stores/postgres/create-postgres-store.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { testMemoryService } from '../../src/testing/conformance/memory-service-suite.js';
import { createTestDatabase, skipWithoutPostgres, TEST_POSTGRES_URL } from '../support/postgres.js';
import { conceptEmbedder } from '../support/test-embedder.js';

// The SQL stores' memory services (issue 49) pass the conformance suite: SQLite's (FTS5) and PostgreSQL's (tsvector
// under GIN). Each case gets a database of its own: a fresh in-memory SQLite, or a fresh set of rows on PostgreSQL.

testMemoryService({ name: 'SQLite', create: () => createSqliteSessionStore({ path: ':memory:' }) });

const serverUrl = TEST_POSTGRES_URL;
if (serverUrl === undefined) skipWithoutPostgres('the PostgreSQL memory service');
else {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  const stores: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    database = await createTestDatabase(serverUrl, 'memory');
  });
  afterAll(async () => {
    for (const store of stores) await store.close();
    await database?.drop();
  });
  testMemoryService({
    name: 'PostgreSQL',
    create: async () => {
      const store = createPostgresSessionStore({ url: database.url });
      stores.push(store);
      // A clean slate for each case: the suite's scopes are the same from case to case.
      await store.migrate();
      await store.deleteUserMemories({ appName: 'contract_app', userId: 'u1' });
      await store.deleteUserMemories({ appName: 'contract_app', userId: 'u2' });
      await store.deleteUserMemories({ appName: 'other_app', userId: 'u1' });
      return store;
    },
  });
}

describe('semantic search on SQLite', () => {
  it('stores each memory’s vector and fuses the similar with the keyword matches', async () => {
    const embedder = conceptEmbedder([['car', 'automobile', 'vehicle']]);
    const store = createSqliteSessionStore({ path: ':memory:', memory: { embed: embedder.embed } });
    const said = (id: string, timestamp: number, text: string) => ({
      id,
      invocationId: `i-${id}`,
      author: 'user',
      timestamp,
      content: { role: 'user' as const, parts: [{ text }] },
      actions: { stateDelta: {}, artifactDelta: {} },
    });
    await store.addSessionToMemory({
      id: 's1',
      appName: 'app',
      userId: 'u1',
      state: {},
      events: [said('car', 1, 'I bought a new car last week'), said('week', 2, 'This week was long')],
      lastUpdateTime: 1,
      revision: 1,
    });
    const found = await store.searchMemory({ appName: 'app', userId: 'u1', query: 'automobile' });
    expect(found.memories.map((memory) => memory.id)[0]).toBe('car');
    expect(embedder.calls).toEqual([['I bought a new car last week', 'This week was long'], ['automobile']]);
    await store.close();
  });
});
