/**
 * One queue per key: work given the same key runs one at a time, in the order it came; different keys run freely.
 * A writer that lost a race for a session or a user's shared state retries in that key's lane, so the writers of
 * one process take turns at it instead of all retrying at random, and none keeps losing to its own neighbours.
 */
export class RetryLanes {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key) ?? Promise.resolve();
    const result = before.then(work, work);
    const tail = result.catch(() => undefined);
    this.#tails.set(key, tail);
    // The last one out removes the lane, so keys do not pile up.
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** True while some work waits or runs under `key`. */
  busy(key: string): boolean {
    return this.#tails.has(key);
  }
}
