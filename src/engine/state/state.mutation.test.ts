import { describe, expect, it } from 'vitest';
import { State } from './state.js';

// `State` pinned where mutants of it survived `npm run mutate -- state` (docs/mutation.md).
describe('State, beyond the basics', () => {
  it('reads its pending writes before the base it was given', () => {
    const state = new State({ a: 'base', b: 'base' }, { a: 'pending' });
    expect(state.get('a')).toBe('pending');
    expect(state.get('b')).toBe('base');
  });

  it('has a key that is only pending, or only in the base', () => {
    expect(new State({}, { pending: 1 }).has('pending')).toBe(true);
    expect(new State({ base: 1 }).has('base')).toBe(true);
    expect(new State({ base: 1 }, { pending: 1 }).has('neither')).toBe(false);
  });

  it('has no delta until something is written, and records every key of an update', () => {
    const base: Record<string, unknown> = { kept: 0 };
    const state = new State(base);
    expect(state.hasDelta()).toBe(false);
    const written = { list: [1] };
    state.update({ a: 1, b: written, 'temp:c': 3 });
    written.list.push(2);
    expect(state.hasDelta()).toBe(true);
    expect(state.delta()).toEqual({ a: 1, b: { list: [1] }, 'temp:c': 3 });
    expect(base).toEqual({ kept: 0, a: 1, b: { list: [1] }, 'temp:c': 3 });
  });

  it('includes temp: keys in a record unless told not to', () => {
    const state = new State({ a: 1 });
    state.set('temp:t', 2);
    expect(state.toRecord()).toEqual({ a: 1, 'temp:t': 2 });
    expect(state.toRecord({ includeTemp: true })).toEqual({ a: 1, 'temp:t': 2 });
    expect(state.toRecord({ includeTemp: false })).toEqual({ a: 1 });
  });

  it('hands out a record that shares nothing with the state', () => {
    const state = new State({ nested: { n: 1 } });
    const record = state.toRecord();
    (record['nested'] as { n: number }).n = 2;
    expect(state.get('nested')).toEqual({ n: 1 });
    const delta = state.delta();
    delta['x'] = 1;
    expect(state.hasDelta()).toBe(false);
  });
});
