import type { SessionKey } from '../../contracts/session.js';

/** How many sessions an ADK server remembers for its trace routes. */
export const SESSION_NOTES_LIMIT = 1_000;

/**
 * The sessions an ADK server has answered for, so that ADK's trace routes, which name a session by its id alone,
 * can find their recorded calls. Only sessions that exist are noted (a request naming a missing one notes nothing),
 * each by app, user and id, so two users' sessions of the same id are both kept; the least recently used goes
 * when there are more than `limit`, so no stream of requests can grow it without end.
 */
export class SessionNotes {
  // A Map iterates in insertion order: deleting and setting again moves a key to the end, the most recent.
  private readonly notes = new Map<string, SessionKey>();

  constructor(private readonly limit: number = SESSION_NOTES_LIMIT) {}

  get size(): number {
    return this.notes.size;
  }

  note(key: SessionKey): void {
    const id = JSON.stringify([key.appName, key.userId, key.sessionId]);
    this.notes.delete(id);
    this.notes.set(id, { appName: key.appName, userId: key.userId, sessionId: key.sessionId });
    if (this.notes.size > this.limit) this.notes.delete(this.notes.keys().next().value as string);
  }

  /** Every noted session with this id (of `app`, when given), the most recently used last. */
  withId(sessionId: string, app?: string): SessionKey[] {
    return [...this.notes.values()].filter(
      (key) => key.sessionId === sessionId && (app === undefined || key.appName === app),
    );
  }

  /** Every noted session, the most recently used first. */
  all(): SessionKey[] {
    return [...this.notes.values()].reverse();
  }
}
