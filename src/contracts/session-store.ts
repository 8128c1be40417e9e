import type { Event } from './event.js';
import type { ModelCallOutcome } from './model-call.js';
import type { ModelCallLog } from './model-call-log.js';
import type { Session, SessionKey } from './session.js';

export type CreateSessionInput = {
  appName: string;
  userId: string;
  /** Trimmed; blank or absent means a generated id. */
  sessionId?: string | undefined;
  /** Initial state; `app:` and `user:` keys go to their shared scopes, `temp:` keys are dropped. */
  state?: Record<string, unknown> | undefined;
  /**
   * Events the session starts with (an imported history), appended in order as `appendEvent` would, in the same
   * write as the session itself: if any cannot be stored (a state operation that cannot apply, a reused id), nothing
   * is — no session, no event, no shared state.
   */
  events?: readonly Event[] | undefined;
};

export type GetSessionInput = SessionKey & {
  /** Only the last N events (0: none). */
  numRecentEvents?: number | undefined;
  /** Only events with `timestamp >= afterTimestamp`. */
  afterTimestamp?: number | undefined;
  /**
   * Only events stored after this revision: what a copy loaded at `revision` N lacks is `afterRevision: N` (the
   * n-th append made revision n). Applied before the other windows. A whole number; a store that keeps no such
   * order may return more, so a caller must check the count (`revision - afterRevision`).
   */
  afterRevision?: number | undefined;
};

export type ListSessionsInput = {
  appName: string;
  /** All users of the app when absent. */
  userId?: string | undefined;
};

export type AppendEventInput = {
  /** The session as loaded by the caller; updated in place on success. */
  session: Session;
  event: Event;
  /**
   * A recorded call of this session that the event answers, completed in the same write (see
   * `ModelCallLog.completeModelCall`): the answer and the call's record are stored together or not at all, in one
   * write instead of two. The runner gives it only to a store that is also the log the call was recorded in (a
   * `SessionStoreWithCallLog` used as both); a store that keeps no calls is never given it.
   */
  completeModelCall?: { index: number; outcome: ModelCallOutcome };
};

/**
 * Where sessions live. Every implementation must pass the shared contract suite (`testSessionStore`,
 * `agentctx/testing`). Model calls are another contract (`ModelCallLog`): a store may keep them too
 * (`SessionStoreWithCallLog`), or leave them to a log of their own, or to none.
 *
 * Implementations must:
 * - keep `app:` state per app, `user:` state per app and user, and everything else per session, and hand out
 *   the merged view (`mergeScopedState`) as `session.state`;
 * - never store a `temp:` key;
 * - hand out copies: nothing a caller does to a returned session, state value or event changes storage;
 * - append atomically: the event, its state delta and the shared scopes change together or not at all;
 * - refuse an append from a session copy whose `revision` is behind storage (`ConflictError`, code `stale_session`),
 *   so two writers that loaded the same session cannot both succeed;
 * - version every stored `app:` and `user:` key, hand out the versions with each session
 *   (`sharedStateVersions`), and refuse an append that writes a shared key whose stored version is no longer
 *   the one the copy saw (`ConflictError`, code `stale_shared_state`, `key` set), writing nothing of it.
 */
export type SessionStore = {
  /** `memory`, `sqlite`, `postgres`, or a custom name; shown in errors and the inspector. */
  readonly name: string;

  /** Throws `ConflictError` (`already_exists`) when the id is taken in this app and user. */
  createSession(input: CreateSessionInput): Promise<Session>;

  /** `undefined` when there is no such session. */
  getSession(input: GetSessionInput): Promise<Session | undefined>;

  /** Sessions without their events, most recently updated first, ties by id. */
  listSessions(input: ListSessionsInput): Promise<Session[]>;

  /**
   * The apps that have sessions here, sorted. Optional: a store that cannot list them (a service keyed by app) leaves
   * it out, and the inspector then offers only the apps it is told of.
   */
  listApps?(): Promise<string[]>;

  /**
   * Stores `event` at the end of the session and applies its state delta, then updates `session` in place
   * (events, state, lastUpdateTime, revision). `temp:` keys of the delta reach `session.state` (the live
   * invocation sees them) but not storage, nor the returned event. A `partial` event is returned unstored.
   * Throws `NotFoundError` for an unknown session, `ConflictError` for a stale session, a stale shared key or a reused event id,
   * `ValidationError` for a value that cannot be stored as JSON.
   */
  appendEvent(input: AppendEventInput): Promise<Event>;

  /**
   * Removes the session and its events (and, in a store that is also the call log, its recorded model calls); the
   * shared `app:` and `user:` state stays. No error if absent.
   */
  deleteSession(input: SessionKey): Promise<void>;

  /**
   * Optional (the SQL and in-memory stores have it): an erasure in place. Every stored text of the session — each
   * event, and each recorded call's request, provenance, response, wire record and body, warnings and error — is passed
   * as its JSON text through `replace`, and what comes back is stored instead (`replace` must keep it the same JSON).
   * The session's update time becomes now, so runners holding a copy of it load it again. Returns how many events
   * and calls changed; none for a session that is not there. `agentctx memory delete --redact` erases memories'
   * copies with it.
   */
  rewriteText?(input: SessionKey & { replace: (json: string) => string }): Promise<{ events: number; calls: number }>;

  /** Releases connections and files; the store is unusable afterwards. */
  close(): Promise<void>;
};

/**
 * A session store that is also the log of its sessions' model calls, as the SQL and in-memory stores are: deleting a
 * session deletes its calls, and an answer's event and its call's completion can be one write
 * (`AppendEventInput.completeModelCall`).
 */
export type SessionStoreWithCallLog = SessionStore & ModelCallLog;

/** Sources of time and ids, injectable so tests and replays are deterministic. */
export type StoreClock = {
  /** Seconds since the epoch, with a fraction. */
  now?: () => number;
  newId?: () => string;
};
