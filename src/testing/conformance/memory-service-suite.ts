import { describe, expect, it } from 'vitest';
import type { Event } from '../../contracts/event.js';
import type { MemoryService } from '../../contracts/memory-service.js';
import type { Session } from '../../contracts/session.js';

export type MemoryServiceSuiteOptions = {
  name: string;
  /** A new, empty, isolated service. */
  create: () => MemoryService | Promise<MemoryService>;
};

const said = (id: string, author: string, text: string, timestamp = 1_700_000_000): Event => ({
  id,
  invocationId: `i-${id}`,
  author,
  timestamp,
  content: { role: author === 'user' ? 'user' : 'model', parts: [{ text }] },
  actions: { stateDelta: {}, artifactDelta: {} },
});

const session = (id: string, events: Event[], userId = 'u1', appName = 'contract_app'): Session => ({
  id,
  appName,
  userId,
  state: {},
  events,
  lastUpdateTime: 1_700_000_000,
  revision: 1,
});

const texts = (memories: readonly { content: { parts: readonly unknown[] } }[]) =>
  memories.map((memory) => (memory.content.parts[0] as { text?: string }).text);

/**
 * The behaviour every `MemoryService` must have (issue 49): scope isolation (no memory crosses users or apps),
 * idempotent ingestion of the same session, search by the query's words, and deletes that are final. Run it against
 * your implementation with vitest.
 */
export function testMemoryService(options: MemoryServiceSuiteOptions): void {
  describe(`MemoryService contract: ${options.name}`, () => {
    const scope = { appName: 'contract_app', userId: 'u1' };

    it('finds a session’s events by the words of a query, with who said them and when, and its source', async () => {
      const memory = await options.create();
      await memory.addSessionToMemory(
        session('s1', [said('e1', 'user', 'My favourite city is Lisbon.'), said('e2', 'assistant', 'Noted: Lisbon.')]),
      );
      const found = await memory.searchMemory({ ...scope, query: 'which city do I like?' });
      expect(texts(found.memories)).toEqual(['My favourite city is Lisbon.']);
      expect(found.memories[0]).toMatchObject({ id: 'e1', author: 'user', source: { sessionId: 's1', eventId: 'e1' } });
      expect(found.memories[0]?.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
      expect((await memory.searchMemory({ ...scope, query: 'lisbon' })).memories).toHaveLength(2);
      expect((await memory.searchMemory({ ...scope, query: 'Tokyo' })).memories).toEqual([]);
    });

    it('keeps users and apps apart', async () => {
      const memory = await options.create();
      await memory.addSessionToMemory(session('s1', [said('e1', 'user', 'secret plan alpha')]));
      await memory.addSessionToMemory(session('s2', [said('e2', 'user', 'secret plan beta')], 'u2'));
      await memory.addSessionToMemory(session('s3', [said('e3', 'user', 'secret plan gamma')], 'u1', 'other_app'));
      expect(texts((await memory.searchMemory({ ...scope, query: 'secret' })).memories)).toEqual(['secret plan alpha']);
      expect(await memory.listMemories({ appName: 'contract_app', userId: 'u2' })).toHaveLength(1);
      expect(await memory.deleteUserMemories(scope)).toBe(1);
      expect(await memory.listMemories({ appName: 'contract_app', userId: 'u2' })).toHaveLength(1);
      expect(await memory.listMemories({ appName: 'other_app', userId: 'u1' })).toHaveLength(1);
    });

    it('remembers a session once however often it is added, and what it holds at the last time', async () => {
      const memory = await options.create();
      const first = [said('e1', 'user', 'I drink green tea')];
      await memory.addSessionToMemory(session('s1', first));
      await memory.addSessionToMemory(session('s1', first));
      expect(await memory.listMemories(scope)).toHaveLength(1);
      await memory.addSessionToMemory(session('s1', [...first, said('e2', 'user', 'and black coffee')]));
      expect(texts(await memory.listMemories(scope))).toEqual(['I drink green tea', 'and black coffee']);
    });

    it('adds events as a delta, skipping those remembered already, and memories directly', async () => {
      const memory = await options.create();
      await memory.addEventsToMemory({ ...scope, sessionId: 's1', events: [said('e1', 'user', 'first note')] });
      await memory.addEventsToMemory({
        ...scope,
        sessionId: 's1',
        events: [said('e1', 'user', 'first note'), said('e2', 'user', 'second note')],
      });
      expect(texts(await memory.listMemories({ ...scope, sessionId: 's1' }))).toEqual(['first note', 'second note']);
      const [added] = await memory.addMemory({
        ...scope,
        memories: [{ id: 'm1', content: { role: 'user', parts: [{ text: 'prefers window seats' }] }, author: 'user' }],
      });
      expect(added?.id).toBe('m1');
      expect(texts((await memory.searchMemory({ ...scope, query: 'seats' })).memories)).toEqual([
        'prefers window seats',
      ]);
    });

    it('deletes an entry, a session’s memories, or a user’s, for good', async () => {
      const memory = await options.create();
      await memory.addSessionToMemory(
        session('s1', [said('e1', 'user', 'alpha one'), said('e2', 'user', 'alpha two')]),
      );
      await memory.addSessionToMemory(session('s2', [said('e3', 'user', 'alpha three')]));
      expect(await memory.deleteMemory({ ...scope, id: 'e1' })).toBe(true);
      expect(await memory.deleteMemory({ ...scope, id: 'e1' })).toBe(false);
      expect(texts((await memory.searchMemory({ ...scope, query: 'alpha' })).memories).sort()).toEqual([
        'alpha three',
        'alpha two',
      ]);
      expect(await memory.deleteSessionMemories({ ...scope, sessionId: 's2' })).toBe(1);
      expect(texts((await memory.searchMemory({ ...scope, query: 'alpha' })).memories)).toEqual(['alpha two']);
      expect(await memory.deleteUserMemories(scope)).toBe(1);
      expect((await memory.searchMemory({ ...scope, query: 'alpha' })).memories).toEqual([]);
      expect(await memory.listMemories(scope)).toEqual([]);
    });

    it('matches words of any script, whatever their case', async () => {
      const memory = await options.create();
      await memory.addSessionToMemory(
        session('s1', [said('e1', 'user', 'Ich wohne in MÜNCHEN'), said('e2', 'user', '私は東京に住んでいます')]),
      );
      expect(texts((await memory.searchMemory({ ...scope, query: 'münchen' })).memories)).toEqual([
        'Ich wohne in MÜNCHEN',
      ]);
    });

    it('hands out copies: changing what it returned changes nothing stored', async () => {
      const memory = await options.create();
      await memory.addSessionToMemory(session('s1', [said('e1', 'user', 'blue whale')]));
      const [found] = (await memory.searchMemory({ ...scope, query: 'whale' })).memories;
      (found?.content.parts[0] as { text: string }).text = 'changed';
      expect(texts((await memory.searchMemory({ ...scope, query: 'whale' })).memories)).toEqual(['blue whale']);
    });
  });
}
