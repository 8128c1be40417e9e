import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { MemoryEntry, MemoryScope, MemoryService } from '../../contracts/memory-service.js';
import type { Model } from '../../contracts/model.js';
import type { Session } from '../../contracts/session.js';
import {
  bySimilarity,
  type Candidate,
  DIRECT,
  type Embed,
  embedderOf,
  type Embedder,
  fuseRankings,
  direct,
  fromEvent,
  type MemoryMatching,
  rankMemories,
  remembered,
  textOf,
  UNKNOWN_SESSION,
} from '../../engine/memory/memory-entries.js';
import { wordsOf } from '../../engine/memory/memory-words.js';
import { SCOPE_SPAN } from './memory-schema.js';
import type { SqlDriver, SqlExecutor, SqlParam } from './sql-driver.js';

type Row = {
  session_id: string;
  memory_id: string;
  position: number | string;
  entry_json: string;
  search_text: string;
  embedding_json: string | null;
};

/** How a SQL store's memory service chooses memories (`createInMemoryMemoryService` takes the same). */
export type SqlMemoryOptions = {
  matching?: 'ranked' | 'adk';
  limit?: number;
  /** Semantic search besides the words (`ranked` only): vectors stored with the memories, rankings fused. */
  embed?: Embed | Model;
  /** Under `ranked`, also remember tool calls, tool results and thoughts (left out by default; `adk` keeps them). */
  rememberToolTraffic?: boolean;
};

type Recorder = Parameters<Embedder>[2];

type Found = Candidate & { readonly row: Row; readonly vector?: readonly number[] };

const SCOPE = 'app_name = ? AND user_id = ?';
const NON_ASCII = /[^\x00-\x7f]/;
const COLUMNS = 'session_id, memory_id, position, entry_json, search_text, embedding_json';

/**
 * A memory service on the SQL store's database (docs/memory.md): full-text search finds the memories that share a word
 * with the query (SQLite's FTS5, PostgreSQL's tsvector under GIN), plus a substring match for non-ASCII words (scripts
 * written without spaces), and they are ranked as the in-memory service ranks them, so every implementation chooses
 * alike. With an embedder, each memory's vector is stored with it and the query's compared with them all (a plain
 * scan), the two rankings fused. Deletes remove the row and, with it, its search index entry.
 */
