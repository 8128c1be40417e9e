import type { SessionStore } from '../../contracts/session-store.js';

/** Another store over the same storage as the one given, as a second process would open it. */
export type TwinStore = (store: SessionStore) => SessionStore | Promise<SessionStore>;
