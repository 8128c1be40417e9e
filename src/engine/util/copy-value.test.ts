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
