import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { Session } from '../../src/contracts/session.js';
import { createEvent } from '../../src/engine/session/create-event.js';
import { SCOPE_SPAN } from '../../src/stores/sql/memory-schema.js';
import { migrate, MIGRATIONS } from '../../src/stores/sql/migrations.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { createBetterSqlite3Driver } from '../../src/stores/sqlite/better-sqlite3-driver.js';

// Version 12 gives each user of SQLite's memory table a span of rowids (memory-schema.ts), so that a search asks
// full-text search for that user's rows only. A database with memories written before it keeps them all, in order,
// searchable, and new memories join the user's span.

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

function session(userId: string, id: string, texts: readonly string[]): Session {
  const events = texts.map((text, index) =>
    createEvent({
      id: `${id}-${index}`,
      author: 'user',
      invocationId: 'i',
      timestamp: 1_700_000_000 + index,
      content: { role: 'user', parts: [{ text }] },
    }),
  );
  return { appName: 'app', userId, id, state: {}, events, lastUpdateTime: 0, revision: events.length };
}

describe('SQLite memory scopes (schema version 12)', () => {
  it('moves memories written at version 11 into their users’ spans, keeping their order and search', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'agentctx-memory-scopes-'));
    folders.push(folder);
    const path = join(folder, 'store.db');
    const driver = createBetterSqlite3Driver({ path });
    await migrate(driver, { migrations: MIGRATIONS.slice(0, 11) });
    await driver.close();
    // Rows as version 11 wrote them: rowids in the order remembered, users interleaved.
    const db = new Database(path);
    const insert = db.prepare(
      `INSERT INTO agentctx_memories (app_name, user_id, session_id, memory_id, position, entry_json, search_text)
       VALUES ('app', ?, 's', ?, ?, ?, ?)`,
    );
    const texts = ['the red boat', 'a blue car', 'the red car', 'green boat', 'red apples'];
    texts.forEach((text, index) => {
      const userId = index % 2 === 0 ? 'u1' : 'u2';
      const entry = { id: `m${index}`, content: { role: 'user', parts: [{ text }] }, author: 'user' };
      insert.run(userId, `m${index}`, index + 1, JSON.stringify(entry), text);
    });
    db.close();

    const store = createSqliteSessionStore({ path });
    try {
      const ids = async (userId: string, query: string) =>
        (await store.searchMemory({ appName: 'app', userId, query })).memories.map((memory) => memory.id);
      expect(await ids('u1', 'red boat')).toEqual(['m0', 'm4', 'm2']);
      expect(await ids('u2', 'car boat')).toEqual(['m3', 'm1']);
      expect((await store.listMemories({ appName: 'app', userId: 'u1' })).map((m) => m.id)).toEqual(['m0', 'm2', 'm4']);
      await store.addSessionToMemory(session('u2', 'later', ['a red boat at last']));
      expect(await ids('u2', 'red boat')).toEqual(['later-0', 'm3']);
      expect(await store.deleteMemory({ appName: 'app', userId: 'u1', id: 'm4' })).toBe(true);
      expect(await ids('u1', 'red apples')).toEqual(['m2', 'm0']);
    } finally {
      await store.close();
    }
    const after = new Database(path);
    const scopes = after.prepare('SELECT user_id, scope_number FROM agentctx_memory_scopes ORDER BY user_id').all();
    expect(scopes).toEqual([
      { user_id: 'u1', scope_number: 1 },
      { user_id: 'u2', scope_number: 2 },
    ]);
    const rows = after
      .prepare(
        'SELECT memory_id, rowid - (SELECT scope_number FROM agentctx_memory_scopes s WHERE s.user_id = m.user_id) * ? AS slot FROM agentctx_memories m ORDER BY rowid',
      )
      .all(SCOPE_SPAN);
    expect(rows).toEqual([
      { memory_id: 'm0', slot: 1 },
      { memory_id: 'm2', slot: 2 },
      { memory_id: 'm1', slot: 1 },
      { memory_id: 'm3', slot: 2 },
      { memory_id: 'later-0', slot: 3 },
    ]);
    // The full-text index moved with the rows.
    after.exec(`INSERT INTO agentctx_memories_fts (agentctx_memories_fts) VALUES ('integrity-check')`);
    after.close();
  });
});
