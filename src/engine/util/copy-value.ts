/**
 * A deep copy of a state or event value. JSON-shaped values (the common case) are copied by a fast walk;
 * anything else (Uint8Array, Date, Map, bigint inside containers…) falls back to structuredClone.
 *
 * Prototype-safe: every key becomes an own data property of the copy. A `__proto__` key (which `JSON.parse` makes
 * an ordinary key) stays an ordinary key holding its value, instead of replacing the copy's prototype, so a copy
 * reads, serializes and renders exactly like the value a database store parses back. The walk keeps its own stack
 * below a few levels, so no depth of input overflows the call stack.
 */
export function copyValue<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  return copyObject(value, 0) as T;
}

// Values nest only a few levels as a rule: those are copied by recursion (fastest); deeper ones by an explicit stack.
const RECURSION_LIMIT = 64;

function copyObject(value: object, depth: number): unknown {
  if (depth >= RECURSION_LIMIT) return copyDeep(value);
  if (Array.isArray(value)) {
    // Stryker disable next-line ArrayDeclaration: equivalent, the loop below assigns every index, so the copy ends the same length with or without preallocating
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      copy[i] = typeof item === 'object' && item !== null ? copyObject(item, depth + 1) : item;
    }
    return copy;
  }
  if (!isPlain(value)) return copyInstance(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    setOwn(copy, key, typeof item === 'object' && item !== null ? copyObject(item, depth + 1) : item);
  }
  return copy;
}

// The same copy, with a stack of containers still to fill instead of recursion. Each container is copied once
// (`seen`), so a value that contains itself gives a copy that does too (the JSON check reports it) instead of a
// walk without end.
function copyDeep(value: object): unknown {
  const root = shellOf(value);
  if (isFilled(value)) return root;
  const seen = new Map<object, unknown>([[value, root]]);
  const pending: [source: object, copy: object][] = [[value, root as object]];
  while (pending.length > 0) {
    const [source, copy] = pending.pop() as [object, object];
    const keys = Array.isArray(source) ? undefined : Object.keys(source);
    const size = keys === undefined ? (source as unknown[]).length : keys.length;
    for (let i = 0; i < size; i++) {
      const key = keys === undefined ? i : (keys[i] as string);
      const item = (source as Record<string | number, unknown>)[key];
      let copied = item;
      if (typeof item === 'object' && item !== null) {
        copied = seen.get(item);
        if (copied === undefined) {
          copied = shellOf(item);
          seen.set(item, copied);
          if (!isFilled(item)) pending.push([item, copied as object]);
        }
      }
      if (keys === undefined) (copy as unknown[])[key as number] = copied;
      else setOwn(copy as Record<string, unknown>, key as string, copied);
    }
  }
  return root;
}

// An empty list or object to fill for a container; anything else copied (or shared) as `copyInstance` does.
function shellOf(value: object): unknown {
  // Stryker disable next-line ArrayDeclaration: equivalent, copyDeep assigns every index of a list's shell before it returns, so its initial length makes no difference
  if (Array.isArray(value)) return new Array<unknown>(value.length);
  if (isPlain(value)) return {};
  return copyInstance(value);
}

// A built-in container cloned by `copyInstance` arrives whole: nothing left to fill.
function isFilled(value: object): boolean {
  return !Array.isArray(value) && !isPlain(value);
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** `record[key] = value` as an own data property, also for `__proto__` (where plain assignment sets the prototype). */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  else record[key] = value;
}

// Built-in containers are cloned; other class instances (PyFloat, a user's own classes) are shared:
// structuredClone would silently turn them into plain objects.
function copyInstance(value: object): unknown {
  if (
    value instanceof Date ||
    value instanceof Map ||
    value instanceof Set ||
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer
  ) {
    return structuredClone(value);
  }
  return value;
}
