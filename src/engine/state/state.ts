import { copyValue, setOwn } from '../util/copy-value.js';
import type { StateRecord } from './state-delta.js';
import { isTempKey } from './state-keys.js';

/**
 * The state an invocation works with: reads see the session's merged state plus everything written so far,
 * writes are recorded in a delta that travels on the next event. Values go in and come out as copies,
 * so mutating a value read from state never changes storage, another session, or this view.
 */
export class State {
  readonly #base: StateRecord;
  readonly #delta: StateRecord;

  /** `base` is the state the writes land in (a session's live state); `delta` collects the writes. */
  constructor(base: StateRecord, delta: StateRecord = {}) {
    this.#base = base;
    this.#delta = delta;
  }

  get<T = unknown>(key: string): T | undefined;
  get<T>(key: string, fallback: T): T;
  get(key: string, fallback?: unknown): unknown {
    if (Object.hasOwn(this.#delta, key)) return copyValue(this.#delta[key]);
    if (Object.hasOwn(this.#base, key)) return copyValue(this.#base[key]);
    return fallback;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.#delta, key) || Object.hasOwn(this.#base, key);
  }

  set(key: string, value: unknown): void {
    const stored = copyValue(value);
    // Own properties even for `__proto__`, which the store then refuses by name instead of a prototype changing here.
    setOwn(this.#base, key, stored);
    setOwn(this.#delta, key, copyValue(stored));
  }

  update(values: Readonly<StateRecord>): void {
    for (const [key, value] of Object.entries(values)) this.set(key, value);
  }

  /** True once anything was written through this view. */
  hasDelta(): boolean {
    return Object.keys(this.#delta).length > 0;
  }

  /** A copy of the pending writes. */
  delta(): StateRecord {
    return copyValue(this.#delta);
  }

  /** A copy of everything visible, optionally without `temp:` keys. */
  toRecord(options: { includeTemp?: boolean } = {}): StateRecord {
    const record: StateRecord = {};
    for (const source of [this.#base, this.#delta]) {
      for (const [key, value] of Object.entries(source)) {
        if (options.includeTemp === false && isTempKey(key)) continue;
        setOwn(record, key, value);
      }
    }
    return copyValue(record);
  }
}
