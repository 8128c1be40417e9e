import { describe, expect, it } from 'vitest';
import { copyValue, setOwn } from './copy-value.js';

// copyValue pinned where mutants of it survived `npm run mutate -- state` (docs/mutation.md); the deep cases go past
// the depth where the copy switches from recursion to its own stack.

type Node = { next?: Node; [key: string]: unknown };

/** `levels` nested objects; `leaf` is set on the innermost one. */
function chain(levels: number, leaf: Record<string, unknown>): Node {
  const root: Node = {};
  let node = root;
  for (let i = 1; i < levels; i++) node = node.next = {};
  Object.assign(node, leaf);
  return root;
}
function innermost(node: Node): Node {
  while (node.next !== undefined) node = node.next;
  return node;
}

class Kept {
  constructor(readonly inner: { n: number }) {}
}

describe('copyValue', () => {
  it('returns primitives, null and undefined as they are, also inside containers', () => {
    for (const value of [null, undefined, 0, 'text', true, 10n]) expect(copyValue(value)).toBe(value);
    expect(copyValue({ a: null, b: [null, undefined, 1], c: undefined })).toEqual({
      a: null,
      b: [null, undefined, 1],
      c: undefined,
    });
  });

  it('copies objects without a prototype, and clones built-in containers', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { x: { y: 1 } });
    const copied = copyValue(bare);
    expect(copied).not.toBe(bare);
    expect(copied['x']).not.toBe(bare['x']);
    expect(copied).toEqual(bare);
    const builtIns = {
      date: new Date(5),
      map: new Map([[1, { a: 1 }]]),
      set: new Set([1]),
      bytes: new Uint8Array([1, 2]),
      buffer: new ArrayBuffer(2),
    };
    const cloned = copyValue(builtIns);
    for (const key of Object.keys(builtIns) as (keyof typeof builtIns)[]) {
      expect(cloned[key], key).not.toBe(builtIns[key]);
      expect(cloned[key], key).toEqual(builtIns[key]);
    }
    const instance = new Kept({ n: 1 });
    expect(copyValue({ instance }).instance).toBe(instance);
  });

  // Near the top the copy reads back like a stored value: JSON has no sharing, so one object held at two places
  // becomes two independent objects (writing through one must not show through the other).
  it('copies an object held at two places near the top into two independent objects', () => {
    const shared = { n: 1 };
    const copied = copyValue({ one: shared, two: [shared] });
    expect(copied.one).not.toBe(copied.two[0]);
    copied.one.n = 2;
    expect(copied.two[0]).toEqual({ n: 1 });
    expect(shared).toEqual({ n: 1 });
  });

  it('keeps a __proto__ key as an own, writable, enumerable key, leaving the prototype alone', () => {
    const parsed = JSON.parse('{"profile": {"__proto__": {"isAdmin": true}, "name": "eve"}}') as Record<
      string,
      Record<string, unknown>
    >;
    const copied = copyValue(parsed);
    const profile = copied['profile'] as Record<string, unknown>;
    expect(Object.getPrototypeOf(profile)).toBe(Object.prototype);
    expect((profile as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(profile, '__proto__')).toEqual({
      value: { isAdmin: true },
      writable: true,
      enumerable: true,
      configurable: true,
    });
    expect(JSON.stringify(copied)).toBe(JSON.stringify(parsed));
    const record: Record<string, unknown> = {};
    setOwn(record, '__proto__', 1);
    setOwn(record, 'plain', 2);
    expect(Object.keys(record)).toEqual(['__proto__', 'plain']);
  });

  describe('of values nested deeper than its recursion', () => {
    it('copies every level, objects and lists, sharing nothing', () => {
      const source = chain(300, { list: [[1, null, { z: 'deep' }], 'end'], none: null });
      const copied = copyValue(source);
      expect(copied).toEqual(source);
      expect(innermost(copied)).not.toBe(innermost(source));
      expect(innermost(copied)['list']).not.toBe(innermost(source)['list']);
      (innermost(copied)['list'] as unknown[][])[0]?.push('changed');
      expect(innermost(source)['list']).toEqual([[1, null, { z: 'deep' }], 'end']);
    });

    it('clones a deep date, shares a deep class instance without touching it, and copies a deep list', () => {
      const instance = new Kept({ n: 1 });
      const inner = instance.inner;
      const date = new Date(7);
      const list = [{ a: 1 }];
      const source = chain(100, { date, instance, list });
      const copied = innermost(copyValue(source));
      expect(copied['date']).toBeInstanceOf(Date);
      expect(copied['date']).not.toBe(date);
      expect((copied['date'] as Date).getTime()).toBe(7);
      expect(copied['instance']).toBe(instance);
      expect(instance.inner).toBe(inner);
      expect(copied['list']).not.toBe(list);
      expect(Array.isArray(copied['list'])).toBe(true);
      expect(copied['list']).toEqual([{ a: 1 }]);
    });

    it('copies a shared value once and a cycle as a cycle of the copy', () => {
      const shared = { s: 1 };
      const source = chain(100, { one: shared, two: shared });
      const deep = innermost(source);
      deep['self'] = deep;
      const copied = innermost(copyValue(source));
      expect(copied['one']).toBe(copied['two']);
      expect(copied['one']).not.toBe(shared);
      expect(copied['self']).toBe(copied);
    });

    it('keeps undefined values deep down as they are', () => {
      const source = chain(300, { gone: undefined, list: [undefined, 'x', 1] });
      const copied = innermost(copyValue(source));
      expect(Object.hasOwn(copied, 'gone')).toBe(true);
      expect(copied['gone']).toBeUndefined();
      expect(copied['list']).toEqual([undefined, 'x', 1]);
    });

    // The copy switches from recursion to its own stack 64 levels down: the value found there is where that stack starts.
    it('shares a class instance untouched at every depth around the switch to its own stack', () => {
      for (let depth = 60; depth <= 68; depth++) {
        const instance = new Kept({ n: 1 });
        const inner = instance.inner;
        const copied = innermost(copyValue(chain(depth, { instance })));
        expect(copied['instance'], `depth ${depth}`).toBe(instance);
        expect(instance.inner, `depth ${depth}`).toBe(inner);
        expect(Object.keys(instance)).toEqual(['inner']);
      }
    });

    it('copies a container that contains itself, from 64 levels down, into one that contains itself', () => {
      for (const levels of [65, 66, 70]) {
        const source = chain(levels, {});
        const deep = innermost(source);
        deep['self'] = deep;
        deep['list'] = [deep];
        const copied = innermost(copyValue(source));
        expect(copied, `levels ${levels}`).not.toBe(deep);
        expect(copied['self'], `levels ${levels}`).toBe(copied);
        expect((copied['list'] as unknown[])[0], `levels ${levels}`).toBe(copied);
      }
    });

    it('starts its own stack at a deep built-in, which arrives whole', () => {
      const date = new Date(9);
      let source: unknown = date;
      for (let i = 0; i < 80; i++) source = { next: source };
      let copied = copyValue(source) as { next?: unknown };
      for (let i = 0; i < 80; i++) copied = copied.next as { next?: unknown };
      expect(copied).toBeInstanceOf(Date);
      expect(copied).not.toBe(date);
    });
  });
});
