import type { SessionMemo } from '../../contracts/memo.js';
import type { SessionStore } from '../../contracts/session-store.js';
import type { Session } from '../../contracts/session.js';
import { createSessionMemo } from '../extensions/memo.js';

type Entry = { session: Session; memo: SessionMemo };

const MAX_SESSIONS = 64;

/**
 * Keeps the sessions this runner worked on, so a turn does not reload a long history it already holds. Before
 * reuse it asks the store for the session's revision and update time (no events) and its current state; if anyone
 * else appended since, or made the session anew, it loads the session again.
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
    const input = { appName: this.#appName, userId, sessionId };
    if (entry !== undefined) {
      const head = await this.#store.getSession({ ...input, numRecentEvents: 0 });
      if (head === undefined) {
        this.#entries.delete(key);
        return undefined;
      }
      // The update time too: a session deleted and made again elsewhere may have reached the same revision.
      if (head.revision === entry.session.revision && head.lastUpdateTime === entry.session.lastUpdateTime) {
        // State is read fresh (with the versions of its shared keys): other sessions may have changed app: and user: keys.
        entry.session.state = head.state;
        if (head.sharedStateVersions === undefined) delete entry.session.sharedStateVersions;
        else entry.session.sharedStateVersions = head.sharedStateVersions;
        this.#entries.delete(key);
        this.#entries.set(key, entry);
        return entry;
      }
    }
    const session = await this.#store.getSession(input);
    if (session === undefined) return undefined;
    const fresh: Entry = { session, memo: entry?.memo ?? createSessionMemo() };
    this.#entries.delete(key);
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
