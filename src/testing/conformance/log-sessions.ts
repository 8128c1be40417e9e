import type { ModelCallLog } from '../../contracts/model-call-log.js';
import type { SessionKey } from '../../contracts/session.js';
import { isSessionStore } from './is-session-store.js';

/** Makes the session a log's calls belong to, when the log is also the session store (it records calls of sessions it has). */
export async function openSession(log: ModelCallLog, key: SessionKey): Promise<void> {
  if (isSessionStore(log)) await log.createSession(key);
}

/**
 * Empties a session's calls the way its owner would: a store that is also the session store deletes the session and
 * makes it again; a log of its own forgets the calls (`deleteModelCalls`).
 */
export async function startOver(log: ModelCallLog, key: SessionKey): Promise<void> {
  if (!isSessionStore(log)) return log.deleteModelCalls(key);
  await log.deleteSession(key);
  await log.createSession(key);
}
