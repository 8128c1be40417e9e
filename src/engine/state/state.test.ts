import { describe, expect, it } from 'vitest';
import { splitStateDelta, withoutTempKeys } from './state-delta.js';
import { scopeOfKey } from './state-keys.js';
import { State } from './state.js';

describe('State', () => {
  it('reads the base, sees its own writes at once, and records them as a delta', () => {
    const base: Record<string, unknown> = { a: 1, 'app:x': 'shared' };
    const state = new State(base);
    expect(state.get('a')).toBe(1);
    state.set('temp:scratch', [1]);
    state.set('a', 2);
    expect(state.get('a')).toBe(2);
    expect(state.get('temp:scratch')).toEqual([1]);
    expect(state.delta()).toEqual({ 'temp:scratch': [1], a: 2 });
    expect(base['a']).toBe(2);
    expect(state.hasDelta()).toBe(true);
    expect(state.toRecord({ includeTemp: false })).toEqual({ a: 2, 'app:x': 'shared' });
  });

  it('hands out copies, so mutating a value read from state changes nothing', () => {
    const base: Record<string, unknown> = { list: [1, 2], nested: { deep: { n: 1 } } };
    const state = new State(base);
    (state.get('list') as number[]).push(3);
    (state.get<{ deep: { n: number } }>('nested') as { deep: { n: number } }).deep.n = 99;
    expect(state.get('list')).toEqual([1, 2]);
    expect(base['nested']).toEqual({ deep: { n: 1 } });
  });

  it('copies values on write, so the writer keeps no handle into state', () => {
    const state = new State({});
    const value = { n: 1 };
    state.set('v', value);
    value.n = 2;
    expect(state.get('v')).toEqual({ n: 1 });
    expect(state.delta()).toEqual({ v: { n: 1 } });
  });

  it('returns the fallback for an absent key', () => {
    expect(new State({}).get('missing', 'fallback')).toBe('fallback');
    expect(new State({}).has('missing')).toBe(false);
  });
});

describe('scopes', () => {
  it('reads the scope from the prefix', () => {
    expect(['app:a', 'user:b', 'temp:c', 'd', 'application:e'].map(scopeOfKey)).toEqual([
      'app',
      'user',
      'temp',
      'session',
      'session',
    ]);
  });

  it('splits a delta by owner and drops temp: keys', () => {
    expect(splitStateDelta({ 'app:a': 1, 'user:b': 2, 'temp:c': 3, d: 4 })).toEqual({
      app: { a: 1 },
      user: { b: 2 },
      session: { d: 4 },
    });
  });

  it('removes temp: keys without copying a delta that has none', () => {
    const delta = { a: 1 };
    expect(withoutTempKeys(delta)).toBe(delta);
    expect(withoutTempKeys({ a: 1, 'temp:b': 2 })).toEqual({ a: 1 });
  });
});

describe('prototype-safe state', () => {
  it('keeps a __proto__ key written through State as an own key, for the store to refuse by name', () => {
    const base: Record<string, unknown> = {};
    const state = new State(base);
    state.set('__proto__', { isAdmin: true });
    expect(Object.getPrototypeOf(base)).toBe(Object.prototype);
    expect((base as { isAdmin?: unknown }).isAdmin).toBeUndefined();
    expect(state.get('__proto__')).toEqual({ isAdmin: true });
    expect(Object.keys(state.delta())).toEqual(['__proto__']);
    expect(Object.keys(state.toRecord())).toEqual(['__proto__']);
  });

  it('splits a delta whose unprefixed key is __proto__ without touching a prototype', () => {
    const split = splitStateDelta({ 'app:__proto__': { x: 1 }, 'user:__proto__': 2 });
    expect(Object.getPrototypeOf(split.app)).toBe(Object.prototype);
    expect(Object.entries(split.app)).toEqual([['__proto__', { x: 1 }]]);
    expect(Object.entries(split.user)).toEqual([['__proto__', 2]]);
  });
});
