import { mergeScopedState, splitStateDelta, type StateRecord } from '../state/state-delta.js';
import { APP_PREFIX, USER_PREFIX } from '../state/state-keys.js';
import { copyValue, setOwn } from '../util/copy-value.js';
import { applyStateOp } from '../state/apply-state-op.js';
import { toStoredJson } from '../util/json-value.js';
import type { Event } from '../../contracts/event.js';
import type { ModelCallOutcome, ModelCallRecord, ModelCallSummary, NewModelCall } from '../../contracts/model-call.js';
import { completionOf, InMemoryCalls } from './in-memory-calls.js';
import type { Session, SessionKey } from '../../contracts/session.js';
import type {
  AppendEventInput,
  CreateSessionInput,
  GetSessionInput,
  ListSessionsInput,
  SessionStoreWithCallLog,
  StoreClock,
} from '../../contracts/session-store.js';
import {
  afterRevisionOf,
  applyToSession,
  checkCreateInput,
  checkSessionKey,
  eventExists,
  loadedVersion,
  prepareStoredEvent,
  sessionExists,
  sessionNotFound,
  sharedKeysOf,
  sortAppNames,
  sortSessionsForList,
  staleSession,
  staleSharedState,
  windowEvents,
} from './store-rules.js';

type StoredSession = {
  calls: InMemoryCalls;
  appName: string;
  userId: string;
  id: string;
  state: StateRecord;
  events: Event[];
  eventIds: Set<string>;
  lastUpdateTime: number;
  revision: number;
};

/**
 * Sessions and their model calls held in this process's memory: the reference implementation of both contracts, for
 * tests, demos and single-process tools. Values are stored as their JSON round trip, exactly as a database store
 * keeps them.
 */
