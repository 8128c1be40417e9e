import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { State } from './state.js';

const refusal = (call: () => void): ValidationError => {
  try {
    call();
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('no error');
};

describe('State operations', () => {
  it('apply at once to what later reads see, as set of the result would, and travel as operations', () => {
    const base: Record<string, unknown> = { 'user:turns': 4, log: ['a'] };
    const state = new State(base);
    state.add('user:turns', 1);
    state.append('log', 'b', { c: 1 });
    state.setField('user:prefs', 'theme', 'dark');
    state.addToSet('app:tags', 'x', 'x', 'y');
    expect(state.get('user:turns')).toBe(5);
    expect(state.get('log')).toEqual(['a', 'b', { c: 1 }]);
    expect(state.get('user:prefs')).toEqual({ theme: 'dark' });
    expect(state.get('app:tags')).toEqual(['x', 'y']);
    expect(base['user:turns']).toBe(5);
    expect(state.delta()).toEqual({});
    expect(state.hasDelta()).toBe(true);
    expect(state.stateOps()).toEqual([
      { op: 'add', key: 'user:turns', by: 1 },
      { op: 'append', key: 'log', items: ['b', { c: 1 }] },
      { op: 'setField', key: 'user:prefs', field: 'theme', value: 'dark' },
      { op: 'addToSet', key: 'app:tags', items: ['x', 'x', 'y'] },
    ]);
  });

  it('folds repeated operations, lets a set replace them, and turns an operation after a set into the value', () => {
    const state = new State({ 'user:n': 0 });
    state.add('user:n', 1);
    state.add('user:n', 2);
    expect(state.stateOps()).toEqual([{ op: 'add', key: 'user:n', by: 3 }]);
    state.set('user:n', 10);
    expect([state.stateOps(), state.delta()]).toEqual([[], { 'user:n': 10 }]);
    state.add('user:n', 5);
    expect([state.stateOps(), state.delta(), state.get('user:n')]).toEqual([[], { 'user:n': 15 }, 15]);
  });

  it('keeps temp: keys local: applied, never recorded as operations', () => {
    const state = new State({});
    state.add('temp:calls', 1);
    state.add('temp:calls', 1);
    expect(state.get('temp:calls')).toBe(2);
    expect([state.stateOps(), state.delta(), state.hasDelta()]).toEqual([[], {}, false]);
  });

  it('copies arguments, so the caller keeps no handle into state or the pending operation', () => {
    const state = new State({});
    const item = { n: 1 };
    state.append('log', item);
    item.n = 2;
    expect(state.get('log')).toEqual([{ n: 1 }]);
    expect(state.stateOps()).toEqual([{ op: 'append', key: 'log', items: [{ n: 1 }] }]);
  });

  it('refuses a value of another type in the tool that calls, changing nothing', () => {
    const state = new State({ 'user:name': 'Ada' });
    const error = refusal(() => state.add('user:name', 1));
    expect(error.message).toBe('Invalid state operation: user:name: add needs a number (or no value), found a string');
    expect(error.hint).toBe('Set the key to a number first, or use set() to replace its value.');
    expect([state.get('user:name'), state.stateOps()]).toEqual(['Ada', []]);
  });

  it('refuses bad arguments when the operation is made: non-finite numbers, __proto__, values JSON cannot hold', () => {
    const state = new State({});
    expect(refusal(() => state.add('n', Number.NaN)).message).toBe(
      'Invalid state operation add on "n": by: must be a finite number',
    );
    expect(refusal(() => state.add('n', Infinity)).message).toBe(
      'Invalid state operation add on "n": by: must be a finite number',
    );
    expect(refusal(() => state.add('n', '1' as unknown as number)).message).toBe(
      'Invalid state operation add on "n": by: must be a finite number',
    );
    expect(refusal(() => state.setField('o', '__proto__', 1)).message).toMatch(/field: is not a usable field name/);
    expect(refusal(() => state.setField('o', 'f', undefined)).message).toMatch(/value: is required/);
    expect(refusal(() => state.append('user:__proto__', 1)).message).toMatch(/key: is not a usable state key/);
    const json = refusal(() => state.append('log', () => 1));
    expect(json.message).toBe(
      'Invalid state operation append on "log": items[0]: cannot be stored as JSON (found a function)',
    );
    expect(json.hint).toMatch(/plain JSON data/);
    expect([state.toRecord(), state.stateOps()]).toEqual([{}, []]);
  });
});
