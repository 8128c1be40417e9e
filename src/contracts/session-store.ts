import type { Event } from './event.js';
import type { ModelCallOutcome, ModelCallRecord, ModelCallSummary, NewModelCall } from './model-call.js';
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
   * A recorded call of this session that the event answers, completed in the same write (see `completeModelCall`):
   * the answer and the call's record are stored together or not at all, in one write instead of two.
   */
  completeModelCall?: { index: number; outcome: ModelCallOutcome };
};

/**
 * Where sessions live. Every implementation must pass the shared contract suite (`agentctx/testing`).
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
   * Stores `event` at the end of the session and applies its state delta, then updates `session` in place
   * (events, state, lastUpdateTime, revision). `temp:` keys of the delta reach `session.state` (the live
   * invocation sees them) but not storage, nor the returned event. A `partial` event is returned unstored.
   * Throws `NotFoundError` for an unknown session, `ConflictError` for a stale session, a stale shared key or a reused event id,
   * `ValidationError` for a value that cannot be stored as JSON.
   */
  appendEvent(input: AppendEventInput): Promise<Event>;

  /** Removes the session, its events and its recorded model calls; the shared `app:` and `user:` state stays. No error if absent. */
  deleteSession(input: SessionKey): Promise<void>;

  /**
   * Records one model call of the session and returns its index (1, 2, 3, … per session, in recording order). The
   * runner records a call `pending` before it is sent and completes it with `completeModelCall`; a call given with
   * its status is stored as it is. Throws `NotFoundError` for an unknown session.
   */
  recordModelCall(input: SessionKey & { call: NewModelCall }): Promise<number>;

  /**
   * Writes how a recorded call ended: its status, latency, response, usage and wire body. Costs the same however long
   * the session is. Throws `NotFoundError` when there is no such call, `ConflictError` when it has already ended.
   */
  completeModelCall(input: SessionKey & { index: number; outcome: ModelCallOutcome }): Promise<void>;

  /** The session's recorded calls without their requests, in order; empty for an unknown session. */
  listModelCalls(input: SessionKey): Promise<ModelCallSummary[]>;

  /** One recorded call, with its request and provenance; `undefined` if there is no such call. */
  getModelCall(input: SessionKey & { index: number }): Promise<ModelCallRecord | undefined>;

  /** Releases connections and files; the store is unusable afterwards. */
  close(): Promise<void>;
};

/** Sources of time and ids, injectable so tests and replays are deterministic. */
export type StoreClock = {
  /** Seconds since the epoch, with a fraction. */
  now?: () => number;
  newId?: () => string;
};
