import { describe, expect, it } from 'vitest';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { Event, EventInput } from '../../contracts/event.js';
import type { SessionStore } from '../../contracts/session-store.js';
import { createEvent } from '../../engine/session/create-event.js';
import { appendCases } from './append-cases.js';
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

    appendCases(setup, expectCode);

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
