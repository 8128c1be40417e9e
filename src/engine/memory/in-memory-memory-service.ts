import type { MemoryEntry, MemoryScope, MemoryService } from '../../contracts/memory-service.js';
import type { Model } from '../../contracts/model.js';
import { copyValue } from '../util/copy-value.js';
import {
  bySimilarity,
  direct,
  DIRECT,
  type Embed,
  embedderOf,
  type Embedder,
  fromEvent,
  fuseRankings,
  rankMemories,
  remembered,
  textOf,
  UNKNOWN_SESSION,
} from './memory-entries.js';
import { wordsOf } from './memory-words.js';

export type InMemoryMemoryServiceOptions = {
  /**
   * `ranked` (default): memories sharing more distinct words with the query first, newer first among equals, at most
   * `limit`. `adk`: ADK 2.5.0's rule — every memory sharing any word, in the order remembered, no limit.
   */
  readonly matching?: 'ranked' | 'adk';
  /** The most memories a `ranked` search returns. Default 10 (ADK's own limit since 2.8). */
  readonly limit?: number;
  /** Ids for memories added without one. */
  readonly newId?: () => string;
  /**
   * Semantic search besides the words (`ranked` only): each memory's text is embedded when it is remembered and the
   * query when it is searched, and the keyword and vector rankings are fused (reciprocal rank fusion).
   */
  readonly embed?: Embed | Model;
  /** Under `ranked`, also remember tool calls, tool results and thoughts (left out by default; `adk` keeps them). */
  readonly rememberToolTraffic?: boolean;
};

type Recorder = Parameters<Embedder>[2];

type Stored = { entry: MemoryEntry; text: string; words: Set<string>; order: number; vector?: readonly number[] };

/**
 * A memory service in this process's memory (ADK's `InMemoryMemoryService`): for tests and single-process tools;
 * what it remembers is gone when the process ends. Matching is by words, ADK's way (`matching`).
 */
export function createInMemoryMemoryService(options: InMemoryMemoryServiceOptions = {}): MemoryService {
  const matching = options.matching ?? 'ranked';
  const limit = options.limit ?? 10;
  const remembering = { matching, toolTraffic: options.rememberToolTraffic };
  const newId = options.newId ?? (() => crypto.randomUUID());
  // scope → session → memories, each in the order remembered.
  const scopes = new Map<string, Map<string, Stored[]>>();
  let order = 0;
  const sessionsOf = (scope: MemoryScope) => {
    const key = JSON.stringify([scope.appName, scope.userId]);
    let sessions = scopes.get(key);
    if (sessions === undefined) scopes.set(key, (sessions = new Map()));
    return sessions;
  };
  const stored = (entry: MemoryEntry): Stored => {
    const text = textOf(entry.content);
    return { entry, text, words: wordsOf(text), order: order++ };
  };
  const all = (scope: MemoryScope) => [...sessionsOf(scope).values()].flat();
  const embed = matching === 'ranked' ? embedderOf(options.embed) : undefined;
  // The vectors of new memories, in one call of the embedder.
  const embedded = async (items: Stored[], record: Recorder): Promise<Stored[]> => {
    if (embed === undefined || items.length === 0) return items;
    const vectors = await embed(
      items.map((item) => item.text),
      'document',
      record,
    );
    return items.map((item, index) => ({ ...item, vector: vectors[index] ?? [] }));
  };

  return {
    async addSessionToMemory(session, recording) {
      const scope = { appName: session.appName, userId: session.userId };
      sessionsOf(scope).set(
        session.id,
        await embedded(
          remembered(session.events, remembering).map((event) => stored(fromEvent(event, session.id))),
          recording?.recordEmbedding,
        ),
      );
    },
    async addEventsToMemory(input) {
      const sessionId = input.sessionId ?? UNKNOWN_SESSION;
      const sessions = sessionsOf(input);
      const list = sessions.get(sessionId) ?? [];
      const known = new Set(list.map((item) => item.entry.id));
      const fresh: Stored[] = [];
      for (const event of remembered(input.events, remembering)) {
        if (known.has(event.id)) continue;
        known.add(event.id);
        fresh.push(stored(fromEvent(event, sessionId, input.customMetadata)));
      }
      sessions.set(sessionId, [...list, ...(await embedded(fresh, input.recordEmbedding))]);
    },
    async addMemory(input) {
      const sessions = sessionsOf(input);
      const list = sessions.get(DIRECT) ?? [];
      const added = input.memories.map((memory) => direct(memory, newId, input.customMetadata));
      const ids = new Set(added.map((entry) => entry.id));
      // A memory of an id already there is replaced, so writing the same memories again is idempotent.
      sessions.set(DIRECT, [
        ...list.filter((item) => !ids.has(item.entry.id)),
        ...(await embedded(added.map(stored), input.recordEmbedding)),
      ]);
      return added.map(copyValue);
    },
    async searchMemory(input) {
      const candidates = all(input);
      if (embed === undefined) {
        const chosen = rankMemories(candidates, input.query, { matching, limit });
        return { memories: chosen.map((item) => copyValue(item.entry)) };
      }
      const [query = []] = await embed([input.query], 'query', input.recordEmbedding);
      const keyword = rankMemories(candidates, input.query, { matching, limit: Number.POSITIVE_INFINITY });
      const chosen = fuseRankings(keyword, bySimilarity(candidates, query), limit);
      return { memories: chosen.map((item) => copyValue(item.entry)) };
    },
    async listMemories(input) {
      const items = input.sessionId === undefined ? all(input) : (sessionsOf(input).get(input.sessionId) ?? []);
      return items.map((item) => copyValue(item.entry));
    },
    async deleteMemory(input) {
      for (const [sessionId, list] of sessionsOf(input)) {
        const kept = list.filter((item) => item.entry.id !== input.id);
        if (kept.length === list.length) continue;
        sessionsOf(input).set(sessionId, kept);
        return true;
      }
      return false;
    },
    async deleteSessionMemories(input) {
      const sessions = sessionsOf(input);
      const count = sessions.get(input.sessionId)?.length ?? 0;
      sessions.delete(input.sessionId);
      return count;
    },
    async deleteUserMemories(input) {
      const count = all(input).length;
      scopes.delete(JSON.stringify([input.appName, input.userId]));
      return count;
    },
  };
}
