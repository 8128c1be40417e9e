import { joinPath } from './json-reader.js';

/**
 * The first place where `value` is not plain JSON data (string, finite number, boolean, null, list, plain object),
 * or `undefined` when it all is. Objects with `toJSON` (PyFloat, PyTuple, Date) count as JSON. A value that contains
 * itself is reported (`a circular reference`) rather than walked forever.
 */
export function findNonJson(value: unknown, path: string): { path: string; found: string } | undefined {
  const problem = findIn(value, new Set());
  if (problem === undefined) return undefined;
  // The keys were collected on the way back up, deepest first; the path is only spelled out for a problem.
  let where = path;
  for (let i = problem.keys.length - 1; i >= 0; i--) where = joinPath(where, problem.keys[i] as string | number);
  return { path: where, found: problem.found };
}

type Problem = { found: string; keys: (string | number)[] };

// `open` holds the objects on the path from the root to here: meeting one again is a cycle (a shared value is not).
function findIn(value: unknown, open: Set<object>): Problem | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : { found: String(value), keys: [] };
    case 'object': {
      if (value === null) return undefined;
      if (open.has(value)) return { found: 'a circular reference', keys: [] };
      if (!Array.isArray(value)) {
        if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
        const prototype = Object.getPrototypeOf(value) as unknown;
        if (prototype !== Object.prototype && prototype !== null) return { found: `an instance of ${value.constructor.name}`, keys: [] };
      }
      open.add(value);
      let problem: Problem | undefined;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length && problem === undefined; i++) {
          problem = findIn(value[i], open);
          problem?.keys.push(i);
        }
      } else {
        for (const key of Object.keys(value)) {
          problem = findIn((value as Record<string, unknown>)[key], open);
          if (problem !== undefined) {
            problem.keys.push(key);
            break;
          }
        }
      }
      open.delete(value);
      return problem;
    }
    default:
      return { found: `a ${typeof value}`, keys: [] };
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
