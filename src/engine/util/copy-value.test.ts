import { describe, expect, it } from 'vitest';
import { pyFloat } from '../python/python-values.js';
import { copyValue } from './copy-value.js';

describe('copyValue', () => {
  it('copies nested JSON deeply', () => {
    const value = { a: [1, { b: 2 }], c: null };
    const copy = copyValue(value);
    expect(copy).toEqual(value);
    expect(copy.a).not.toBe(value.a);
    expect(copy.a[1]).not.toBe(value.a[1]);
  });

  it('clones built-in containers and keeps class instances', () => {
    const bytes = new Uint8Array([1, 2]);
    const float = pyFloat(1);
    const copy = copyValue({ bytes, when: new Date(0), float });
    expect(copy.bytes).not.toBe(bytes);
    expect([...copy.bytes]).toEqual([1, 2]);
    expect(copy.when.getTime()).toBe(0);
    expect(copy.float).toBe(float);
  });
});

describe('copyValue on hostile values', () => {
  it('keeps a __proto__ key as an own key of the copy instead of setting its prototype', () => {
    const value = JSON.parse('{"profile": {"__proto__": {"isAdmin": true}, "name": "eve"}}') as {
      profile: Record<string, unknown>;
    };
    const copy = copyValue(value);
    expect(Object.getPrototypeOf(copy.profile)).toBe(Object.prototype);
    expect(copy.profile['isAdmin']).toBeUndefined();
    expect(Object.keys(copy.profile)).toEqual(['__proto__', 'name']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify(value));
  });

  it('copies 100,000 levels without overflowing the stack, deep __proto__ keys included', () => {
    let value: unknown = JSON.parse('{"__proto__": {"x": 1}}');
    for (let i = 0; i < 100_000; i++) value = i % 2 === 0 ? { a: value } : [value];
    let copy = copyValue(value);
    for (let i = 0; i < 100_000; i++) copy = i % 2 === 0 ? (copy as unknown[])[0] : (copy as { a: unknown }).a;
    expect(copy).not.toBe(value);
    expect(Object.keys(copy as object)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });

  it('ends on a value that contains itself (the copy contains itself too, for the JSON check to report)', () => {
    const loop: Record<string, unknown> = { name: 'loop' };
    loop['self'] = { again: loop };
    let copy = copyValue(loop) as Record<string, unknown>;
    for (let i = 0; i < 200; i++) copy = (copy['self'] as Record<string, unknown>)['again'] as Record<string, unknown>;
    expect(copy['name']).toBe('loop');
  });
});
