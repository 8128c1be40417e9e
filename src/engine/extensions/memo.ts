import type { MemoKey, SessionMemo } from '../../contracts/memo.js';

/** An empty memo: one per session that a runner keeps, or one per `assembleRequest` call unless one is passed in. */
export function createSessionMemo(): SessionMemo {
  const values = new Map<MemoKey<unknown>, unknown>();
  return {
    get<T>(key: MemoKey<T>): T {
      if (values.has(key)) return values.get(key) as T;
      const value = key.create();
      values.set(key, value);
      return value;
    },
  };
}
