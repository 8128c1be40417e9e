/** Yields the items of several async streams as each one produces them, until all have ended. */
export async function* mergeStreams<T>(streams: readonly AsyncIterable<T>[]): AsyncGenerator<T> {
  const iterators = streams.map((stream) => stream[Symbol.asyncIterator]());
  const pending = new Map<number, Promise<{ index: number; result: IteratorResult<T> }>>();
  const pull = (index: number) => (iterators[index] as AsyncIterator<T>).next().then((result) => ({ index, result }));
  iterators.forEach((_, index) => pending.set(index, pull(index)));
  try {
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      if (result.done === true) {
        pending.delete(index);
        continue;
      }
      pending.set(index, pull(index));
      yield result.value;
    }
  } finally {
    // Stopping early (the caller broke out) must close the streams still running.
    await Promise.all([...pending.keys()].map((index) => iterators[index]?.return?.()));
  }
}
