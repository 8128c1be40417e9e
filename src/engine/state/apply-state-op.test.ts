import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { StateOp } from '../../contracts/state-op.js';
import { applyStateOp, canonicalJson } from './apply-state-op.js';
import { describeStateOp, mergeStateChanges, recordOp, recordSet, type StateChanges } from './state-changes.js';

const add = (by: number, key = 'n'): StateOp => ({ op: 'add', key, by });
const append = (items: unknown[], key = 'log'): StateOp => ({ op: 'append', key, items });
const setField = (field: string, value: unknown, key = 'o'): StateOp => ({ op: 'setField', key, field, value });
const addToSet = (items: unknown[], key = 'tags'): StateOp => ({ op: 'addToSet', key, items });

function failure(current: unknown, op: StateOp): ValidationError {
  try {
    applyStateOp(current, op);
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('applyStateOp did not throw');
}

describe('applyStateOp', () => {
  it('adds to a number, starting from by when absent, with JavaScript arithmetic', () => {
    expect(applyStateOp(undefined, add(3))).toBe(3);
    expect(applyStateOp(0.1, add(0.2))).toBe(0.30000000000000004);
    expect(applyStateOp(5, add(-7))).toBe(-2);
    expect(Object.is(applyStateOp(-0, add(-0)), 0)).toBe(true);
  });

  it('appends to a list, and makes one of an absent key', () => {
    expect(applyStateOp(undefined, append([1]))).toEqual([1]);
    expect(applyStateOp([1, 'a'], append([{ b: 2 }, null]))).toEqual([1, 'a', { b: 2 }, null]);
    const current = [1];
    applyStateOp(current, append([2]));
    expect(current).toEqual([1]);
  });

  it('sets one field of an object, a field already there keeping its place', () => {
    expect(applyStateOp(undefined, setField('a', 1))).toEqual({ a: 1 });
    const replaced = applyStateOp({ x: 1, a: 0, y: 2 }, setField('a', [1])) as Record<string, unknown>;
    expect(Object.keys(replaced)).toEqual(['x', 'a', 'y']);
    expect(replaced).toEqual({ x: 1, a: [1], y: 2 });
    expect(Object.keys(applyStateOp({ x: 1 }, setField('b', null)) as object)).toEqual(['x', 'b']);
    // A `__proto__` key inside the value (as JSON.parse makes it) stays an ordinary key of the copy.
    const parsed = JSON.parse('{"__proto__":{"admin":true},"k":1}') as Record<string, unknown>;
    const copy = applyStateOp(parsed, setField('k', 2)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(JSON.stringify(copy)).toBe('{"__proto__":{"admin":true},"k":2}');
  });

  it('adds to a set: each item once, equal JSON values (key order aside) counting as one', () => {
    expect(applyStateOp(undefined, addToSet([]))).toEqual([]);
    expect(applyStateOp(undefined, addToSet([1, 1, 'a']))).toEqual([1, 'a']);
    expect(
      applyStateOp([{ a: 1, b: [2, { c: 3, d: 4 }] }], addToSet([{ b: [2, { d: 4, c: 3 }], a: 1 }, { a: 1 }])),
    ).toEqual([{ a: 1, b: [2, { c: 3, d: 4 }] }, { a: 1 }]);
    expect(applyStateOp(['1', 1, true, null], addToSet([1, '1', 'true', false, null]))).toEqual([
      '1',
      1,
      true,
      null,
      'true',
      false,
    ]);
    // A list is ordered: [1, 2] and [2, 1] are two items.
    expect(
      applyStateOp(
        [[1, 2]],
        addToSet([
          [2, 1],
          [1, 2],
        ]),
      ),
    ).toEqual([
      [1, 2],
      [2, 1],
    ]);
  });

  it('refuses a value of another type, naming the key, the operation and the type found, with what to do', () => {
    const cases: [unknown, StateOp, string][] = [
      ['7', add(1, 'user:count'), 'user:count: add needs a number (or no value), found a string'],
      [null, add(1), 'n: add needs a number (or no value), found null'],
      [[1], add(1), 'n: add needs a number (or no value), found a list'],
      [{ a: 1 }, append([1]), 'log: append needs a list (or no value), found an object'],
      [3, setField('f', 1), 'o: setField needs an object (or no value), found a number'],
      [[1], setField('f', 1), 'o: setField needs an object (or no value), found a list'],
      [false, addToSet([1]), 'tags: addToSet needs a list (or no value), found a boolean'],
    ];
    for (const [current, op, message] of cases) {
      const error = failure(current, op);
      expect(error).toMatchObject({ code: 'invalid_input', subject: 'state operation' });
      expect(error.message).toBe(`Invalid state operation: ${message}`);
      expect(error.hint).toMatch(
        /^Set the key to (a number|a list|an object) first, or use set\(\) to replace its value\.$/,
      );
    }
    expect(failure(1.7976931348623157e308, add(1e308)).message).toBe(
      'Invalid state operation: n: add would leave a number too large to store (not finite)',
    );
  });

  it('compares JSON values by a canonical text: sorted keys, toJSON applied, -0 as 0', () => {
    expect(canonicalJson({ b: 1, a: { d: 1, c: 2 } })).toBe('{"a":{"c":2,"d":1},"b":1}');
    expect(canonicalJson(-0)).toBe('0');
    expect(canonicalJson(new Date(0))).toBe('"1970-01-01T00:00:00.000Z"');
    expect(canonicalJson(undefined)).toBe('null');
  });
});

describe('recording operations next to values', () => {
  const changes = (): StateChanges => ({ delta: {}, ops: [] });

  it('folds consecutive operations of one kind on one key, and adds only while exact', () => {
    const recorded = changes();
    recordOp(recorded, add(1, 'user:n'));
    recordOp(recorded, append(['a'], 'user:log'));
    recordOp(recorded, add(2, 'user:n'));
    recordOp(recorded, append(['b'], 'user:log'));
    recordOp(recorded, addToSet([1], 'tags'));
    recordOp(recorded, addToSet([1, 2], 'tags'));
    recordOp(recorded, setField('a', 1));
    recordOp(recorded, setField('b', 1));
    recordOp(recorded, setField('b', 2));
    recordOp(recorded, add(0.1, 'f'));
    recordOp(recorded, add(0.2, 'f'));
    expect(recorded.ops).toEqual([
      add(3, 'user:n'),
      append(['a', 'b'], 'user:log'),
      addToSet([1, 1, 2], 'tags'),
      setField('a', 1),
      setField('b', 2),
      add(0.1, 'f'),
      add(0.2, 'f'),
    ]);
  });

  it('lets a set replace the key’s operations, and an operation on a key set change the value set', () => {
    const recorded = changes();
    recordOp(recorded, add(1, 'user:n'));
    recordOp(recorded, add(1, 'other'));
    recordSet(recorded, 'user:n', 10);
    recordOp(recorded, add(5, 'user:n'));
    recordOp(recorded, append([1], 'list'));
    expect(recorded).toEqual({ delta: { 'user:n': 15 }, ops: [add(1, 'other'), append([1], 'list')] });
    expect(() => recordOp({ delta: { s: 'text' }, ops: [] }, add(1, 's'))).toThrow(ValidationError);
  });

  it('merges parallel writers in call order; an operation that cannot apply to a later value set is dropped', () => {
    const into = changes();
    mergeStateChanges(into, { delta: { a: 1 }, ops: [add(1, 'n')] });
    mergeStateChanges(into, { delta: { s: 'text' }, ops: [add(2, 'n'), add(1, 'a')] });
    mergeStateChanges(into, { delta: {}, ops: [add(1, 's')] });
    expect(into).toEqual({ delta: { a: 2, s: 'text' }, ops: [add(3, 'n')] });
  });

  it('describes operations in a few words', () => {
    expect(
      [add(1, 'user:turns'), add(-2), append(['x']), setField('theme', 'dark', 'user:prefs'), addToSet([1, 2])].map(
        (op) => describeStateOp(op),
      ),
    ).toEqual(['user:turns += 1', 'n -= 2', 'log append ["x"]', 'user:prefs.theme = "dark"', 'tags addToSet [1,2]']);
  });
});
