import { setOwn } from '../util/copy-value.js';
import { APP_PREFIX, TEMP_PREFIX, USER_PREFIX } from './state-keys.js';

export type StateRecord = Record<string, unknown>;

/** A state delta split by owner, prefixes removed; `temp:` keys are dropped because they are never stored. */
export type SplitStateDelta = {
  app: StateRecord;
  user: StateRecord;
  session: StateRecord;
};

export function splitStateDelta(delta: Readonly<StateRecord>): SplitStateDelta {
  const split: SplitStateDelta = { app: {}, user: {}, session: {} };
  for (const [key, value] of Object.entries(delta)) {
    // Own properties even for a key that is `__proto__` once unprefixed (stores refuse it; a copy must not lose it).
    if (key.startsWith(APP_PREFIX)) setOwn(split.app, key.slice(APP_PREFIX.length), value);
    else if (key.startsWith(USER_PREFIX)) setOwn(split.user, key.slice(USER_PREFIX.length), value);
    else if (!key.startsWith(TEMP_PREFIX)) setOwn(split.session, key, value);
  }
  return split;
}

/** The delta without its `temp:` keys; the same object when it has none. */
export function withoutTempKeys<T extends Readonly<StateRecord>>(delta: T): T {
  let kept: StateRecord | undefined;
  for (const key of Object.keys(delta)) {
    if (!key.startsWith(TEMP_PREFIX)) continue;
    kept ??= { ...delta };
    delete kept[key];
  }
  return (kept ?? delta) as T;
}

/**
 * The state a session sees: its own keys, then app keys as `app:<k>` and user keys as `user:<k>`
 * (the order of ADK's merge, so a later scope wins on a clash of prefixed keys).
 */
export function mergeScopedState(parts: {
  session: Readonly<StateRecord>;
  app?: Readonly<StateRecord> | undefined;
  user?: Readonly<StateRecord> | undefined;
}): StateRecord {
  const merged: StateRecord = { ...parts.session };
  for (const [key, value] of Object.entries(parts.app ?? {})) merged[APP_PREFIX + key] = value;
  for (const [key, value] of Object.entries(parts.user ?? {})) merged[USER_PREFIX + key] = value;
  return merged;
}
