import { joinPath } from './json-reader.js';

/**
 * The first place where `value` is not plain JSON data (string, finite number, boolean, null, list, plain object),
 * or `undefined` when it all is. Objects with `toJSON` (PyFloat, PyTuple, Date) count as JSON.
 */
export function findNonJson(value: unknown, path: string): { path: string; found: string } | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : { path, found: String(value) };
    case 'object': {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const problem = findNonJson(value[i], joinPath(path, i));
          if (problem !== undefined) return problem;
        }
        return undefined;
      }
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) return { path, found: `an instance of ${value.constructor.name}` };
      for (const [key, item] of Object.entries(value)) {
        const problem = findNonJson(item, joinPath(path, key));
        if (problem !== undefined) return problem;
      }
      return undefined;
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
