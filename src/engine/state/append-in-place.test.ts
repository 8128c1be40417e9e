import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StateOp } from '../../contracts/state-op.js';
import { applyStateOp } from './apply-state-op.js';
import { State } from './state.js';

// Appends to a list this view made are pushed in place (20,000 appends in one tool took 19 s, copying the list each
// time); lists that came from elsewhere are never changed.

describe('State: appends in place', () => {
  it('extends its own list instead of copying it, and keeps one append operation', () => {
    const base: Record<string, unknown> = {};
    const state = new State(base);
    state.append('log', 0);
    const list = base['log'];
    for (let index = 1; index < 20_000; index++) state.append('log', index);
    expect(base['log']).toBe(list);
    expect(state.get<number[]>('log')).toHaveLength(20_000);
    const ops = state.stateOps();
    expect(ops).toHaveLength(1);
    expect(ops[0]).toMatchObject({ op: 'append', key: 'log' });
    expect((ops[0] as { items: number[] }).items).toEqual(Array.from({ length: 20_000 }, (_, index) => index));
  });

  it('never changes a list it was given: the session’s, one set, or what it handed out', () => {
    const given = ['a'];
    const base: Record<string, unknown> = { log: given, other: ['x'] };
    const state = new State(base);
    state.append('log', 'b');
    state.append('log', 'c');
    expect(given).toEqual(['a']);
    const mine = ['s'];
    state.set('other', mine);
    state.append('other', 't');
    state.append('other', 'u');
    expect(mine).toEqual(['s']);
    const handedOut = state.stateOps();
    const delta = state.delta();
    state.append('log', 'd');
    expect(handedOut).toEqual([{ op: 'append', key: 'log', items: ['b', 'c'] }]);
    expect(delta).toEqual({ other: ['s', 't', 'u'] });
    expect(state.get('log')).toEqual(['a', 'b', 'c', 'd']);
    expect(state.delta()).toEqual({ other: ['s', 't', 'u'] });
  });

  it('gives the values, delta and operations that copying would, for any sequence of writes', () => {
    const key = fc.constantFrom('log', 'temp:log', 'user:log', 'n');
    const write = fc.oneof(
      fc.record({ kind: fc.constant('append' as const), key, items: fc.array(fc.integer(), { maxLength: 3 }) }),
      fc.record({
        kind: fc.constant('set' as const),
        key,
        value: fc.oneof(fc.array(fc.integer(), { maxLength: 2 }), fc.integer()),
      }),
      fc.record({ kind: fc.constant('add' as const), key, by: fc.integer({ min: -5, max: 5 }) }),
    );
    fc.assert(
      fc.property(fc.array(write, { maxLength: 30 }), (writes) => {
        const state = new State({});
        // The model: every value copied on every write.
        const visible = new Map<string, unknown>();
        for (const each of writes) {
          const current = visible.get(each.key);
          if (each.kind === 'set') {
            state.set(each.key, each.value);
            visible.set(each.key, structuredClone(each.value));
            continue;
          }
          const op: StateOp =
            each.kind === 'append'
              ? { op: 'append', key: each.key, items: each.items }
              : { op: 'add', key: each.key, by: each.by };
          let expected: unknown;
          try {
            expected = applyStateOp(current, structuredClone(op));
          } catch {
            expect(() =>
              each.kind === 'append' ? state.append(each.key, ...each.items) : state.add(each.key, each.by),
            ).toThrow();
            continue;
          }
          if (each.kind === 'append') state.append(each.key, ...each.items);
          else state.add(each.key, each.by);
          visible.set(each.key, expected);
        }
        for (const [name, value] of visible) expect(state.get(name)).toEqual(value);
        // What travels on the event (the delta, then the operations) rebuilds every key that is not temp:.
        const rebuilt: Record<string, unknown> = { ...state.delta() };
        for (const op of state.stateOps()) rebuilt[op.key] = applyStateOp(rebuilt[op.key], op);
        for (const [name, value] of visible) if (!name.startsWith('temp:')) expect(rebuilt[name]).toEqual(value);
      }),
      { seed: 43, numRuns: 300 },
    );
  });
});
