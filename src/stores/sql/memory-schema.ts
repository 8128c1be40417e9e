import type { SqlDialect } from './sql-driver.js';

/**
 * Version 11: memories (docs/memory.md). One row per memory, keyed by its scope, its session ('' for a memory written
 * directly) and its id; `position` orders them as remembered; `search_text` is its text lowercased, which full-text
 * search indexes: SQLite's FTS5 (unicode61), kept in step by triggers, and PostgreSQL's `simple` tsvector under GIN;
 * `embedding_json` its vector when the store was given an embedder (searched by a plain scan: no vector extension is
 * assumed).
 */
export function memoryTables(dialect: SqlDialect): string[] {
  const columns = `app_name TEXT NOT NULL,
      user_id TEXT NOT NULL,
      session_id TEXT NOT NULL,
      memory_id TEXT NOT NULL,
      position BIGINT NOT NULL,
      entry_json TEXT NOT NULL,
      search_text TEXT NOT NULL,
      embedding_json TEXT`;
  const key = 'PRIMARY KEY (app_name, user_id, session_id, memory_id)';
  if (dialect === 'postgres')
    return [
      `CREATE TABLE agentctx_memories (
      ${columns},
      search_vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
      ${key}
    )`,
      'CREATE INDEX agentctx_memories_search ON agentctx_memories USING GIN (search_vector)',
      'CREATE INDEX agentctx_memories_order ON agentctx_memories (app_name, user_id, position)',
    ];
  return [
    `CREATE TABLE agentctx_memories (
      ${columns},
      ${key}
    )`,
    'CREATE INDEX agentctx_memories_order ON agentctx_memories (app_name, user_id, position)',
    `CREATE VIRTUAL TABLE agentctx_memories_fts USING fts5(search_text, content='agentctx_memories', content_rowid='rowid', tokenize='unicode61')`,
    `CREATE TRIGGER agentctx_memories_fts_insert AFTER INSERT ON agentctx_memories BEGIN
      INSERT INTO agentctx_memories_fts (rowid, search_text) VALUES (new.rowid, new.search_text);
    END`,
    `CREATE TRIGGER agentctx_memories_fts_delete AFTER DELETE ON agentctx_memories BEGIN
      INSERT INTO agentctx_memories_fts (agentctx_memories_fts, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
    END`,
    `CREATE TRIGGER agentctx_memories_fts_update AFTER UPDATE ON agentctx_memories BEGIN
      INSERT INTO agentctx_memories_fts (agentctx_memories_fts, rowid, search_text) VALUES ('delete', old.rowid, old.search_text);
      INSERT INTO agentctx_memories_fts (rowid, search_text) VALUES (new.rowid, new.search_text);
    END`,
  ];
}

/** Rowids per memory scope on SQLite: scope number n holds rowids n × SPAN + 1 up to (n + 1) × SPAN − 1. */
export const SCOPE_SPAN = 4_294_967_296;

/**
 * Version 12 (SQLite only): each app and user pair gets a number in `agentctx_memory_scopes`, and its memories the
 * rowids of that number's span, so a search asks full-text search for one user's span of rowids (FTS5 seeks to it)
 * instead of every user's matches, most of them dropped afterwards: a common word matched half of a million-memory
 * table. Existing memories are renumbered into their spans, keeping their order (through negative rowids, so that
 * no new rowid meets an old one); the full-text triggers move their index entries along. PostgreSQL filters by user
 * with its own indexes and needs none of it.
 */
export function memoryScopes(dialect: SqlDialect): string[] {
  if (dialect === 'postgres') return [];
  return [
    `CREATE TABLE agentctx_memory_scopes (
      app_name TEXT NOT NULL,
      user_id TEXT NOT NULL,
      scope_number INTEGER NOT NULL UNIQUE,
      PRIMARY KEY (app_name, user_id)
    )`,
    `INSERT INTO agentctx_memory_scopes (app_name, user_id, scope_number)
      SELECT app_name, user_id, ROW_NUMBER() OVER (ORDER BY app_name, user_id)
      FROM (SELECT DISTINCT app_name, user_id FROM agentctx_memories)`,
    'UPDATE agentctx_memories SET rowid = -rowid',
    `UPDATE agentctx_memories SET rowid = moved.id FROM (
      SELECT m.rowid AS old, s.scope_number * ${SCOPE_SPAN} + ROW_NUMBER() OVER (PARTITION BY s.scope_number ORDER BY m.rowid DESC) AS id
      FROM agentctx_memories AS m JOIN agentctx_memory_scopes AS s ON s.app_name = m.app_name AND s.user_id = m.user_id
    ) AS moved WHERE agentctx_memories.rowid = moved.old`,
  ];
}
