import { expect, it } from 'vitest';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { Event, EventInput } from '../../contracts/event.js';
import type { SessionStore } from '../../contracts/session-store.js';
import type { Session } from '../../contracts/session.js';
import type { StateOp } from '../../contracts/state-op.js';
import type { TwinStore } from './twin-store.js';

type Setup = () => Promise<{ store: SessionStore; event: (input?: Partial<EventInput>) => Event; app: string }>;

/**
 * State operations, part of the session store contract: each applies to the value stored when the append lands, in
 * the same transaction, and is never refused as stale, however many sessions (and stores over the same data) change
 * the key at once; a read-modify-write `set` of the key still is.
 */
export function stateOpCases(setup: Setup, twin: TwinStore | undefined): void {
  const ops = (...list: StateOp[]): Partial<EventInput> => ({ actions: { stateDelta: {}, stateOps: list } });
  const load = async (store: SessionStore, app: string, sessionId: string) =>
    (await store.getSession({ appName: app, userId: 'u1', sessionId })) as Session;

  it('applies operations to the stored value, not the copy’s, and gives the copy what storage holds', async () => {
    const { store, app, event } = await setup();
    await store.createSession({
      appName: app,
      userId: 'u1',
      sessionId: 'a',
      state: { 'user:count': 1, 'user:log': ['start'] },
    });
    await store.createSession({ appName: app, userId: 'u1', sessionId: 'b' });
    const a = await load(store, app, 'a');
    const b = await load(store, app, 'b');
    await store.appendEvent({
      session: a,
      event: event(ops({ op: 'add', key: 'user:count', by: 2 }, { op: 'append', key: 'user:log', items: ['a'] })),
    });
    // b's copy still says 1 and ['start']: its operations apply to 3 and ['start', 'a'], and it is not refused.
    const stored = await store.appendEvent({
      session: b,
      event: event(
        ops(
          { op: 'add', key: 'user:count', by: 10 },
          { op: 'append', key: 'user:log', items: ['b'] },
          { op: 'setField', key: 'prefs', field: 'theme', value: 'dark' },
          { op: 'addToSet', key: 'app:tags', items: ['x', 'x'] },
        ),
      ),
    });
    expect(stored.actions.stateOps).toHaveLength(4);
    expect(b.state).toEqual({
      'user:count': 13,
      'user:log': ['start', 'a', 'b'],
      prefs: { theme: 'dark' },
      'app:tags': ['x'],
    });
    const reloaded = await load(store, app, 'b');
    expect(reloaded.state).toEqual(b.state);
    // The copy knows the versions the operations left, so a read-modify-write from it is not stale.
    expect(b.sharedStateVersions).toEqual(reloaded.sharedStateVersions);
    await store.appendEvent({ session: b, event: event({ actions: { stateDelta: { 'user:count': 0 } } }) });
    expect((await load(store, app, 'a')).state['user:count']).toBe(0);
  });

  it('never refuses concurrent operations on one key, from sessions of one user and stores over the same data', async () => {
    const { store, app, event } = await setup();
    const other = twin === undefined ? store : await twin(store);
    const sessions = 6;
    const appends = 10;
    const ids = Array.from({ length: sessions }, (_, index) => `s${index}`);
    for (const id of ids) await store.createSession({ appName: app, userId: 'u1', sessionId: id });
    const failures: unknown[] = [];
    await Promise.all(
      ids.map(async (id, index) => {
        const via = index % 2 === 0 ? store : other;
        const session = await load(via, app, id);
        for (let turn = 0; turn < appends; turn++) {
          const items = [`${id}:${turn}`];
          const input = ops(
            { op: 'add', key: 'user:counter', by: 1 },
            { op: 'append', key: 'user:log', items },
            { op: 'add', key: 'app:total', by: 1 },
            { op: 'add', key: 'mine', by: 1 },
          );
          await via.appendEvent({ session, event: event(input) }).catch((error: unknown) => failures.push(error));
        }
      }),
    );
    expect(failures).toEqual([]);
    const final = await load(store, app, 's0');
    expect(final.state['user:counter']).toBe(sessions * appends);
    expect(final.state['app:total']).toBe(sessions * appends);
    expect(final.state['mine']).toBe(appends);
    const log = final.state['user:log'] as string[];
    expect([...log].sort()).toEqual(
      ids.flatMap((id) => Array.from({ length: appends }, (_, turn) => `${id}:${turn}`)).sort(),
    );
    // Each session's items are in the order it appended them.
    for (const id of ids)
      expect(log.filter((item) => item.startsWith(`${id}:`))).toEqual(
        Array.from({ length: appends }, (_, turn) => `${id}:${turn}`),
      );
  });

  it('still refuses a read-modify-write set from a copy that saw the value before an operation', async () => {
    const { store, app, event } = await setup();
    await store.createSession({ appName: app, userId: 'u1', sessionId: 'a', state: { 'user:count': 1 } });
    await store.createSession({ appName: app, userId: 'u1', sessionId: 'b' });
    const reader = await load(store, app, 'a');
    const adder = await load(store, app, 'b');
    await store.appendEvent({ session: adder, event: event(ops({ op: 'add', key: 'user:count', by: 1 })) });
    const increment = () =>
      event({ actions: { stateDelta: { 'user:count': (reader.state['user:count'] as number) + 1 } } });
    const error = await store.appendEvent({ session: reader, event: increment() }).catch((caught: unknown) => caught);
    expect(AgentctxError.isInstance(error), 'a ConflictError').toBe(true);
    expect(error).toMatchObject({ code: 'stale_shared_state', key: 'user:count' });
    Object.assign(reader, await load(store, app, 'a'));
    await store.appendEvent({ session: reader, event: increment() });
    expect((await load(store, app, 'b')).state['user:count']).toBe(3);
  });

  it('lets a plain set by another writer win by order of commit: operations after it add to it', async () => {
    const { store, app, event } = await setup();
    const other = twin === undefined ? store : await twin(store);
    const ids = ['a', 'b', 'c'];
    for (const id of [...ids, 'setter']) await store.createSession({ appName: app, userId: 'u1', sessionId: id });
    const after: number[] = [];
    const adders = ids.map(async (id) => {
      const session = await load(store, app, id);
      for (let turn = 0; turn < 8; turn++) {
        await store.appendEvent({ session, event: event(ops({ op: 'add', key: 'user:count', by: 1 })) });
        after.push(session.state['user:count'] as number);
      }
    });
    const setter = (async () => {
      // A writer of the plain value reloads and tries again when refused, as the runner does.
      for (let attempt = 0; ; attempt++) {
        const session = await load(other, app, 'setter');
        const error = await other
          .appendEvent({ session, event: event({ actions: { stateDelta: { 'user:count': 1000 } } }) })
          .then(
            () => undefined,
            (caught: unknown) => caught,
          );
        if (error === undefined) return;
        expect(error).toMatchObject({ code: 'stale_shared_state' });
        expect(attempt).toBeLessThan(50);
      }
    })();
    await Promise.all([...adders, setter]);
    // Adds stored before the set returned less than 1000 (24 adds in all), adds after it more.
    const final = (await load(store, app, 'a')).state['user:count'];
    expect(final).toBe(1000 + after.filter((value) => value > 1000).length);
  });

  it('never deadlocks two appends that set and operate on the same shared keys in opposite roles', async () => {
    const { store, app, event } = await setup();
    const other = twin === undefined ? store : await twin(store);
    await store.createSession({ appName: app, userId: 'u1', sessionId: 'a', state: { 'user:x': 0, 'user:y': 0 } });
    await store.createSession({ appName: app, userId: 'u1', sessionId: 'b' });
    for (let round = 0; round < 5; round++) {
      const [a, b] = await Promise.all([load(store, app, 'a'), load(other, app, 'b')]);
      const results = await Promise.allSettled([
        store.appendEvent({
          session: a,
          event: event({
            actions: { stateDelta: { 'user:y': round }, stateOps: [{ op: 'add', key: 'user:x', by: 1 }] },
          }),
        }),
        other.appendEvent({
          session: b,
          event: event({
            actions: { stateDelta: { 'user:x': 100 * round }, stateOps: [{ op: 'add', key: 'user:y', by: 1 }] },
          }),
        }),
      ]);
      // Each is stored, or refused as stale because the other wrote the key it sets first: never a deadlock.
      for (const result of results)
        if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'stale_shared_state' });
      expect(results.some((result) => result.status === 'fulfilled')).toBe(true);
    }
  });

  it('refuses an operation on a value of another type, writing nothing of the append', async () => {
    const { store, app, event } = await setup();
    const session = await store.createSession({
      appName: app,
      userId: 'u1',
      sessionId: 'a',
      state: { 'user:name': 'Ada' },
    });
    const error = await store
      .appendEvent({
        session,
        event: event({
          actions: {
            stateDelta: { own: 1 },
            stateOps: [
              { op: 'add', key: 'count', by: 1 },
              { op: 'add', key: 'user:name', by: 1 },
            ],
          },
        }),
      })
      .catch((caught: unknown) => caught);
    expect(AgentctxError.isInstance(error), 'a ValidationError').toBe(true);
    expect(error).toMatchObject({
      name: 'ValidationError',
      code: 'invalid_input',
      issues: [{ path: 'user:name', message: 'add needs a number (or no value), found a string' }],
    });
    expect([session.revision, session.events, session.state]).toEqual([0, [], { 'user:name': 'Ada' }]);
    const reloaded = await load(store, app, 'a');
    expect([reloaded.revision, reloaded.events, reloaded.state]).toEqual([0, [], { 'user:name': 'Ada' }]);
  });

  it('applies an event’s delta first, then its operations in order; temp: operations are not stored', async () => {
    const { store, app, event } = await setup();
    const session = await store.createSession({ appName: app, userId: 'u1', sessionId: 'a' });
    const stored = await store.appendEvent({
      session,
      event: event({
        actions: {
          stateDelta: { 'user:list': [1], n: 1 },
          stateOps: [
            { op: 'append', key: 'user:list', items: [2] },
            { op: 'add', key: 'temp:t', by: 1 },
            { op: 'add', key: 'n', by: 1 },
            { op: 'addToSet', key: 'user:list', items: [2, 3] },
          ],
        },
      }),
    });
    expect(stored.actions.stateOps?.map((op) => op.key)).toEqual(['user:list', 'n', 'user:list']);
    expect(session.state).toEqual({ 'user:list': [1, 2, 3], n: 2 });
    expect((await load(store, app, 'a')).state).toEqual({ 'user:list': [1, 2, 3], n: 2 });
  });
}
