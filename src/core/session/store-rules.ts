import { ConflictError } from '../errors/conflict-error.js';
import { NotFoundError } from '../errors/not-found-error.js';
import type { Event } from './event.js';

// Behaviour every session store shares, so the implementations cannot drift apart.

/** The events a `getSession` window asks for: the last N, then those at or after a timestamp (ADK's order). */
export function windowEvents(events: readonly Event[], window: { numRecentEvents?: number | undefined; afterTimestamp?: number | undefined }): Event[] {
  let selected = window.numRecentEvents === undefined ? events.slice() : window.numRecentEvents <= 0 ? [] : events.slice(-window.numRecentEvents);
  if (window.afterTimestamp !== undefined) {
    const after = window.afterTimestamp;
    selected = selected.filter((event) => event.timestamp >= after);
  }
  return selected;
}

export function sessionNotFound(sessionId: string): NotFoundError {
  return new NotFoundError({
    resource: 'session',
    id: sessionId,
    message: `Session ${sessionId} not found.`,
    hint: 'Create it first, or check the app name, user id and session id.',
  });
}

/** ADK's own message for a stale append, with the revisions that tell the caller what happened. */
export function staleSession(sessionId: string, loaded: number, stored: number): ConflictError {
  return new ConflictError({
    code: 'stale_session',
    message: 'The session has been modified in storage since it was loaded. Please reload the session before appending more events.',
    hint: `(session ${sessionId}: loaded at revision ${loaded}, storage is at revision ${stored})`,
  });
}