export function createInMemorySessionStore(options: StoreClock = {}): SessionStoreWithCallLog {
  const now = options.now ?? (() => Date.now() / 1000);
  const newId = options.newId ?? (() => crypto.randomUUID());
  const sessions = new Map<string, StoredSession>();
  const appState = new Map<string, StateRecord>();
  const userState = new Map<string, StateRecord>();
  // Version of every stored shared key, by [appName, userId or null, prefixed key]: bumped on every write.
  const sharedVersions = new Map<string, number>();

  const sessionMapKey = (key: SessionKey) => JSON.stringify([key.appName, key.userId, key.sessionId]);
  const userMapKey = (appName: string, userId: string) => JSON.stringify([appName, userId]);
  const bucket = (map: Map<string, StateRecord>, key: string): StateRecord => {
    let record = map.get(key);
    if (record === undefined) map.set(key, (record = {}));
    return record;
  };
  const versionKey = (appName: string, userId: string, key: string) =>
    JSON.stringify([appName, key.startsWith(APP_PREFIX) ? null : userId, key]);
  const versionOf = (appName: string, userId: string, key: string): number =>
    sharedVersions.get(versionKey(appName, userId, key)) ?? 0;
  const versionsSeen = (stored: StoredSession): Record<string, number> => {
    const seen: Record<string, number> = {};
    for (const key of Object.keys(appState.get(stored.appName) ?? {}))
      seen[APP_PREFIX + key] = versionOf(stored.appName, stored.userId, APP_PREFIX + key);
    for (const key of Object.keys(userState.get(userMapKey(stored.appName, stored.userId)) ?? {})) {
      seen[USER_PREFIX + key] = versionOf(stored.appName, stored.userId, USER_PREFIX + key);
    }
    return seen;
  };
  /** The values an event's operations leave, by prefixed key, from what is stored with its delta applied. */
  const operate = (stored: StoredSession, event: Event): { values: StateRecord; counts: Record<string, number> } => {
    const values: StateRecord = {};
    const counts: Record<string, number> = {};
    const delta = event.actions.stateDelta;
    for (const op of event.actions.stateOps ?? []) {
      const key = op.key;
      const current = Object.hasOwn(values, key)
        ? values[key]
        : Object.hasOwn(delta, key)
          ? delta[key]
          : storedValue(stored, key);
      setOwn(values, key, applyStateOp(current, op));
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return { values, counts };
  };
  const storedValue = (stored: StoredSession, key: string): unknown => {
    const [record, name] = key.startsWith(APP_PREFIX)
      ? [appState.get(stored.appName), key.slice(APP_PREFIX.length)]
      : key.startsWith(USER_PREFIX)
        ? [userState.get(userMapKey(stored.appName, stored.userId)), key.slice(USER_PREFIX.length)]
        : [stored.state, key];
    // Not copied: operations make new values, never change the one they start from.
    return record !== undefined && Object.hasOwn(record, name) ? record[name] : undefined;
  };
  const view = (stored: StoredSession, events: Event[]): Session => ({
    appName: stored.appName,
    userId: stored.userId,
    id: stored.id,
    state: copyValue(
      mergeScopedState({
        session: stored.state,
        app: appState.get(stored.appName),
        user: userState.get(userMapKey(stored.appName, stored.userId)),
      }),
    ),
    events,
    lastUpdateTime: stored.lastUpdateTime,
    revision: stored.revision,
    sharedStateVersions: versionsSeen(stored),
  });
  /**
   * Writes the delta's keys to their scopes; returns the new versions of the shared keys it wrote, each bumped once
   * or by its count in `writes` (one per operation, as the SQL stores do).
   */
  const applyShared = (
    appName: string,
    userId: string,
    delta: StateRecord,
    sessionState: StateRecord,
    writes: Readonly<Record<string, number>> = {},
  ): Record<string, number> => {
    const written: Record<string, number> = {};
    for (const key of sharedKeysOf(delta)) {
      written[key] = versionOf(appName, userId, key) + (writes[key] ?? 1);
      sharedVersions.set(versionKey(appName, userId, key), written[key]);
    }
    const split = splitStateDelta(delta);
    Object.assign(bucket(appState, appName), split.app);
    Object.assign(bucket(userState, userMapKey(appName, userId)), split.user);
    Object.assign(sessionState, split.session);
    return written;
  };

  /** Appends to a stored session, as `appendEvent` does: checked whole first, so a refusal writes nothing. */
  const append = (
    stored: StoredSession,
    session: Session,
    event: Event,
    completeModelCall?: AppendEventInput['completeModelCall'],
  ): Event => {
    if (session.revision !== stored.revision) throw staleSession(session.id, session.revision, stored.revision);
    if (stored.eventIds.has(event.id)) {
      throw eventExists(event.id, session.id);
    }
    const persisted = prepareStoredEvent(event);
    // Checked before anything changes, so a refused completion leaves the event unwritten too.
    const complete =
      completeModelCall === undefined ? undefined : completionOf(stored.calls, session.id, completeModelCall);
    // Optimistic concurrency on shared keys: each must still be at the version this copy saw.
    for (const key of sharedKeysOf(persisted.actions.stateDelta)) {
      const current = versionOf(stored.appName, stored.userId, key);
      if (current !== loadedVersion(session, key))
        throw staleSharedState(session.id, key, loadedVersion(session, key), current);
    }
    // Operations apply to the values stored now (after this delta), never to the copy's: computed before anything
    // changes, so one that cannot apply leaves the append unwritten.
    const operated = operate(stored, persisted);
    const written = applyShared(stored.appName, stored.userId, persisted.actions.stateDelta, stored.state);
    Object.assign(written, applyShared(stored.appName, stored.userId, operated.values, stored.state, operated.counts));
    stored.events.push(persisted);
    stored.eventIds.add(persisted.id);
    stored.revision += 1;
    stored.lastUpdateTime = persisted.timestamp;
    complete?.();
    applyToSession(session, event, persisted, stored.revision, written, operated.values);
    return persisted;
  };

  /** A copy of the shared state of an app and one of its users, with every version: what `restoreShared` puts back. */
  const sharedSnapshot = (appName: string, userId: string) => ({
    app: appState.has(appName) ? copyValue(appState.get(appName)) : undefined,
    user: userState.has(userMapKey(appName, userId))
      ? copyValue(userState.get(userMapKey(appName, userId)))
      : undefined,
    versions: new Map(sharedVersions),
  });
  const restoreShared = (appName: string, userId: string, snapshot: ReturnType<typeof sharedSnapshot>): void => {
    if (snapshot.app === undefined) appState.delete(appName);
    else appState.set(appName, snapshot.app);
    if (snapshot.user === undefined) userState.delete(userMapKey(appName, userId));
    else userState.set(userMapKey(appName, userId), snapshot.user);
    sharedVersions.clear();
    for (const [key, version] of snapshot.versions) sharedVersions.set(key, version);
  };

  return {
    name: 'memory',

    async createSession(input: CreateSessionInput): Promise<Session> {
      const state = input.state ?? {};
      checkCreateInput(input, state);
      const sessionId = input.sessionId?.trim() || newId();
      const key = { appName: input.appName, userId: input.userId, sessionId };
      if (sessions.has(sessionMapKey(key))) {
        throw sessionExists(sessionId);
      }
      const stored: StoredSession = {
        calls: new InMemoryCalls(),
        appName: input.appName,
        userId: input.userId,
        id: sessionId,
        state: {},
        events: [],
        eventIds: new Set(),
        lastUpdateTime: now(),
        revision: 0,
      };
      const events = input.events ?? [];
      // Everything below is synchronous, so nothing else runs in between; a failure puts back what was there.
      const before = events.length === 0 ? undefined : sharedSnapshot(input.appName, input.userId);
      try {
        applyShared(input.appName, input.userId, toStoredJson(state), stored.state);
        sessions.set(sessionMapKey(key), stored);
        const session = view(stored, []);
        for (const event of events) append(stored, session, event);
        return events.length === 0 ? session : view(stored, [...stored.events]);
      } catch (error) {
        sessions.delete(sessionMapKey(key));
        if (before !== undefined) restoreShared(input.appName, input.userId, before);
        throw error;
      }
    },

    async getSession(input: GetSessionInput): Promise<Session | undefined> {
      checkSessionKey(input);
      const after = afterRevisionOf(input);
      const stored = sessions.get(sessionMapKey(input));
      if (stored === undefined) return undefined;
      // The n-th append made revision n and is events[n - 1].
      return view(stored, windowEvents(after === undefined ? stored.events : stored.events.slice(after), input));
    },

    async listApps(): Promise<string[]> {
      return sortAppNames([...new Set([...sessions.values()].map((stored) => stored.appName))]);
    },

    async listSessions(input: ListSessionsInput): Promise<Session[]> {
      checkSessionKey(input, input.userId === undefined ? ['appName'] : ['appName', 'userId']);
      const found: Session[] = [];
      for (const stored of sessions.values()) {
        if (stored.appName !== input.appName) continue;
        if (input.userId !== undefined && stored.userId !== input.userId) continue;
        found.push(view(stored, []));
      }
      return sortSessionsForList(found);
    },

    async appendEvent(input: AppendEventInput): Promise<Event> {
      const { session, event } = input;
      if (event.partial === true) return event;
      checkSessionKey({ appName: session.appName, userId: session.userId, sessionId: session.id });
      const stored = sessions.get(
        sessionMapKey({ appName: session.appName, userId: session.userId, sessionId: session.id }),
      );
      if (stored === undefined) throw sessionNotFound(session.id);
      return append(stored, session, event, input.completeModelCall);
    },

    async deleteSession(input: SessionKey): Promise<void> {
      checkSessionKey(input);
      sessions.delete(sessionMapKey(input));
    },

    async rewriteText(input) {
      checkSessionKey(input);
      const stored = sessions.get(sessionMapKey(input));
      if (stored === undefined) return { events: 0, calls: 0 };
      let events = 0;
      stored.events = stored.events.map((event) => {
        const text = JSON.stringify(event);
        const rewritten = input.replace(text);
        if (rewritten === text) return event;
        events++;
        return prepareStoredEvent(JSON.parse(rewritten) as Event);
      });
      const calls = stored.calls.rewrite(input.replace);
      if (events > 0 || calls > 0) stored.lastUpdateTime = now();
      return { events, calls };
    },

    async recordModelCall(input: SessionKey & { call: NewModelCall }): Promise<number> {
      checkSessionKey(input);
      const stored = sessions.get(sessionMapKey(input));
      if (stored === undefined) throw sessionNotFound(input.sessionId);
      return stored.calls.record(input.call);
    },

    async completeModelCall(input: SessionKey & { index: number; outcome: ModelCallOutcome }): Promise<void> {
      checkSessionKey(input);
      completionOf(sessions.get(sessionMapKey(input))?.calls, input.sessionId, input)();
    },

    async listModelCalls(input: SessionKey): Promise<ModelCallSummary[]> {
      checkSessionKey(input);
      return sessions.get(sessionMapKey(input))?.calls.list() ?? [];
    },

    async getModelCall(input: SessionKey & { index: number }): Promise<ModelCallRecord | undefined> {
      checkSessionKey(input);
      return sessions.get(sessionMapKey(input))?.calls.get(input.index);
    },

    async deleteModelCalls(input: SessionKey): Promise<void> {
      checkSessionKey(input);
      const stored = sessions.get(sessionMapKey(input));
      if (stored !== undefined) stored.calls = new InMemoryCalls();
    },

    async close(): Promise<void> {},
  };
}
