import { expect, it } from 'vitest';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { Event, EventInput } from '../../contracts/event.js';
import type { SessionStore } from '../../contracts/session-store.js';
import type { Session } from '../../contracts/session.js';

type Setup = () => Promise<{ store: SessionStore; event: (input?: Partial<EventInput>) => Event; app: string }>;

/**
 * Optimistic concurrency on shared state, part of the session store contract: an append that writes an `app:` or
 * `user:` key succeeds only if the key's stored version is still the one its session copy saw.
 */
export function sharedStateCases(setup: Setup): void {
  const increment = (session: Session, key: string): Partial<EventInput> => ({
    actions: { stateDelta: { [key]: ((session.state[key] as number | undefined) ?? 0) + 1 } },
  });

  it('lets one of two sessions of a user win a read-modify-write of a user: key; the loser wins after a reload', async () => {
    const { store, app, event } = await setup();
    await store.createSession({ appName: app, userId: 'u1', sessionId: 'a', state: { 'user:count': 1 } });
    await store.createSession({ appName: app, userId: 'u1', sessionId: 'b' });
    const a = (await store.getSession({ appName: app, userId: 'u1', sessionId: 'a' })) as Session;
    const b = (await store.getSession({ appName: app, userId: 'u1', sessionId: 'b' })) as Session;
    expect([a.state['user:count'], b.state['user:count']]).toEqual([1, 1]);

    await store.appendEvent({ session: a, event: event(increment(a, 'user:count')) });
    const error = await store
      .appendEvent({
        session: b,
        event: event({ ...increment(b, 'user:count'), actions: { stateDelta: { 'user:count': 2, own: 'lost' } } }),
      })
      .catch((caught: unknown) => caught);
    expect(AgentctxError.isInstance(error), 'a ConflictError').toBe(true);
    expect(error).toMatchObject({ name: 'ConflictError', code: 'stale_shared_state', key: 'user:count' });
    // Nothing of the refused append was written, and the copy is as it was.
    expect([b.revision, b.events, b.state['own']]).toEqual([0, [], undefined]);
    const reloaded = (await store.getSession({ appName: app, userId: 'u1', sessionId: 'b' })) as Session;
    expect([reloaded.revision, reloaded.events, reloaded.state]).toEqual([0, [], { 'user:count': 2 }]);

    await store.appendEvent({ session: reloaded, event: event(increment(reloaded, 'user:count')) });
    expect(reloaded.state['user:count']).toBe(3);
    // The winner's copy is now behind on the key, though its own session has not changed.
    await expect(store.appendEvent({ session: a, event: event(increment(a, 'user:count')) })).rejects.toMatchObject({
      code: 'stale_shared_state',
    });
    // After an append, the copy knows the version it wrote: it can write the key again without reloading.
    await store.appendEvent({ session: reloaded, event: event(increment(reloaded, 'user:count')) });
    expect(
      (await store.getSession({ appName: app, userId: 'u1', sessionId: 'a', numRecentEvents: 0 }))?.state['user:count'],
    ).toBe(4);
  });

  it('treats a shared key the copy saw absent as version 0: two first writers of it, one wins', async () => {
    const { store, app, event } = await setup();
    const a = await store.createSession({ appName: app, userId: 'u1', sessionId: 'a' });
    const b = await store.createSession({ appName: app, userId: 'u2', sessionId: 'b' });
    await store.appendEvent({ session: a, event: event({ actions: { stateDelta: { 'app:first': 'a' } } }) });
    await expect(
      store.appendEvent({ session: b, event: event({ actions: { stateDelta: { 'app:first': 'b' } } }) }),
    ).rejects.toMatchObject({
      code: 'stale_shared_state',
      key: 'app:first',
    });
    expect((await store.createSession({ appName: app, userId: 'u3' })).state).toEqual({ 'app:first': 'a' });
  });

  it('never lets writers of different shared keys, or of session keys, conflict', async () => {
    const { store, app, event } = await setup();
    const a = await store.createSession({
      appName: app,
      userId: 'u1',
      sessionId: 'a',
      state: { 'user:x': 0, 'app:y': 0 },
    });
    const b = await store.createSession({ appName: app, userId: 'u1', sessionId: 'b' });
    for (let i = 1; i <= 3; i++) {
      await store.appendEvent({ session: a, event: event({ actions: { stateDelta: { 'user:a': i, mine: i } } }) });
      await store.appendEvent({
        session: b,
        event: event({ actions: { stateDelta: { 'user:b': i, 'app:b': i, mine: i } } }),
      });
    }
    // Keys the copy read but does not write are not checked.
    await store.appendEvent({
      session: b,
      event: event({ actions: { stateDelta: { 'user:x2': b.state['user:x'] } } }),
    });
    const fresh = await store.createSession({ appName: app, userId: 'u1', sessionId: 'c' });
    expect(fresh.state).toEqual({ 'user:x': 0, 'app:y': 0, 'user:a': 3, 'user:b': 3, 'app:b': 3, 'user:x2': 0 });
  });

  it('hands out the versions it checks on every loaded copy, as the store’s own bookkeeping', async () => {
    const { store, app, event } = await setup();
    const a = await store.createSession({ appName: app, userId: 'u1', sessionId: 'a', state: { 'user:k': 1, own: 1 } });
    expect(a.sharedStateVersions).toEqual({ 'user:k': 1 });
    await store.appendEvent({
      session: a,
      event: event({ actions: { stateDelta: { 'user:k': 2, 'app:n': 1, own: 2 } } }),
    });
    expect(a.sharedStateVersions).toEqual({ 'user:k': 2, 'app:n': 1 });
    const key = { appName: app, userId: 'u1', sessionId: 'a' };
    expect((await store.getSession(key))?.sharedStateVersions).toEqual({ 'user:k': 2, 'app:n': 1 });
    expect((await store.listSessions({ appName: app })).map((session) => session.sharedStateVersions)).toEqual([
      { 'user:k': 2, 'app:n': 1 },
    ]);
    // A copy made with a spread carries them: it appends as the original would.
    const copy = { ...((await store.getSession(key)) as Session) };
    await store.appendEvent({ session: copy, event: event({ actions: { stateDelta: { 'user:k': 3 } } }) });
    expect(copy.state['user:k']).toBe(3);
  });

  it('keeps the session revision check for a stale copy that writes only shared keys', async () => {
    const { store, app, event } = await setup();
    await store.createSession({ appName: app, userId: 'u1', sessionId: 'a' });
    const key = { appName: app, userId: 'u1', sessionId: 'a' };
    const first = (await store.getSession(key)) as Session;
    const second = (await store.getSession(key)) as Session;
    await store.appendEvent({ session: first, event: event({ actions: { stateDelta: { 'user:one': 1 } } }) });
    await expect(
      store.appendEvent({ session: second, event: event({ actions: { stateDelta: { 'user:two': 2 } } }) }),
    ).rejects.toMatchObject({
      code: 'stale_session',
    });
    expect((await store.getSession(key))?.state).toEqual({ 'user:one': 1 });
  });
}
