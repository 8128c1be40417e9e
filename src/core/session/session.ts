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
};

/** Version of the JSON form written by `sessionToJson`; readers reject newer ones. */
export const SESSION_SCHEMA_VERSION = 1;
