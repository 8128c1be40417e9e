import { describe, expect, it } from 'vitest';
import { AgentctxError } from '../../src/contracts/errors/agentctx-error.js';
import type { Event } from '../../src/contracts/event.js';
import type { SessionStore } from '../../src/contracts/session-store.js';
import type { Session } from '../../src/contracts/session.js';
import { createEvent } from '../../src/engine/session/create-event.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { mergeScopedState, splitStateDelta } from '../../src/engine/state/state-delta.js';
import { loadVectors, type Vector } from '../support/adk-vectors.js';

const vectors = await loadVectors('session_state');
const APP = 'vector_app';

type Op = ['create', string, string, Record<string, unknown> | null] | ['append', string, Record<string, unknown>];

/** Plays a vector's operations on a store and returns what the vector's expectations can be read from. */
async function play(store: SessionStore, ops: Op[]) {
  const sessions = new Map<string, Session>();
  let lastEvent: Event | undefined;
  for (const op of ops) {
    if (op[0] === 'create') {
      const [, userId, sessionId, state] = op;
      sessions.set(
        sessionId,
        await store.createSession({ appName: APP, userId, sessionId, state: state ?? undefined }),
      );
    } else {
      const [, sessionId, stateDelta] = op;
      const session = sessions.get(sessionId) as Session;
      lastEvent = await store.appendEvent({ session, event: createEvent({ author: 'user', actions: { stateDelta } }) });
    }
  }
  return { sessions, lastEvent };
}

async function reloaded(store: SessionStore, session: Session): Promise<Session | undefined> {
  return store.getSession({ appName: APP, userId: session.userId, sessionId: session.id });
}

async function errorOf(run: () => Promise<unknown>): Promise<AgentctxError> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(AgentctxError.isInstance(error)).toBe(true);
  return error as AgentctxError;
}

const scenarios: Record<string, (vector: Vector) => Promise<void>> = {
  async extract_state_delta(vector) {
    expect(splitStateDelta((vector.input as { state: Record<string, unknown> }).state)).toEqual(vector.expected);
  },
  async merge_order(vector) {
    const input = vector.input as { session_state: object; app_state: object; user_state: object };
    const merged = mergeScopedState({
      session: { ...input.session_state },
      app: { ...input.app_state },
      user: { ...input.user_state },
    });
    expect(merged).toEqual((vector.expected as { state: object }).state);
  },
  async stale_session_error(vector) {
    const store = createInMemorySessionStore();
    await store.createSession({ appName: APP, userId: 'u1', sessionId: 's1' });
    const first = (await store.getSession({ appName: APP, userId: 'u1', sessionId: 's1' })) as Session;
    const second = (await store.getSession({ appName: APP, userId: 'u1', sessionId: 's1' })) as Session;
    await store.appendEvent({ session: first, event: createEvent({ author: 'user' }) });
    const error = await errorOf(() => store.appendEvent({ session: second, event: createEvent({ author: 'user' }) }));
    expect(error.message).toBe((vector.expected as { error: { message: string } }).error.message);
  },
  async already_exists(vector) {
    const store = createInMemorySessionStore();
    await store.createSession({ appName: APP, userId: 'u1', sessionId: 'existing_session' });
    const error = await errorOf(() =>
      store.createSession({ appName: APP, userId: 'u1', sessionId: 'existing_session' }),
    );
    expect(error.message).toBe((vector.expected as { error: { message: string } }).error.message);
  },
};

async function playOps(vector: Vector): Promise<void> {
  const store = createInMemorySessionStore();
  const { sessions, lastEvent } = await play(store, (vector.input as { ops: Op[] }).ops);
  for (const [path, expected] of Object.entries(vector.expected as Record<string, unknown>)) {
    const [subject, ...rest] = path.split('.');
    if (subject === 'in_memory_session') {
      expect([...sessions.values()].at(-1)?.state).toEqual(expected);
    } else if (subject === 'reloaded_session') {
      expect((await reloaded(store, [...sessions.values()].at(-1) as Session))?.state).toEqual(expected);
    } else if (subject === 'event') {
      expect(lastEvent?.actions.stateDelta, rest.join('.')).toEqual(expected);
    } else {
      const session = sessions.get(subject as string) as Session;
      expect((await reloaded(store, session))?.state, path).toEqual(expected);
    }
  }
}

describe('session_state vectors (ADK Python)', () => {
  it('covers all 8 vectors', () => {
    expect(vectors).toHaveLength(8);
  });

  for (const vector of vectors) {
    it(vector.name, async () => {
      await (scenarios[vector.name] ?? playOps)(vector);
    });
  }
});