export function sqlMemory(
  driver: SqlDriver,
  ready: () => Promise<unknown>,
  newId: () => string,
  given: SqlMemoryOptions = {},
): MemoryService {
  const options: MemoryMatching = { matching: given.matching ?? 'ranked', limit: given.limit ?? 10 };
  const embed = options.matching === 'ranked' ? embedderOf(given.embed) : undefined;
  const remembering = { matching: options.matching, toolTraffic: given.rememberToolTraffic };
  const sqlite = driver.dialect === 'sqlite';
  // Vectors are made before the transaction that stores them: an embedding call must not hold the write lock.
  const vectorsOf = async (
    entries: readonly MemoryEntry[],
    record: Recorder,
  ): Promise<readonly (readonly number[])[]> =>
    embed === undefined || entries.length === 0
      ? []
      : embed(
          entries.map((entry) => textOf(entry.content)),
          'document',
          record,
        );
  const insert = async (
    tx: SqlExecutor,
    scope: MemoryScope,
    sessionId: string,
    entries: readonly { entry: MemoryEntry; vector: readonly number[] | undefined }[],
  ) => {
    if (entries.length === 0) return;
    const rows = await tx.query<{ next: number | string | null }>(
      `SELECT MAX(position) AS next FROM agentctx_memories WHERE ${SCOPE}`,
      [scope.appName, scope.userId],
    );
    let position = Number(rows[0]?.next ?? 0);
    let slot = sqlite ? await lastSlot(tx, scope, entries.length) : 0;
    for (const { entry, vector } of entries) {
      position += 1;
      slot += 1;
      await tx.run(
        `INSERT INTO agentctx_memories (${sqlite ? 'rowid, ' : ''}app_name, user_id, session_id, memory_id, position, entry_json, search_text, embedding_json)
         VALUES (${sqlite ? `(SELECT scope_number * ${SCOPE_SPAN} FROM agentctx_memory_scopes WHERE ${SCOPE}) + ?, ` : ''}?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (app_name, user_id, session_id, memory_id) DO UPDATE SET entry_json = excluded.entry_json,
           search_text = excluded.search_text, embedding_json = excluded.embedding_json`,
        [
          ...(sqlite ? [scope.appName, scope.userId, slot] : []),
          scope.appName,
          scope.userId,
          sessionId,
          entry.id,
          position,
          JSON.stringify(entry),
          textOf(entry.content).toLowerCase(),
          vector === undefined ? null : JSON.stringify(vector),
        ],
      );
    }
  };
  const withVectors = async (entries: readonly MemoryEntry[], record: Recorder) => {
    const vectors = await vectorsOf(entries, record);
    return entries.map((entry, index) => ({ entry, vector: vectors[index] }));
  };
  const list = async (scope: MemoryScope, where = '', params: SqlParam[] = []) => {
    await ready();
    return driver.query<Row>(
      `SELECT ${COLUMNS} FROM agentctx_memories WHERE ${SCOPE}${where} ORDER BY position, memory_id`,
      [scope.appName, scope.userId, ...params],
    );
  };
  // PostgreSQL plans each search for its words: the generic plan of a named statement cannot tell a common word (half
  // the table matches: read the user's rows) from a rare one (the GIN index), and took the index for both.
  const search = (scope: MemoryScope, words: readonly string[]): Promise<Row[]> => {
    const [sql, params] = searchQuery(driver.dialect, scope, words);
    if (sqlite) return driver.query<Row>(sql, params);
    return driver.transaction(
      async (tx) => {
        await tx.run('SET LOCAL plan_cache_mode = force_custom_plan');
        return tx.query<Row>(sql, params);
      },
      { readOnly: true },
    );
  };
  const entryOf = (row: Row): MemoryEntry => JSON.parse(row.entry_json) as MemoryEntry;
  const found = (row: Row): Found => {
    const entry = entryOf(row);
    const text = textOf(entry.content);
    const vector = row.embedding_json === null ? undefined : (JSON.parse(row.embedding_json) as number[]);
    return {
      entry,
      text,
      words: wordsOf(text),
      order: Number(row.position),
      row,
      ...(vector === undefined ? {} : { vector }),
    };
  };

  return {
    async addSessionToMemory(session: Session, recording) {
      const scope = { appName: session.appName, userId: session.userId };
      const entries = await withVectors(
        remembered(session.events, remembering).map((event) => fromEvent(event, session.id)),
        recording?.recordEmbedding,
      );
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
      const before = new Set((await list(input, ' AND session_id = ?', [sessionId])).map((row) => row.memory_id));
      const fresh = remembered(input.events, remembering).filter((event) => !before.has(event.id));
      const entries = await withVectors(
        fresh.map((event) => fromEvent(event, sessionId, input.customMetadata)),
        input.recordEmbedding,
      );
      await driver.transaction(async (tx) => {
        // Read again inside the write: an event another writer remembered meanwhile is not remembered twice.
        const known = new Set(
          (
            await tx.query<{ memory_id: string }>(
              `SELECT memory_id FROM agentctx_memories WHERE ${SCOPE} AND session_id = ?`,
              [input.appName, input.userId, sessionId],
            )
          ).map((row) => row.memory_id),
        );
        await insert(
          tx,
          input,
          sessionId,
          entries.filter(({ entry }) => !known.has(entry.id) && Boolean(known.add(entry.id))),
        );
      });
    },
    async addMemory(input) {
      const added = input.memories.map((memory) => direct(memory, newId, input.customMetadata));
      const entries = await withVectors(added, input.recordEmbedding);
      await ready();
      await driver.transaction((tx) => insert(tx, input, DIRECT, entries));
      return added.map((entry) => structuredClone(entry));
    },
    async searchMemory(input) {
      const words = [...wordsOf(input.query)];
      await ready();
      const rows = words.length === 0 ? [] : await search(input, words);
      const candidates = rows.map(found);
      if (embed === undefined)
        return { memories: rankMemories(candidates, input.query, options).map((item) => item.entry) };
      const [query = []] = await embed([input.query], 'query', input.recordEmbedding);
      // One object per memory in both rankings, so fusion adds up its two ranks.
      const byKey = new Map(candidates.map((item) => [`${item.row.session_id}\u0000${item.row.memory_id}`, item]));
      const vectored = (await list(input, ' AND embedding_json IS NOT NULL')).map(
        (row) => byKey.get(`${row.session_id}\u0000${row.memory_id}`) ?? found(row),
      );
      const keyword = rankMemories(candidates, input.query, { ...options, limit: Number.POSITIVE_INFINITY });
      return {
        memories: fuseRankings(keyword, bySimilarity(vectored, query), options.limit).map((item) => item.entry),
      };
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
  const columns = COLUMNS;
  if (dialect === 'postgres')
    return [
      `SELECT ${columns} FROM agentctx_memories WHERE ${SCOPE} AND (search_vector @@ to_tsquery('simple', ?)${like}) ORDER BY position, memory_id`,
      [scope.appName, scope.userId, words.map((word) => `'${word.replaceAll("'", "''")}'`).join(' | '), ...substrings],
    ];
  // Only the user's span of rowids (memory-schema.ts): FTS5 seeks each word's list to it.
  const span = (end: string) =>
    `(SELECT scope_number * ${SCOPE_SPAN}${end} FROM agentctx_memory_scopes WHERE ${SCOPE})`;
  const match = words.map((word) => `"${word.replaceAll('"', '""')}"`).join(' OR ');
  const { appName, userId } = scope;
  return [
    `SELECT ${columns} FROM agentctx_memories WHERE ${SCOPE} AND (rowid IN (SELECT rowid FROM agentctx_memories_fts WHERE agentctx_memories_fts MATCH ? AND rowid BETWEEN ${span('')} AND ${span(` + ${SCOPE_SPAN - 1}`)})${like}) ORDER BY position, memory_id`,
    [appName, userId, match, appName, userId, appName, userId, ...substrings],
  ];
}

/**
 * SQLite: numbers the scope when it has none yet (memory-schema.ts), and returns the slot of its last rowid, after
 * which `adding` more are written.
 */
async function lastSlot(tx: SqlExecutor, scope: MemoryScope, adding: number): Promise<number> {
  const { appName, userId } = scope;
  await tx.run(
    `INSERT INTO agentctx_memory_scopes (app_name, user_id, scope_number)
     SELECT ?, ?, (SELECT COALESCE(MAX(scope_number), 0) + 1 FROM agentctx_memory_scopes)
     WHERE NOT EXISTS (SELECT 1 FROM agentctx_memory_scopes WHERE ${SCOPE})`,
    [appName, userId, appName, userId],
  );
  const [row] = await tx.query<{ slot: number | null }>(
    `SELECT (SELECT m.rowid FROM agentctx_memories AS m WHERE m.rowid BETWEEN s.scope_number * ${SCOPE_SPAN}
       AND s.scope_number * ${SCOPE_SPAN} + ${SCOPE_SPAN - 1} ORDER BY m.rowid DESC LIMIT 1) - s.scope_number * ${SCOPE_SPAN} AS slot
     FROM agentctx_memory_scopes AS s WHERE s.app_name = ? AND s.user_id = ?`,
    [appName, userId],
  );
  const slot = row?.slot ?? 0;
  // A span holds 2^32 - 1 memories; past it, rowids would enter the next user's span.
  if (slot + adding >= SCOPE_SPAN)
    throw new AgentctxError({
      code: 'invalid_input',
      message: `User ${userId} of app ${appName} has ${slot.toLocaleString('en')} memories: no room for ${adding} more.`,
      hint: 'Delete memories the user no longer needs (agentctx memory delete), then remember again.',
    });
  return slot;
}
