/** Where a state value lives and who sees it. */
export type StateScope = 'app' | 'user' | 'temp' | 'session';

export const APP_PREFIX = 'app:';
export const USER_PREFIX = 'user:';
export const TEMP_PREFIX = 'temp:';

/**
 * The scope a key belongs to, read from its prefix: `app:` keys are shared by every user of an app,
 * `user:` keys by one user's sessions, `temp:` keys live for one invocation, the rest belong to the session.
 */
export function scopeOfKey(key: string): StateScope {
  if (key.startsWith(APP_PREFIX)) return 'app';
  if (key.startsWith(USER_PREFIX)) return 'user';
  if (key.startsWith(TEMP_PREFIX)) return 'temp';
  return 'session';
}

export function isTempKey(key: string): boolean {
  return key.startsWith(TEMP_PREFIX);
}
