import { joinPath } from './json-reader.js';

/**
 * The first place where `value` is not plain JSON data (string, finite number, boolean, null, list, plain object),
 * or `undefined` when it all is. Objects with `toJSON` (PyFloat, PyTuple, Date) count as JSON. A value that contains
 * itself is reported (`a circular reference`) rather than walked forever.
 */
export function findNonJson(value: unknown, path: string): { path: string; found: string } | undefined {
  return findIn(value, path, new Set());
}

// `open` holds the objects on the path from the root to here: meeting one again is a cycle (a shared value is not).
function findIn(value: unknown, path: string, open: Set<object>): { path: string; found: string } | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : { path, found: String(value) };
    case 'object': {
      if (value === null) return undefined;
      if (open.has(value)) return { path, found: 'a circular reference' };
      if (!Array.isArray(value)) {
        if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
        const prototype = Object.getPrototypeOf(value) as unknown;
        if (prototype !== Object.prototype && prototype !== null) return { path, found: `an instance of ${value.constructor.name}` };
      }
      open.add(value);
      let problem: { path: string; found: string } | undefined;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length && problem === undefined; i++) problem = findIn(value[i], joinPath(path, i), open);
      } else {
        for (const key of Object.keys(value)) {
          problem = findIn((value as Record<string, unknown>)[key], joinPath(path, key), open);
          if (problem !== undefined) break;
        }
      }
      open.delete(value);
      return problem;
    }
    default:
      return { path, found: `a ${typeof value}` };
  }
}

/** A JSON round trip: the value exactly as a database store would give it back. */
export function toStoredJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
