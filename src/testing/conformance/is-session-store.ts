import type { SessionStore } from '../../contracts/session-store.js';

const SESSION_METHODS = ['createSession', 'getSession', 'listSessions', 'appendEvent', 'deleteSession'] as const;

/** Whether a value (a model-call log under test) is also a session store. */
export function isSessionStore<T extends object>(value: T): value is T & SessionStore {
  return SESSION_METHODS.every((method) => typeof (value as Record<string, unknown>)[method] === 'function');
}
