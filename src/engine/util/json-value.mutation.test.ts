import { describe, expect, it } from 'vitest';
import { deepFreeze, findNonJson, inspectJson } from './json-value.js';

// The JSON checks pinned where mutants survived `npm run mutate -- state` (docs/mutation.md).
describe('inspectJson', () => {
  it('refuses any container when no level is allowed, and counts levels from the value itself', () => {
    expect(inspectJson({}, 'v', { maxDepth: 0 })).toEqual({
      problem: { path: 'v', found: 'more than 0 levels of nesting' },
      depth: 1,
    });
    expect(inspectJson('leaf', 'v', { maxDepth: 0 })).toEqual({ problem: undefined, depth: 0 });
    expect(inspectJson({}, 'v', { maxDepth: 1 })).toEqual({ problem: undefined, depth: 1 });
    expect(inspectJson({ a: [] }, 'v', { maxDepth: 2 })).toEqual({ problem: undefined, depth: 2 });
    expect(inspectJson({ a: [{}] }, 'v', { maxDepth: 2 })).toEqual({
      problem: { path: 'v.a[0]', found: 'more than 2 levels of nesting' },
      depth: 3,
    });
    expect(inspectJson({ a: [1], b: { c: { d: 1 } } }, 'v').depth).toBe(3);
  });

  it('names what it found: the class of an instance, or "a class" when it has no name', () => {
    class Named {}
    expect(findNonJson({ x: new Named() }, 'v')).toEqual({ path: 'v.x', found: 'an instance of Named' });
    expect(findNonJson({ x: new (class {})() }, 'v')).toEqual({ path: 'v.x', found: 'an instance of a class' });
    const orphan = Object.create(Object.create(null) as object) as object;
    expect(findNonJson({ x: orphan }, 'v')).toEqual({ path: 'v.x', found: 'an instance of a class' });
  });

  it('spells a path of up to eight steps in full, and cuts a longer one', () => {
    let eight: unknown = undefined;
    for (let i = 0; i < 8; i++) eight = { k: eight ?? Number.NaN };
    expect(findNonJson(eight, 'v')).toEqual({ path: 'v.k.k.k.k.k.k.k.k', found: 'NaN' });
    const nine = { k: eight };
    expect(findNonJson(nine, 'v')).toEqual({ path: 'v.k.k.k.k.k.k.k.k…(9 levels down)', found: 'NaN' });
  });
});

describe('deepFreeze', () => {
  it('freezes every level, passing over nulls and primitives, and ends on a cycle', () => {
    const value: Record<string, unknown> = { a: null, b: 'text', c: [1, { d: {} }] };
    value['self'] = value;
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen((value['c'] as unknown[])[1])).toBe(true);
    expect(Object.isFrozen(((value['c'] as unknown[])[1] as { d: object }).d)).toBe(true);
  });

  // Only objects and lists are frozen: a function met on the way may be shared with code that still sets its properties.
  it('leaves a function inside the value unfrozen', () => {
    const callback = Object.assign(() => 1, { calls: 0 });
    const value = deepFreeze({ callback, list: [callback] });
    expect(Object.isFrozen(value.list)).toBe(true);
    expect(Object.isFrozen(callback)).toBe(false);
    callback.calls += 1;
    expect(callback.calls).toBe(1);
  });
});
