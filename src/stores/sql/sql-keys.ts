import type { SessionKey } from '../../contracts/session.js';
import { checkSessionKey } from '../../engine/session/store-rules.js';
import type { SessionKeyParams } from './state-rows.js';

// How the SQL store finds a session's rows: its key as parameters, and the WHERE clauses that take them.

export const SESSION_WHERE = 'app_name = ? AND user_id = ? AND id = ?';
export const CHILD_WHERE = 'app_name = ? AND user_id = ? AND session_id = ?';

/** The key as statement parameters; refuses (`ValidationError`) a key no row can hold, before any statement runs. */
export function keyParams(key: SessionKey): SessionKeyParams {
  checkSessionKey(key);
  return [key.appName, key.userId, key.sessionId];
}
