import { describe, expect, it } from 'vitest';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { Event, EventInput } from '../../contracts/event.js';
import type { SessionStore } from '../../contracts/session-store.js';
import type { Session } from '../../contracts/session.js';
import { createEvent } from '../../engine/session/create-event.js';
import { sharedStateCases } from './shared-state-cases.js';
import { stateOpCases } from './state-op-cases.js';
import type { TwinStore } from './twin-store.js';

export type SessionStoreSuiteOptions = {
  /** Shown in the test names. */
  name: string;
  /** A new, empty, isolated store whose clock and ids come from `clock`. */
  create: (clock: { now: () => number; newId: () => string }) => SessionStore | Promise<SessionStore>;
  /**
   * Another store over the same storage as a store `create` made, as a second process would open it. Cases about two
   * stores sharing a database run only when it is given.
   */
  twin?: TwinStore | undefined;
};

/**
 * The behaviour every `SessionStore` must have; run it against your implementation with vitest. A store that also
 * keeps model calls runs `testModelCallLog` too.
 */
export function testSessionStore(options: SessionStoreSuiteOptions): void {
  describe(`SessionStore contract: ${options.name}`, () => {
    const setup = async () => {
      let time = 1_700_000_000;
      let counter = 0;
      const store = await options.create({ now: () => (time += 1), newId: () => `id-${++counter}` });
      const event = (input: Partial<EventInput> = {}): Event =>
        createEvent(
          { author: 'user', invocationId: 'inv-1', ...input },
          { now: () => (time += 1), newId: () => `ev-${++counter}` },
        );
      const app = 'contract_app';
      return { store, event, app };
    };
    const expectCode = async (promise: Promise<unknown>, code: string, message?: string) => {
      const error = await promise.then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(AgentctxError.isInstance(error), `expected an AgentctxError with code ${code}`).toBe(true);
      expect((error as AgentctxError).code).toBe(code);
      if (message !== undefined) expect((error as AgentctxError).message).toBe(message);
    };

    it('creates a session with no events at revision 0', async () => {
      const { store, app } = await setup();
      const session = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1', state: { k: 'v' } });
      expect(session).toMatchObject({
        appName: app,
        userId: 'u1',
        id: 's1',
        state: { k: 'v' },
        events: [],
        revision: 0,
      });
      expect(session.lastUpdateTime).toBeGreaterThan(0);
      expect(await store.getSession({ appName: app, userId: 'u1', sessionId: 's1' })).toEqual(session);
    });

    it('generates an id when none or a blank one is given, and trims a given id', async () => {
      const { store, app } = await setup();
      const generated = await store.createSession({ appName: app, userId: 'u1' });
      const blank = await store.createSession({ appName: app, userId: 'u1', sessionId: '   ' });
      const trimmed = await store.createSession({ appName: app, userId: 'u1', sessionId: '  s2 ' });
      expect(generated.id).not.toBe('');
      expect(blank.id).not.toBe(generated.id);
      expect(trimmed.id).toBe('s2');
    });

    it('refuses an id that is taken, with ADK message', async () => {
      const { store, app } = await setup();
      await store.createSession({ appName: app, userId: 'u1', sessionId: 'existing_session' });
      await expectCode(
        store.createSession({ appName: app, userId: 'u1', sessionId: 'existing_session' }),
        'already_exists',
        'Session with id existing_session already exists.',
      );
    });

    it('creates a session with the events it starts with, in order, their state applied', async () => {
      const { store, event, app } = await setup();
      const events = [
        event({ actions: { stateDelta: { 'user:str': 's', topic: 'a' } } }),
        event({
          author: 'agent',
          actions: { stateDelta: { topic: 'b' }, stateOps: [{ op: 'add', key: 'user:n', by: 2 }] },
        }),
      ];
      const session = await store.createSession({
        appName: app,
        userId: 'u1',
        sessionId: 'imported',
        state: { k: 'v' },
        events,
      });
      expect(session).toMatchObject({ revision: 2, state: { k: 'v', topic: 'b', 'user:str': 's', 'user:n': 2 } });
      expect(session.events.map((each) => each.id)).toEqual(events.map((each) => each.id));
      const loaded = await store.getSession({ appName: app, userId: 'u1', sessionId: 'imported' });
      expect(loaded).toMatchObject({ revision: 2, state: { k: 'v', topic: 'b', 'user:str': 's', 'user:n': 2 } });
      expect(loaded?.events.map((each) => each.id)).toEqual(events.map((each) => each.id));
      // The copy it returned goes on like any other.
      await store.appendEvent({ session, event: event({ actions: { stateDelta: { topic: 'c' } } }) });
      expect((await store.getSession({ appName: app, userId: 'u1', sessionId: 'imported' }))?.revision).toBe(3);
    });

    it('stores nothing of a session whose events cannot all be stored: no session, no event, no shared state', async () => {
      const { store, event, app } = await setup();
      await store.createSession({ appName: app, userId: 'u1', sessionId: 'before', state: { 'user:kept': 1 } });
      const good = event({ actions: { stateDelta: { 'user:str': 's', 'app:seen': true, own: 1 } } });
      // Valid on its own; it fails only against what is stored: `user:str` holds a string, which cannot be added to.
      const bad = event({ actions: { stateDelta: {}, stateOps: [{ op: 'add', key: 'user:str', by: 1 }] } });
      await expectCode(
        store.createSession({ appName: app, userId: 'u1', sessionId: 'imp5', events: [good, bad] }),
        'invalid_input',
      );
      expect(await store.getSession({ appName: app, userId: 'u1', sessionId: 'imp5' })).toBeUndefined();
      const other = await store.getSession({ appName: app, userId: 'u1', sessionId: 'before' });
      expect(other?.state).toEqual({ 'user:kept': 1 });
      // A reused id among them is refused the same way.
      await expectCode(
        store.createSession({ appName: app, userId: 'u1', sessionId: 'imp6', events: [good, good] }),
        'already_exists',
      );
      expect(await store.getSession({ appName: app, userId: 'u1', sessionId: 'imp6' })).toBeUndefined();
      // Nothing is left in the way of the same import done right.
      const session = await store.createSession({ appName: app, userId: 'u1', sessionId: 'imp5', events: [good] });
      expect(session.state).toMatchObject({ 'user:str': 's', 'app:seen': true, own: 1, 'user:kept': 1 });
    });

    it('returns undefined for a session that does not exist', async () => {
      const { store, app } = await setup();
      expect(await store.getSession({ appName: app, userId: 'u1', sessionId: 'nope' })).toBeUndefined();
    });

    it('shares app: state with every user of the app, through create and append', async () => {
      const { store, app, event } = await setup();
      const s1 = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1', state: { 'app:k1': 'v1' } });
      await store.appendEvent({ session: s1, event: event({ actions: { stateDelta: { 'app:k2': 'v2' } } }) });
      const s2 = await store.createSession({ appName: app, userId: 'u2', sessionId: 's2' });
      expect(s2.state).toEqual({ 'app:k1': 'v1', 'app:k2': 'v2' });
      const other = await store.createSession({ appName: `${app}_other`, userId: 'u1', sessionId: 's3' });
      expect(other.state).toEqual({});
    });

    it("shares user: state with the same user's sessions only", async () => {
      const { store, app, event } = await setup();
      const s1 = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1', state: { 'user:k1': 'v1' } });
      await store.appendEvent({ session: s1, event: event({ actions: { stateDelta: { 'user:k2': 'v2' } } }) });
      const s1b = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1b' });
      const s2 = await store.createSession({ appName: app, userId: 'u2', sessionId: 's2' });
      expect(s1b.state).toEqual({ 'user:k1': 'v1', 'user:k2': 'v2' });
      expect(s2.state).toEqual({});
    });

    it('keeps unprefixed state to its session', async () => {
      const { store, app, event } = await setup();
      const s1 = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1', state: { sk1: 'v1' } });
      await store.appendEvent({ session: s1, event: event({ actions: { stateDelta: { sk2: 'v2' } } }) });
      const s1b = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1b' });
      expect((await store.getSession({ appName: app, userId: 'u1', sessionId: 's1' }))?.state).toEqual({
        sk1: 'v1',
        sk2: 'v2',
      });
      expect(s1b.state).toEqual({});
    });

    it('merges scopes as session keys, then app:<k>, then user:<k>', async () => {
      const { store, app } = await setup();
      const session = await store.createSession({
        appName: app,
        userId: 'u1',
        sessionId: 's1',
        state: { x: 1, 'app:x': 2, 'user:x': 3 },
      });
      expect(session.state).toEqual({ x: 1, 'app:x': 2, 'user:x': 3 });
    });

    it('shows temp: keys to the live session but never stores them', async () => {
      const { store, app, event } = await setup();
      const session = await store.createSession({
        appName: app,
        userId: 'u1',
        sessionId: 's1',
        state: { 'temp:init': 1 },
      });
      expect(session.state).toEqual({});
      const stored = await store.appendEvent({
        session,
        event: event({ actions: { stateDelta: { 'temp:k1': 'v1', sk: 'v2' } } }),
      });
      expect(session.state).toEqual({ 'temp:k1': 'v1', sk: 'v2' });
      expect(stored.actions.stateDelta).toEqual({ sk: 'v2' });
      const reloaded = await store.getSession({ appName: app, userId: 'u1', sessionId: 's1' });
      expect(reloaded?.state).toEqual({ sk: 'v2' });
      expect(reloaded?.events[0]?.actions.stateDelta).toEqual({ sk: 'v2' });
    });

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

    it('lists sessions without events, most recently updated first, per app and optionally per user', async () => {
      const { store, app, event } = await setup();
      const a = await store.createSession({ appName: app, userId: 'u1', sessionId: 'a' });
      await store.createSession({ appName: app, userId: 'u1', sessionId: 'b' });
      await store.createSession({ appName: app, userId: 'u2', sessionId: 'c' });
      await store.createSession({ appName: `${app}_other`, userId: 'u1', sessionId: 'd' });
      await store.appendEvent({ session: a, event: event() });
      const all = await store.listSessions({ appName: app });
      expect(all.map((s) => s.id)).toEqual(['a', 'c', 'b']);
      expect(all.every((s) => s.events.length === 0)).toBe(true);
      expect((await store.listSessions({ appName: app, userId: 'u1' })).map((s) => s.id)).toEqual(['a', 'b']);
    });

    it('deletes a session and its events but keeps shared state', async () => {
      const { store, app, event } = await setup();
      const session = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1' });
      await store.appendEvent({
        session,
        event: event({ actions: { stateDelta: { 'user:k': 1, 'app:k': 2, own: 3 } } }),
      });
      await store.deleteSession({ appName: app, userId: 'u1', sessionId: 's1' });
      await store.deleteSession({ appName: app, userId: 'u1', sessionId: 's1' });
      expect(await store.getSession({ appName: app, userId: 'u1', sessionId: 's1' })).toBeUndefined();
      const again = await store.createSession({ appName: app, userId: 'u1', sessionId: 's1' });
      expect(again.state).toEqual({ 'user:k': 1, 'app:k': 2 });
    });

    it('lists the apps it holds, sorted, when it can list them', async (context) => {
      const { store } = await setup();
      if (store.listApps === undefined) return context.skip();
      expect(await store.listApps()).toEqual([]);
      for (const appName of ['zeta', 'alpha', 'Beta', 'alpha']) await store.createSession({ appName, userId: 'u1' });
      expect(await store.listApps()).toEqual(['Beta', 'alpha', 'zeta']);
      const gone = await store.createSession({ appName: 'gone', userId: 'u1', sessionId: 'only' });
      await store.deleteSession({ appName: gone.appName, userId: 'u1', sessionId: 'only' });
      expect(await store.listApps()).toEqual(['Beta', 'alpha', 'zeta']);
    });

    sharedStateCases(setup);

    stateOpCases(setup, options.twin);
  });
}
