/**
 * A deep copy of a state or event value. JSON-shaped values (the common case) are copied by a fast walk;
 * anything else (Uint8Array, Date, Map, bigint inside containers…) falls back to structuredClone.
 */
export function copyValue<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  return copyObject(value) as T;
}

function copyObject(value: object): unknown {
  if (Array.isArray(value)) {
    const copy = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      copy[i] = typeof item === 'object' && item !== null ? copyObject(item) : item;
    }
    return copy;
  }
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return copyInstance(value);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    copy[key] = typeof item === 'object' && item !== null ? copyObject(item) : item;
  }
  return copy;
}

// Built-in containers are cloned; other class instances (PyFloat, a user's own classes) are shared:
// structuredClone would silently turn them into plain objects.
function copyInstance(value: object): unknown {
  if (value instanceof Date || value instanceof Map || value instanceof Set || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) {
    return structuredClone(value);
  }
  return value;
}
