import { joinPath } from './json-reader.js';

/**
 * How deeply a JSON value may nest: a state value, a stateDelta value, a tool's arguments or result, counted from
 * the value itself (`{}` is one level, `{"a": []}` two). Deeper values are refused where they come in, with a typed
 * error naming where, so no serializer, parser or copy ever recurses far enough to overflow the stack.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * The levels agentctx's own records add around such values: an event (`content.parts[0].functionResponse.response`
 * is six levels down), a recorded model call. A whole record may nest `MAX_JSON_DEPTH + ENVELOPE_DEPTH` levels.
 */
export const ENVELOPE_DEPTH = 16;

/** Where a value is not plain JSON data (or nests too deeply), and what was found there. */
export type JsonProblem = { path: string; found: string };

export type JsonCheckOptions = {
  /** The deepest nesting allowed, counted from the value given; `MAX_JSON_DEPTH` unless set. */
  maxDepth?: number;
};

/**
 * The first place where `value` is not plain JSON data (string, finite number, boolean, null, list, plain object),
 * or `undefined` when it all is. Objects with `toJSON` (PyFloat, PyTuple, Date) count as JSON. A value that contains
 * itself is reported (`a circular reference`), and so is one nesting deeper than `maxDepth`; the walk keeps its own
 * stack, so no depth of input can overflow the call stack.
 */
export function findNonJson(value: unknown, path: string, options: JsonCheckOptions = {}): JsonProblem | undefined {
  return inspectJson(value, path, options).problem;
}

/** `findNonJson`, and how deeply the value nests (up to where the walk stopped). */
export function inspectJson(
  value: unknown,
  path: string,
  options: JsonCheckOptions = {},
): { problem: JsonProblem | undefined; depth: number } {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const root = classify(value);
  if (root !== CONTAINER) return { problem: root === undefined ? undefined : { path, found: root }, depth: 0 };
  if (maxDepth < 1) return { problem: { path, found: tooDeep(maxDepth) }, depth: 1 };
  // `frames[i]` is the container at depth i + 1; `trail[i]` the key that leads from it to the next one down.
  const frames: Frame[] = [frameOf(value as object)];
  const trail: (string | number)[] = [];
  // The containers on the path from the root to here: meeting one again is a cycle (a shared value is not).
  const open = new Set<object>([value as object]);
  let depth = 1;
  while (frames.length > 0) {
    const frame = frames[frames.length - 1] as Frame;
    if (frame.next >= frame.size) {
      open.delete(frame.node);
      frames.pop();
      trail.pop();
      continue;
    }
    const key = frame.keys === undefined ? frame.next : (frame.keys[frame.next] as string);
    frame.next += 1;
    const child = (frame.node as Record<string | number, unknown>)[key];
    const kind = classify(child);
    if (kind === undefined) continue;
    trail.push(key);
    if (kind !== CONTAINER) return { problem: { path: spell(path, trail), found: kind }, depth };
    if (open.has(child as object))
      return { problem: { path: spell(path, trail), found: 'a circular reference' }, depth };
    if (frames.length >= maxDepth)
      return { problem: { path: spell(path, trail), found: tooDeep(maxDepth) }, depth: frames.length + 1 };
    open.add(child as object);
    frames.push(frameOf(child as object));
    if (frames.length > depth) depth = frames.length;
  }
  return { problem: undefined, depth };
}

type Frame = { node: object; keys: string[] | undefined; size: number; next: number };

const CONTAINER = Symbol('container');

function frameOf(node: object): Frame {
  if (Array.isArray(node)) return { node, keys: undefined, size: node.length, next: 0 };
  const keys = Object.keys(node);
  return { node, keys, size: keys.length, next: 0 };
}

// `undefined` for a plain JSON leaf, CONTAINER for a list or plain object to walk into, else what was found.
function classify(value: unknown): string | typeof CONTAINER | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : String(value);
    case 'object': {
      if (value === null) return undefined;
      if (Array.isArray(value)) return CONTAINER;
      if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return undefined;
      const prototype = Object.getPrototypeOf(value) as unknown;
      if (prototype !== Object.prototype && prototype !== null) return `an instance of ${constructorName(value)}`;
      return CONTAINER;
    }
    default:
      return `a ${typeof value}`;
  }
}

function constructorName(value: object): string {
  const name = (value as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== '' ? name : 'a class';
}

function tooDeep(maxDepth: number): string {
  return `more than ${maxDepth} levels of nesting`;
}

// Paths of deep values are cut: the first steps say where the value is, the count how far down it went.
const SHOWN_STEPS = 8;

function spell(path: string, trail: readonly (string | number)[]): string {
  let where = path;
  for (const key of trail.slice(0, SHOWN_STEPS)) where = joinPath(where, key);
  return trail.length > SHOWN_STEPS ? `${where}…(${trail.length} levels down)` : where;
}

/** A JSON round trip: the value exactly as a database store would give it back. */
export function toStoredJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Freezes `value` and everything in it, without recursion (a stored value may nest as deeply as the limits allow). */
export function deepFreeze<T>(value: T): T {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item !== 'object' || item === null || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const child of Object.values(item)) pending.push(child);
  }
  return value;
}
