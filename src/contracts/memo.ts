/** Names one value kept in a memo, and makes it the first time it is asked for. */
export type MemoKey<T> = {
  readonly name: string;
  create(): T;
};

/**
 * Values derived from one session and kept while a runner keeps the session, so the next request reuses them (the
 * contents built from its history, counts of its parts). Each value belongs to the feature that owns its key; the
 * key's identity, not its name, finds it. Values must stay correct for any later, longer history of the session.
 */
export type SessionMemo = {
  get<T>(key: MemoKey<T>): T;
};
