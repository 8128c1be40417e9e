import { describe, expect, it, vi } from 'vitest';
import type { Session } from '../../contracts/session.js';
import type { GetSessionInput, SessionStore } from '../../contracts/session-store.js';
import { catchUp } from './catch-up.js';
import { createEvent } from './create-event.js';
import { createInMemorySessionStore } from './in-memory-session-store.js';

const key = { appName: 'app', userId: 'u', sessionId: 's' };
const say = (text: string, timestamp: number) =>
  createEvent({ author: 'user', content: { role: 'user', parts: [{ text }] }, timestamp });

async function twoCopies() {
  const store = createInMemorySessionStore();
  const writer = await store.createSession({ ...key, state: { 'user:count': 1 } });
  await store.appendEvent({ session: writer, event: say('one', 1) });
  const held = (await store.getSession(key)) as Session;
  return { store, writer, held };
}

/** Counts the reads and what they asked for. */
function watched(store: SessionStore) {
  const reads: GetSessionInput[] = [];
  const spy: SessionStore = { ...store, getSession: (input) => (reads.push(input), store.getSession(input)) };
  return { spy, reads };
}

describe('catchUp', () => {
  it('adds only what other writers appended, keeps the events it holds, and takes the stored state', async () => {
    const { store, writer, held } = await twoCopies();
    const first = held.events[0];
    await store.appendEvent({
      session: writer,
      event: { ...say('two', 2), actions: { stateDelta: { 'user:count': 2 }, artifactDelta: {} } },
    });
    await store.appendEvent({ session: writer, event: say('three', 3) });
    const { spy, reads } = watched(store);
    expect(await catchUp(spy, held)).toBe('advanced');
    expect(reads).toEqual([{ ...key, afterRevision: 0 }]);
    expect(held.events.map((event) => JSON.stringify(event.content))).toEqual(
      ['one', 'two', 'three'].map((text) => JSON.stringify({ role: 'user', parts: [{ text }] })),
    );
    expect(held.events[0]).toBe(first);
    expect(held).toMatchObject({ revision: 3, state: { 'user:count': 2 }, lastUpdateTime: writer.lastUpdateTime });
    expect(held.events).toEqual(writer.events);
  });

  it('says current, after one read, when nothing was appended (state still refreshed)', async () => {
    const { store, held } = await twoCopies();
    const other = await store.createSession({ ...key, sessionId: 'other' });
    await store.appendEvent({
      session: other,
      event: { ...say('x', 5), actions: { stateDelta: { 'user:count': 7 }, artifactDelta: {} } },
    });
    const { spy, reads } = watched(store);
    expect(await catchUp(spy, held)).toBe('current');
    expect(reads).toHaveLength(1);
    expect(held.events).toHaveLength(1);
    expect(held.state).toEqual({ 'user:count': 7 });
  });

  it('loads whole a session deleted and made again under the same id', async () => {
    const { store, held } = await twoCopies();
    await store.deleteSession(key);
    const again = await store.createSession(key);
    await store.appendEvent({ session: again, event: say('new one', 1) });
    await store.appendEvent({ session: again, event: say('new two', 2) });
    expect(await catchUp(store, held)).toBe('reloaded');
    expect(held.events).toEqual(again.events);
    expect(held.revision).toBe(2);
  });

  it('reports a deleted session', async () => {
    const { store, held } = await twoCopies();
    await store.deleteSession(key);
    expect(await catchUp(store, held)).toBe('gone');
  });

  it('does not trust a store that ignores afterRevision: the count tells, and the session is loaded whole', async () => {
    const { store, held } = await twoCopies();
    await store.appendEvent({ session: held, event: say('two', 2) });
    await store.appendEvent({ session: (await store.getSession(key)) as Session, event: say('three', 3) });
    const ignoring: SessionStore = {
      ...store,
      getSession: ({ afterRevision: _ignored, ...rest }) => store.getSession(rest),
    };
    const read = vi.spyOn(ignoring, 'getSession');
    expect(await catchUp(ignoring, held)).toBe('reloaded');
    expect(read).toHaveBeenCalledTimes(2);
    expect(held.events).toEqual((await store.getSession(key))?.events);
    expect(held.events).toHaveLength(3);
  });

  it('loads a windowed copy whole instead of extending it', async () => {
    const { store, writer } = await twoCopies();
    await store.appendEvent({ session: writer, event: say('two', 2) });
    const windowed = (await store.getSession({ ...key, numRecentEvents: 1 })) as Session;
    await store.appendEvent({ session: writer, event: say('three', 3) });
    expect(await catchUp(store, windowed)).toBe('reloaded');
    expect(windowed.events).toEqual(writer.events);
  });
});
