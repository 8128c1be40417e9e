import type { Event } from './event.js';

/** Identifies a session: sessions belong to one user of one app. */
export type SessionKey = {
  appName: string;
  userId: string;
  sessionId: string;
};

/** A conversation with its state and history, as a store hands it out. */
export type Session = {
  appName: string;
  userId: string;
  id: string;
  /** The merged view: session keys, `app:` and `user:` keys, and `temp:` keys written during the current invocation. */
  state: Record<string, unknown>;
  /** All events, or the window asked for; stored events are frozen. */
  events: Event[];
  /** Timestamp (seconds) of the last change. */
  lastUpdateTime: number;
  /** Count of appends in storage when this copy was loaded; appending from an older copy fails instead of overwriting. */
  revision: number;
  /**
   * Store bookkeeping for optimistic concurrency on shared state: the version of each `app:` and `user:` key
   * (by its prefixed name) as this copy saw it when it was loaded or last appended to; a key absent here was
   * absent then (version 0). An append that writes a shared key whose stored version has moved on since fails
   * with `ConflictError` (`stale_shared_state`), so a read-modify-write of a shared key cannot lose another
   * session's update. Stores set it on every session they hand out and keep it current after appends;
   * copies of a session should carry it. Not part of the session's JSON form.
   */
  sharedStateVersions?: Record<string, number>;
};
