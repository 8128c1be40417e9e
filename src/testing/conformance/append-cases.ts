import { expect, it } from 'vitest';
import type { Event, EventInput } from '../../contracts/event.js';
import type { SessionStore } from '../../contracts/session-store.js';
import type { Session } from '../../contracts/session.js';

type Setup = () => Promise<{ store: SessionStore; event: (input?: Partial<EventInput>) => Event; app: string }>;
/** Asserts that a promise rejects with an `AgentctxError` of this code (and message, when given). */
type ExpectCode = (promise: Promise<unknown>, code: string, message?: string) => Promise<void>;

/**
 * Appending events, part of the session store contract: the caller's copy kept up to date, every field given back
 * exactly, the last N events and those after a revision, stale copies and unknown sessions refused with ADK's
 * messages, nothing partial or unstorable written, and copies handed out both ways.
 */
export function appendCases(setup: Setup, expectCode: ExpectCode): void {
  it('updates the caller’s session in place after an append', async () => {
    const { store, app, event } = await setup();
    const session = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1' });
    const input = event({ content: { role: 'user', parts: [{ text: 'hi' }] }, actions: { stateDelta: { a: 1 } } });
    const stored = await store.appendEvent({ session, event: input });
    expect(session.events).toEqual([stored]);
    expect(session.revision).toBe(1);
    expect(session.lastUpdateTime).toBe(input.timestamp);
    expect(session.state).toEqual({ a: 1 });
    expect(stored).toEqual(input);
  });

  it('round-trips every field of an event exactly', async () => {
    const { store, app, event } = await setup();
    const session = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1' });
    const input = event({
      author: 'agent_a',
      branch: 'root.agent_a',
      timestamp: 1_700_000_100.123456,
      content: {
        role: 'model',
        parts: [
          { text: 'thinking', thought: true, thoughtSignature: 'c2ln' },
          { functionCall: { id: 'call-1', name: 'lookup', args: { q: 'x', n: [1, 2, { deep: null }] } } },
          { functionResponse: { id: 'call-1', name: 'lookup', response: { result: 'héllo こんにちは' } } },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0K', displayName: 'pic' } },
          { fileData: { fileUri: 'gs://bucket/file.pdf', mimeType: 'application/pdf' } },
        ],
      },
      actions: {
        stateDelta: { nested: { list: [1, 'two', false] } },
        artifactDelta: { 'notes.txt': 2 },
        transferToAgent: 'agent_b',
        escalate: true,
        skipSummarization: true,
        compaction: {
          startTimestamp: 1,
          endTimestamp: 2,
          compactedContent: { role: 'model', parts: [{ text: 'summary' }] },
        },
      },
      usage: { promptTokens: 10, outputTokens: 5, cachedTokens: 2, totalTokens: 15 },
      errorCode: 'E',
      errorMessage: 'boom',
    });
    await store.appendEvent({ session, event: input });
    const reloaded = await store.getSession({ appName: app, userId: 'u1', sessionId: 's1' });
    expect(reloaded?.events).toEqual([input]);
  });

  it('returns the last N events, none for 0, and events at or after a timestamp', async () => {
    const { store, app, event } = await setup();
    const session = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1' });
    const appended: Event[] = [];
    for (let i = 0; i < 5; i++)
      appended.push(await store.appendEvent({ session, event: event({ timestamp: 100 + i }) }));
    const key = { appName: app, userId: 'u1', sessionId: 's1' };
    expect((await store.getSession({ ...key, numRecentEvents: 2 }))?.events).toEqual(appended.slice(3));
    expect((await store.getSession({ ...key, numRecentEvents: 0 }))?.events).toEqual([]);
    expect((await store.getSession({ ...key, afterTimestamp: 102 }))?.events).toEqual(appended.slice(2));
    const windowed = await store.getSession({ ...key, numRecentEvents: 1 });
    expect(windowed?.revision).toBe(5);
    await store.appendEvent({ session: windowed as Session, event: event({ timestamp: 200 }) });
    expect((await store.getSession(key))?.events).toHaveLength(6);
  });

  it('returns the events after a revision with the current head, in one snapshot, and refuses a bad revision', async () => {
    const { store, app, event } = await setup();
    const session = await store.createSession({
      appName: app,
      userId: 'u1',
      sessionId: 's1',
      state: { 'user:n': 1, own: 'a' },
    });
    const appended: Event[] = [];
    for (let i = 0; i < 4; i++)
      appended.push(
        await store.appendEvent({
          session,
          event: event({ timestamp: 100 + i, actions: { stateDelta: { own: `v${i}` } } }),
        }),
      );
    const key = { appName: app, userId: 'u1', sessionId: 's1' };
    const after = await store.getSession({ ...key, afterRevision: 2 });
    expect(after?.events).toEqual(appended.slice(2));
    expect(after?.revision).toBe(4);
    expect(after?.state).toEqual({ 'user:n': 1, own: 'v3' });
    expect(after?.sharedStateVersions).toEqual((await store.getSession(key))?.sharedStateVersions);
    expect((await store.getSession({ ...key, afterRevision: 0 }))?.events).toEqual(appended);
    expect((await store.getSession({ ...key, afterRevision: 4 }))?.events).toEqual([]);
    expect((await store.getSession({ ...key, afterRevision: 9 }))?.events).toEqual([]);
    // Applied before the other windows.
    expect((await store.getSession({ ...key, afterRevision: 1, numRecentEvents: 2 }))?.events).toEqual(
      appended.slice(2),
    );
    expect((await store.getSession({ ...key, afterRevision: 3, numRecentEvents: 2 }))?.events).toEqual(
      appended.slice(3),
    );
    expect((await store.getSession({ ...key, afterRevision: 1, afterTimestamp: 103 }))?.events).toEqual(
      appended.slice(3),
    );
    for (const bad of [-1, 1.5, Number.NaN, '2' as unknown as number]) {
      await expect(store.getSession({ ...key, afterRevision: bad })).rejects.toMatchObject({ code: 'invalid_input' });
    }
    expect(await store.getSession({ ...key, sessionId: 'missing', afterRevision: 1 })).toBeUndefined();
  });

  it('refuses an append from a stale copy with ADK message, and accepts it after a reload', async () => {
    const { store, app, event } = await setup();
    await store.createSession({ appName: app, userId: 'u1', sessionId: 's1' });
    const key = { appName: app, userId: 'u1', sessionId: 's1' };
    const first = (await store.getSession(key)) as Session;
    const second = (await store.getSession(key)) as Session;
    await store.appendEvent({ session: first, event: event() });
    await expectCode(
      store.appendEvent({ session: second, event: event({ actions: { stateDelta: { lost: true } } }) }),
      'stale_session',
      'The session has been modified in storage since it was loaded. Please reload the session before appending more events.',
    );
    const reloaded = (await store.getSession(key)) as Session;
    expect(reloaded.events).toHaveLength(1);
    expect(reloaded.state).toEqual({});
    await store.appendEvent({ session: reloaded, event: event() });
    expect(reloaded.revision).toBe(2);
  });

  it('refuses an append to a session that does not exist', async () => {
    const { store, app, event } = await setup();
    const ghost: Session = {
      appName: app,
      userId: 'u1',
      id: 'ghost',
      state: {},
      events: [],
      lastUpdateTime: 0,
      revision: 0,
    };
    await expectCode(store.appendEvent({ session: ghost, event: event() }), 'not_found', 'Session ghost not found.');
  });

  it('refuses an event id that is already stored', async () => {
    const { store, app, event } = await setup();
    const session = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1' });
    const first = event();
    await store.appendEvent({ session, event: first });
    await expectCode(store.appendEvent({ session, event: { ...first } }), 'already_exists');
    expect(session.revision).toBe(1);
  });

  it('refuses values that cannot be stored as JSON and writes nothing', async () => {
    const { store, app, event } = await setup();
    const session = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1' });
    await expectCode(
      store.appendEvent({ session, event: event({ actions: { stateDelta: { ok: 1, 'app:bad': () => 1 } } }) }),
      'invalid_input',
    );
    await expectCode(
      store.appendEvent({ session, event: event({ actions: { stateDelta: { n: Number.NaN } } }) }),
      'invalid_input',
    );
    const reloaded = await store.getSession({ appName: app, userId: 'u1', sessionId: 's1' });
    expect(reloaded).toMatchObject({ events: [], revision: 0, state: {} });
    expect(session).toMatchObject({ events: [], revision: 0, state: {} });
  });

  it('does not store partial events', async () => {
    const { store, app, event } = await setup();
    const session = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1' });
    await store.appendEvent({ session, event: event({ partial: true }) });
    expect((await store.getSession({ appName: app, userId: 'u1', sessionId: 's1' }))?.events).toEqual([]);
  });

  it('hands out copies: changing what it returned or what it was given never changes storage', async () => {
    const { store, app, event } = await setup();
    const session = await store.createSession({
      appName: app,
      userId: 'u1',
      sessionId: 's1',
      state: { obj: { n: 1 } },
    });
    session.state['obj'] = 'changed';
    const input = event({ actions: { stateDelta: { 'user:list': [1, 2] } } });
    await store.appendEvent({ session, event: input });
    (input.actions.stateDelta['user:list'] as number[]).push(3);
    (session.state['user:list'] as number[]).push(4);
    const reloaded = (await store.getSession({ appName: app, userId: 'u1', sessionId: 's1' })) as Session;
    expect(reloaded.state).toEqual({ obj: { n: 1 }, 'user:list': [1, 2] });
    expect(reloaded.events[0]?.actions.stateDelta).toEqual({ 'user:list': [1, 2] });
    (reloaded.state['obj'] as { n: number }).n = 99;
    expect((await store.getSession({ appName: app, userId: 'u1', sessionId: 's1' }))?.state['obj']).toEqual({ n: 1 });
  });
}
