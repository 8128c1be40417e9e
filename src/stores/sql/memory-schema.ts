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
