import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { StateOp, StateOpName } from '../../contracts/state-op.js';
import { setOwn } from '../util/copy-value.js';

/** A JSON value's type, as PostgreSQL's `json_typeof` names it (`array` for a list). */
export type JsonTypeName = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/** Why an operation cannot apply: the current value is of another type, or an `add` leaves the finite numbers. */
export type StateOpFailure = { problem: 'wrong_type' | 'not_finite'; found: JsonTypeName };

/**
 * The value a state operation leaves: the one definition every store follows (the in-memory store calls it, SQLite
 * runs it as the SQL function `agentctx_state_op`, and PostgreSQL's PL/pgSQL function of the same name is checked
 * against it by a property test). `current` is `undefined` when the key is absent.
 *
 * - `add`: absent → `by`; a number → `current + by`, which must be finite (`-0` is stored as `0`).
 * - `append`: absent → `items`; a list → the list followed by `items`.
 * - `setField`: absent → `{ [field]: value }`; an object → a copy with the field set, an existing field in its place.
 * - `addToSet`: absent or a list → the list with each item appended, in order, unless an equal JSON value is
 *   already in it (objects are equal whatever the order of their keys; `1` and `1.0` are equal).
 *
 * Any other current value (`null` included) throws a `ValidationError` naming the key, the operation and the type
 * found. The arguments are assumed valid (`stateOpIssues` checks them where operations are made or read).
 */
export function applyStateOp(current: unknown, op: StateOp): unknown {
  const result = stateOpResult(current, op);
  if (isFailure(result)) throw stateOpError(op.key, op.op, result);
  return result;
}

const FAILED = Symbol('state operation failed');
type Failed = StateOpFailure & { [FAILED]: true };
const isFailure = (value: unknown): value is Failed => typeof value === 'object' && value !== null && FAILED in value;
const failure = (problem: StateOpFailure['problem'], found: JsonTypeName): Failed => ({
  problem,
  found,
  [FAILED]: true,
});

/** `applyStateOp` without the key: the new value, or why there is none. For the stores' SQL functions. */
export function tryStateOp(current: unknown, op: StateOp): { value: unknown } | { failure: StateOpFailure } {
  const result = stateOpResult(current, op);
  return isFailure(result) ? { failure: { problem: result.problem, found: result.found } } : { value: result };
}

function stateOpResult(current: unknown, op: StateOp): unknown {
  switch (op.op) {
    case 'add': {
      if (current !== undefined && typeof current !== 'number') return failure('wrong_type', jsonTypeOf(current));
      const sum = current === undefined ? op.by : current + op.by;
      if (!Number.isFinite(sum)) return failure('not_finite', 'number');
      return sum === 0 ? 0 : sum;
    }
    case 'append':
      if (current === undefined) return [...op.items];
      if (!Array.isArray(current)) return failure('wrong_type', jsonTypeOf(current));
      return (current as unknown[]).concat(op.items);
    case 'setField': {
      if (current !== undefined && !isPlainObject(current)) return failure('wrong_type', jsonTypeOf(current));
      // Spread defines own properties (a `__proto__` key stays a key); the field is never `__proto__` (checked where made).
      const copy: Record<string, unknown> = { ...(current as Record<string, unknown> | undefined) };
      setOwn(copy, op.field, op.value);
      return copy;
    }
    case 'addToSet': {
      if (current !== undefined && !Array.isArray(current)) return failure('wrong_type', jsonTypeOf(current));
      const list = [...((current as unknown[] | undefined) ?? [])];
      const seen = new Set(list.map(canonicalJson));
      for (const item of op.items) {
        const form = canonicalJson(item);
        if (seen.has(form)) continue;
        seen.add(form);
        list.push(item);
      }
      return list;
    }
  }
}

/** The type of a JSON value as `json_typeof` names it; anything that is not JSON counts as what JSON makes of it. */
export function jsonTypeOf(value: unknown): JsonTypeName {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' ? type : 'object';
}

const NEEDS: Record<StateOpName, string> = {
  add: 'a number',
  append: 'a list',
  setField: 'an object',
  addToSet: 'a list',
};
const ARTICLE: Record<JsonTypeName, string> = {
  object: 'an object',
  array: 'a list',
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
};

/** The error for an operation that cannot apply to the stored value: the same whichever store found it. */
export function stateOpError(key: string, op: StateOpName, failed: StateOpFailure): ValidationError {
  const message =
    failed.problem === 'not_finite'
      ? `${op} would leave a number too large to store (not finite)`
      : `${op} needs ${NEEDS[op]} (or no value), found ${ARTICLE[failed.found]}`;
  return new ValidationError({
    subject: 'state operation',
    issues: [{ path: key, message }],
    hint:
      failed.problem === 'not_finite'
        ? 'Keep counters within ±1.7976931348623157e308, or use set() to replace the value.'
        : `Set the key to ${NEEDS[op]} first, or use set() to replace its value.`,
  });
}

/**
 * A JSON value as text with every object's keys sorted: equal for values equal as JSON (key order aside), so
 * `addToSet` compares items by it. `toJSON` applies as in `JSON.stringify`; `-0` is `0`.
 */
export function canonicalJson(value: unknown): string {
  return (
    JSON.stringify(value, (_key, item: unknown) => {
      if (!isPlainObject(item)) return item;
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(item).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))) setOwn(sorted, key, item[key]);
      return sorted;
    }) ?? 'null'
  );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
