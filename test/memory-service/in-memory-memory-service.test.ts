import { describe, expect, it } from 'vitest';
import type { Event } from '../../src/contracts/event.js';
import type { Session } from '../../src/contracts/session.js';
import { createInMemoryMemoryService } from '../../src/engine/memory/in-memory-memory-service.js';
import { pythonIsoTime } from '../../src/engine/memory/memory-words.js';
import { testMemoryService } from '../../src/testing/conformance/memory-service-suite.js';
import { conceptEmbedder } from '../support/test-embedder.js';

// The in-memory memory service (issue 49): the conformance suite under both matching rules, and ADK 2.5.0's
// tests/unittests/memory/test_in_memory_memory_service.py translated for the `adk` rule (each named after its origin).

testMemoryService({ name: 'in memory, ranked', create: () => createInMemoryMemoryService() });
testMemoryService({
  name: 'in memory, ADK 2.5.0’s rule',
  create: () => createInMemoryMemoryService({ matching: 'adk' }),
});

const event = (id: string, author: string, timestamp: number, text?: string): Event => ({
  id,
  invocationId: `inv-${id}`,
  author,
  timestamp,
  ...(text === undefined ? {} : { content: { role: author === 'user' ? 'user' : 'model', parts: [{ text }] } }),
  actions: { stateDelta: {}, artifactDelta: {} },
});
const session = (id: string, userId: string, events: Event[]): Session => ({
  id,
  appName: 'test-app',
  userId,
  state: {},
  events,
  lastUpdateTime: 1000,
  revision: 1,
});

const SESSION_1 = session('session-1', 'test-user', [
  event('event-1a', 'user', 12345, 'The ADK is a great toolkit.'),
  // No content: not remembered.
  event('event-1b', 'user', 12346),
  event('event-1c', 'model', 12347, 'I agree. The Agent Development Kit (ADK) rocks!'),
]);
const SESSION_2 = session('session-2', 'test-user', [event('event-2a', 'user', 54321, 'I like to code in Python.')]);
const OTHER_USER = session('session-3', 'another-user', [event('event-3a', 'user', 60000, 'This is a secret.')]);
const scope = { appName: 'test-app', userId: 'test-user' };
const texts = (found: { memories: readonly { content: { parts: readonly unknown[] } }[] }) =>
  found.memories.map((memory) => (memory.content.parts[0] as { text: string }).text);

describe("ADK 2.5.0's InMemoryMemoryService (matching: 'adk')", () => {
  const service = () => createInMemoryMemoryService({ matching: 'adk' });

  it('remembers the events with content (test_add_session_to_memory)', async () => {
    const memory = service();
    await memory.addSessionToMemory(SESSION_1);
    expect((await memory.listMemories({ ...scope, sessionId: 'session-1' })).map((entry) => entry.id)).toEqual([
      'event-1a',
      'event-1c',
    ]);
  });

  it('ingests an explicit list of events into their session (test_add_events_to_memory_with_explicit_events, test_add_events_to_memory_alias_is_supported)', async () => {
    const memory = service();
    await memory.addEventsToMemory({ ...scope, sessionId: 'session-1', events: [SESSION_1.events[0] as Event] });
    expect((await memory.listMemories({ ...scope, sessionId: 'session-1' })).map((entry) => entry.id)).toEqual([
      'event-1a',
    ]);
  });

  it('searches while sessions are being added, without failing or seeing half a session (test_search_memory_is_thread_safe_against_concurrent_writes)', async () => {
    // JavaScript has no threads; the same hazard is a search interleaved with writes at every await.
    const memory = service();
    const factsOf = (id: string) =>
      session(id, 'test-user', [
        event(`${id}-a`, 'user', 1, `fact ${id}`),
        event(`${id}-b`, 'model', 2, `fact ${id} noted`),
      ]);
    for (let i = 0; i < 50; i++) await memory.addSessionToMemory(factsOf(`seed-${i}`));
    const writes = Array.from({ length: 200 }, (_, i) => memory.addSessionToMemory(factsOf(`writer-${i}`)));
    const searches = Array.from({ length: 200 }, () => memory.searchMemory({ ...scope, query: 'fact' }));
    await Promise.all(writes);
    for (const found of await Promise.all(searches)) {
      expect(found.memories.length).toBeGreaterThanOrEqual(100);
      expect(found.memories.length % 2).toBe(0);
    }
    expect((await memory.searchMemory({ ...scope, query: 'fact' })).memories).toHaveLength(500);
  });

  it('puts events without a session id under ADK’s default one (test_add_events_to_memory_without_session_id_uses_default_bucket)', async () => {
    const memory = service();
    await memory.addEventsToMemory({ ...scope, events: [event('e', 'user', 1, 'loose fact')] });
    expect(await memory.listMemories({ ...scope, sessionId: '__unknown_session_id__' })).toHaveLength(1);
  });

  it('appends events without replacing, skipping known ids (…_appends_without_replacing, …_deduplicates_event_ids)', async () => {
    const memory = service();
    await memory.addEventsToMemory({ ...scope, sessionId: 's', events: [event('a', 'user', 1, 'one')] });
    await memory.addEventsToMemory({
      ...scope,
      sessionId: 's',
      events: [event('a', 'user', 1, 'one'), event('b', 'user', 2, 'two')],
    });
    expect((await memory.listMemories({ ...scope, sessionId: 's' })).map((entry) => entry.id)).toEqual(['a', 'b']);
  });

  it('takes a session with no events (test_add_session_with_no_events_to_memory)', async () => {
    const memory = service();
    await memory.addSessionToMemory(session('session-4', 'test-user', []));
    expect(await memory.listMemories(scope)).toEqual([]);
  });

  it('finds by a word, with its author (test_search_memory_simple_match)', async () => {
    const memory = service();
    await memory.addSessionToMemory(SESSION_1);
    await memory.addSessionToMemory(SESSION_2);
    const found = await memory.searchMemory({ ...scope, query: 'Python' });
    expect(texts(found)).toEqual(['I like to code in Python.']);
    expect(found.memories[0]?.author).toBe('user');
    expect(found.memories[0]?.timestamp).toBe(pythonIsoTime(54321));
  });

  it('ignores case (test_search_memory_case_insensitive_match)', async () => {
    const memory = service();
    await memory.addSessionToMemory(SESSION_1);
    expect(texts(await memory.searchMemory({ ...scope, query: 'development' }))).toEqual([
      'I agree. The Agent Development Kit (ADK) rocks!',
    ]);
  });

  it('returns every event sharing a word, in the order remembered (test_search_memory_multiple_matches)', async () => {
    const memory = service();
    await memory.addSessionToMemory(SESSION_1);
    expect(texts(await memory.searchMemory({ ...scope, query: 'How about ADK?' }))).toEqual([
      'The ADK is a great toolkit.',
      'I agree. The Agent Development Kit (ADK) rocks!',
    ]);
  });

  it('finds nothing for a word no event has (test_search_memory_no_match)', async () => {
    const memory = service();
    await memory.addSessionToMemory(SESSION_1);
    expect((await memory.searchMemory({ ...scope, query: 'nonexistent' })).memories).toEqual([]);
  });

  it('is scoped by user (test_search_memory_is_scoped_by_user)', async () => {
    const memory = service();
    await memory.addSessionToMemory(SESSION_1);
    await memory.addSessionToMemory(OTHER_USER);
    expect((await memory.searchMemory({ ...scope, query: 'secret' })).memories).toEqual([]);
    expect(texts(await memory.searchMemory({ appName: 'test-app', userId: 'another-user', query: 'secret' }))).toEqual([
      'This is a secret.',
    ]);
  });

  it('matches non-Latin text (test_search_memory_matches_non_latin_text)', async () => {
    const memory = service();
    await memory.addSessionToMemory(
      session('session-non-latin', 'test-user', [event('x', 'user', 70000, 'Привет мир')]),
    );
    expect(texts(await memory.searchMemory({ ...scope, query: 'привет' }))).toEqual(['Привет мир']);
  });

  it('has no limit and no ranking', async () => {
    const memory = service();
    await memory.addSessionToMemory(
      session(
        's',
        'test-user',
        Array.from({ length: 12 }, (_, index) => event(`e${index}`, 'user', index, `fact ${index} about tea`)),
      ),
    );
    expect((await memory.searchMemory({ ...scope, query: 'tea' })).memories).toHaveLength(12);
  });
});

