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
    for (const { entry, vector } of entries) {
      position += 1;
      await tx.run(
        `INSERT INTO agentctx_memories (app_name, user_id, session_id, memory_id, position, entry_json, search_text, embedding_json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (app_name, user_id, session_id, memory_id) DO UPDATE SET entry_json = excluded.entry_json,
           search_text = excluded.search_text, embedding_json = excluded.embedding_json`,
        [
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
      const rows = words.length === 0 ? [] : await driver.query<Row>(...searchQuery(driver.dialect, input, words));
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
  return [
    `SELECT ${columns} FROM agentctx_memories WHERE ${SCOPE} AND (rowid IN (SELECT rowid FROM agentctx_memories_fts WHERE agentctx_memories_fts MATCH ?)${like}) ORDER BY position, memory_id`,
    [scope.appName, scope.userId, words.map((word) => `"${word.replaceAll('"', '""')}"`).join(' OR '), ...substrings],
  ];
}
