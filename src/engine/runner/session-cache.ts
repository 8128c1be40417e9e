import type { SessionMemo } from '../../contracts/memo.js';
import type { SessionStore } from '../../contracts/session-store.js';
import type { Session } from '../../contracts/session.js';
import { createSessionMemo } from '../extensions/memo.js';
import { catchUp } from '../session/catch-up.js';

type Entry = { session: Session; memo: SessionMemo };

const MAX_SESSIONS = 64;

/**
 * Keeps the sessions this runner worked on (the last 64), so a turn does not reload a long history it already
 * holds. Before reuse the copy catches up with the store in one read (`catchUp`): the current state and whatever
 * other processes appended since; a session made anew under the same id is loaded whole.
 */
export class SessionCache {
  readonly #store: SessionStore;
  readonly #appName: string;
  readonly #entries = new Map<string, Entry>();

  constructor(store: SessionStore, appName: string) {
    this.#store = store;
    this.#appName = appName;
  }

  async load(userId: string, sessionId: string): Promise<Entry | undefined> {
    const key = this.#key(userId, sessionId);
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      // One read: the head, and the events other processes appended since this copy's revision (none, usually).
      const found = await catchUp(this.#store, entry.session);
      this.#entries.delete(key);
      if (found === 'gone') return undefined;
      // Loaded whole, the events may differ from those the memo was derived from (rewritten in place): it starts over.
      const kept = found === 'reloaded' ? { session: entry.session, memo: createSessionMemo() } : entry;
      this.#entries.set(key, kept);
      return kept;
    }
    const session = await this.#store.getSession({ appName: this.#appName, userId, sessionId });
    if (session === undefined) return undefined;
    const fresh: Entry = { session, memo: createSessionMemo() };
    this.#entries.set(key, fresh);
    if (this.#entries.size > MAX_SESSIONS) this.#entries.delete(this.#entries.keys().next().value as string);
    return fresh;
  }

  forget(userId: string, sessionId: string): void {
    this.#entries.delete(this.#key(userId, sessionId));
  }

  #key(userId: string, sessionId: string): string {
    return JSON.stringify([userId, sessionId]);
  }
}
