import { realpathSync } from 'node:fs';

/** Runs async sections one at a time, in the order they asked. */
export type SerialLock = {
  run<T>(section: () => T | Promise<T>): Promise<T>;
};

export function createSerialLock(): SerialLock {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    run<T>(section: () => T | Promise<T>): Promise<T> {
      const result = tail.then(section);
      tail = result.then(
        () => undefined,
        () => undefined,
      );
      return result;
    },
  };
}

const shared = new Map<string, { lock: SerialLock; users: number }>();

/**
 * The lock of one database file, shared by every connection this process opens to it. better-sqlite3 waits
 * for a busy database synchronously, blocking the event loop: a second connection of the same process
 * waiting there would stop the first from ever finishing its transaction. Connections of other processes
 * do not have that problem; SQLite's busy timeout serves them.
 */
export function acquireFileLock(path: string): { lock: SerialLock; release: () => void } {
  if (path === '' || path === ':memory:') return { lock: createSerialLock(), release: () => {} };
  const key = realpathSync(path);
  let entry = shared.get(key);
  if (entry === undefined) shared.set(key, (entry = { lock: createSerialLock(), users: 0 }));
  entry.users += 1;
  const held = entry;
  let released = false;
  return {
    lock: held.lock,
    release: () => {
      if (released) return;
      released = true;
      held.users -= 1;
      if (held.users === 0 && shared.get(key) === held) shared.delete(key);
    },
  };
}
