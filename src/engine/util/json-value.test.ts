import { describe, expect, it } from 'vitest';
import { identifierProblem, loneSurrogateAt } from './identifier.js';
import { deepFreeze, findNonJson, inspectJson, MAX_JSON_DEPTH } from './json-value.js';

const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

describe('findNonJson', () => {
  it('names the first value JSON cannot hold, by path', () => {
    expect(findNonJson({ a: [1, { b: 10n }] }, 'v')).toEqual({ path: 'v.a[1].b', found: 'a bigint' });
    expect(findNonJson({ 'odd key': NaN }, 'v')).toEqual({ path: 'v["odd key"]', found: 'NaN' });
    expect(findNonJson({ m: new Map() }, 'v')).toEqual({ path: 'v.m', found: 'an instance of Map' });
    expect(findNonJson(() => 1, 'v')).toEqual({ path: 'v', found: 'a function' });
    expect(findNonJson({ when: new Date(0), list: [null, true, 'x'] }, 'v')).toBeUndefined();
  });

  it('tells a cycle from a value shared twice', () => {
    const shared = { n: 1 };
    expect(findNonJson({ a: shared, b: [shared] }, 'v')).toBeUndefined();
    const loop: Record<string, unknown> = {};
    loop['x'] = [{ back: loop }];
    expect(findNonJson(loop, 'v')).toEqual({ path: 'v.x[0].back', found: 'a circular reference' });
  });

  it('allows MAX_JSON_DEPTH levels and refuses one more, however deep, without recursion', () => {
    expect(inspectJson(nested(MAX_JSON_DEPTH), 'v')).toEqual({ problem: undefined, depth: MAX_JSON_DEPTH });
    expect(findNonJson(nested(MAX_JSON_DEPTH + 1), 'v')?.found).toBe('more than 512 levels of nesting');
    expect(findNonJson(nested(100_000), 'v')).toEqual({
      path: 'v.a.a.a.a.a.a.a.a…(512 levels down)',
      found: 'more than 512 levels of nesting',
    });
    expect(findNonJson({ a: { b: {} } }, 'v', { maxDepth: 2 })).toEqual({
      path: 'v.a.b',
      found: 'more than 2 levels of nesting',
    });
  });

  it('freezes deep values without recursion', () => {
    const value = nested(200_000) as { a: unknown };
    deepFreeze(value);
    expect(Object.isFrozen(value) && Object.isFrozen(value.a)).toBe(true);
  });
});

describe('identifierProblem', () => {
  it('accepts well-formed text, astral pairs included', () => {
    expect(['s1', 'é', 's😀', '', 'a\ud83d\ude00b'].map(identifierProblem)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('names the first lone surrogate or NUL and where it is', () => {
    expect(identifierProblem('s\ud800')).toBe(
      'contains a lone surrogate (\\ud800) at index 1: it is not well-formed Unicode',
    );
    expect(identifierProblem('\ude00x')).toMatch(/\\ude00\) at index 0/);
    expect(identifierProblem('ab\ud83d')).toMatch(/\\ud83d\) at index 2/);
    expect(identifierProblem('a\u0000\ud800')).toBe('contains a NUL character (\\u0000) at index 1');
    expect(loneSurrogateAt('😀\udc00😀')).toBe(2);
  });
});