describe("agentctx's ranking (matching: 'ranked', the default)", () => {
  it('puts memories sharing more of the query first, newer first among equals, at most the limit', async () => {
    const memory = createInMemoryMemoryService({ limit: 2 });
    await memory.addSessionToMemory(
      session('s', 'test-user', [
        event('old', 'user', 1, 'green tea'),
        event('both', 'user', 2, 'green tea with honey'),
        event('new', 'user', 3, 'black tea'),
      ]),
    );
    expect(texts(await memory.searchMemory({ ...scope, query: 'tea with honey' }))).toEqual([
      'green tea with honey',
      'black tea',
    ]);
  });

  it('finds a word inside text of a script written without spaces', async () => {
    const memory = createInMemoryMemoryService();
    await memory.addSessionToMemory(session('s', 'test-user', [event('jp', 'user', 1, '私は東京に住んでいます')]));
    expect(texts(await memory.searchMemory({ ...scope, query: '東京' }))).toEqual(['私は東京に住んでいます']);
  });
});

describe('pythonIsoTime', () => {
  it('writes local time as Python’s datetime.fromtimestamp(t).isoformat() does', () => {
    const local = new Date(2026, 11, 7, 9, 5, 3);
    expect(pythonIsoTime(local.getTime() / 1000)).toBe('2026-12-07T09:05:03');
    expect(pythonIsoTime(local.getTime() / 1000 + 0.25)).toBe('2026-12-07T09:05:03.250000');
  });
});

describe('semantic search (an embedder given)', () => {
  const concepts = [
    ['car', 'automobile', 'vehicle'],
    ['dog', 'puppy', 'hound'],
  ];

  it('finds a memory that shares no word with the query, and fuses it with the keyword matches', async () => {
    const embedder = conceptEmbedder(concepts);
    const memory = createInMemoryMemoryService({ embed: embedder.embed });
    await memory.addSessionToMemory(
      session('s', 'test-user', [
        event('car', 'user', 1, 'I bought a new car last week'),
        event('dog', 'user', 2, 'My puppy is called Rex'),
        event('week', 'user', 3, 'This week was long'),
      ]),
    );
    expect(embedder.calls).toEqual([['I bought a new car last week', 'My puppy is called Rex', 'This week was long']]);
    expect(texts(await memory.searchMemory({ ...scope, query: 'automobile' }))).toEqual([
      'I bought a new car last week',
    ]);
    // Words and meaning together: the car memory matches both, the long week only a word.
    expect(texts(await memory.searchMemory({ ...scope, query: 'which vehicle last week?' })).slice(0, 2)).toEqual([
      'I bought a new car last week',
      'This week was long',
    ]);
  });

  it('is off under ADK’s rule, which knows words only', async () => {
    const memory = createInMemoryMemoryService({ matching: 'adk', embed: conceptEmbedder(concepts).embed });
    await memory.addSessionToMemory(session('s', 'test-user', [event('car', 'user', 1, 'I bought a new car')]));
    expect((await memory.searchMemory({ ...scope, query: 'automobile' })).memories).toEqual([]);
  });
});
