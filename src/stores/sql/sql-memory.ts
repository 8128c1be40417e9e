import type { Event } from '../../contracts/event.js';
import type { MemoryEntry, MemoryScope, MemoryService } from '../../contracts/memory-service.js';
import type { Session } from '../../contracts/session.js';
import {
  type Candidate,
  DIRECT,
  direct,
  fromEvent,
  type MemoryMatching,
  rankMemories,
  remembered,
  textOf,
  UNKNOWN_SESSION,
} from '../../engine/memory/memory-entries.js';
import { wordsOf } from '../../engine/memory/memory-words.js';
import type { SqlDriver, SqlExecutor, SqlParam } from './sql-driver.js';

type Row = {
  session_id: string;
  memory_id: string;
  position: number | string;
  entry_json: string;
  search_text: string;
};

const SCOPE = 'app_name = ? AND user_id = ?';
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A memory service on the SQL store's database (docs/memory.md): full-text search finds the memories that share a word
 * with the query (SQLite's FTS5, PostgreSQL's tsvector under GIN), plus a substring match for non-ASCII words (scripts
 * written without spaces), and they are ranked as the in-memory service ranks them, so every implementation chooses
 * alike. Deletes remove the row and, with it, its search index entry.
 */
export function sqlMemory(
  driver: SqlDriver,
  ready: () => Promise<unknown>,
  options: MemoryMatching & { newId: () => string },
): MemoryService {
  const insert = async (tx: SqlExecutor, scope: MemoryScope, sessionId: string, entries: readonly MemoryEntry[]) => {
    if (entries.length === 0) return;
    const rows = await tx.query<{ next: number | string | null }>(
      `SELECT MAX(position) AS next FROM agentctx_memories WHERE ${SCOPE}`,
      [scope.appName, scope.userId],
    );
    let position = Number(rows[0]?.next ?? 0);
    for (const entry of entries) {
      position += 1;
      await tx.run(
        `INSERT INTO agentctx_memories (app_name, user_id, session_id, memory_id, position, entry_json, search_text)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (app_name, user_id, session_id, memory_id) DO UPDATE SET entry_json = excluded.entry_json, search_text = excluded.search_text`,
        [
          scope.appName,
          scope.userId,
          sessionId,
          entry.id,
          position,
          JSON.stringify(entry),
          textOf(entry.content).toLowerCase(),
        ],
      );
    }
  };
  const list = async (scope: MemoryScope, where = '', params: SqlParam[] = []) => {
    await ready();
    const rows = await driver.query<Row>(
      `SELECT session_id, memory_id, position, entry_json, search_text FROM agentctx_memories WHERE ${SCOPE}${where} ORDER BY position, memory_id`,
      [scope.appName, scope.userId, ...params],
    );
    return rows;
  };
  const entryOf = (row: Row): MemoryEntry => JSON.parse(row.entry_json) as MemoryEntry;

  return {
    async addSessionToMemory(session: Session) {
      const scope = { appName: session.appName, userId: session.userId };
      const entries = remembered(session.events).map((event) => fromEvent(event, session.id));
      await ready();
      await driver.transaction(async (tx) => {
        await tx.run(`DELETE FROM agentctx_memories WHERE ${SCOPE} AND session_id = ?`, [
          scope.appName,
          scope.userId,
          session.id,
        ]);
        await insert(tx, scope, session.id, entries);
      });
    },
    async addEventsToMemory(input) {
      const sessionId = input.sessionId ?? UNKNOWN_SESSION;
      await ready();
      await driver.transaction(async (tx) => {
        const known = new Set(
          (
            await tx.query<{ memory_id: string }>(
              `SELECT memory_id FROM agentctx_memories WHERE ${SCOPE} AND session_id = ?`,
              [input.appName, input.userId, sessionId],
            )
          ).map((row) => row.memory_id),
        );
        const fresh: Event[] = [];
        for (const event of remembered(input.events))
          if (!known.has(event.id) && known.add(event.id)) fresh.push(event);
        await insert(
          tx,
          input,
          sessionId,
          fresh.map((event) => fromEvent(event, sessionId, input.customMetadata)),
        );
      });
    },
    async addMemory(input) {
      const added = input.memories.map((memory) => direct(memory, options.newId, input.customMetadata));
      await ready();
      await driver.transaction((tx) => insert(tx, input, DIRECT, added));
      return added.map((entry) => structuredClone(entry));
    },
    async searchMemory(input) {
      const words = [...wordsOf(input.query)];
      if (words.length === 0) return { memories: [] };
      await ready();
      const rows = await driver.query<Row>(...searchQuery(driver.dialect, input, words));
      const candidates: (Candidate & { row: Row })[] = rows.map((row) => {
        const entry = entryOf(row);
        const text = textOf(entry.content);
        return { entry, text, words: wordsOf(text), order: Number(row.position), row };
      });
      const chosen = rankMemories(candidates, input.query, options);
      return { memories: chosen.map((item) => item.entry) };
    },
    async listMemories(input) {
      const rows =
        input.sessionId === undefined ? await list(input) : await list(input, ' AND session_id = ?', [input.sessionId]);
      return rows.map(entryOf);
    },
    async deleteMemory(input) {
      await ready();
      const done = await driver.run(`DELETE FROM agentctx_memories WHERE ${SCOPE} AND memory_id = ?`, [
        input.appName,
        input.userId,
        input.id,
      ]);
      return done.changes > 0;
    },
    async deleteSessionMemories(input) {
      await ready();
      const done = await driver.run(`DELETE FROM agentctx_memories WHERE ${SCOPE} AND session_id = ?`, [
        input.appName,
        input.userId,
        input.sessionId,
      ]);
      return done.changes;
    },
    async deleteUserMemories(input) {
      await ready();
      const done = await driver.run(`DELETE FROM agentctx_memories WHERE ${SCOPE}`, [input.appName, input.userId]);
      return done.changes;
    },
  };
}

// The rows that may match, in the order remembered: a full-text match of any word, or a non-ASCII word inside the
// text. Ranking (and the exact rule) is applied to them afterwards.
function searchQuery(dialect: string, scope: MemoryScope, words: readonly string[]): [string, SqlParam[]] {
  const substrings = words
    .filter((word) => NON_ASCII.test(word))
    .map((word) => `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const like = substrings.map(() => ` OR search_text LIKE ? ESCAPE '\\'`).join('');
  const columns = 'session_id, memory_id, position, entry_json, search_text';
  if (dialect === 'postgres')
    return [
      `SELECT ${columns} FROM agentctx_memories WHERE ${SCOPE} AND (search_vector @@ to_tsquery('simple', ?)${like}) ORDER BY position, memory_id`,
      [scope.appName, scope.userId, words.map((word) => `'${word.replaceAll("'", "''")}'`).join(' | '), ...substrings],
    ];
  return [
    `SELECT ${columns} FROM agentctx_memories WHERE ${SCOPE} AND (rowid IN (SELECT rowid FROM agentctx_memories_fts WHERE agentctx_memories_fts MATCH ?)${like}) ORDER BY position, memory_id`,
    [scope.appName, scope.userId, words.map((word) => `"${word.replaceAll('"', '""')}"`).join(' OR '), ...substrings],
  ];
}
