import { describe, expect, it } from 'vitest';
import { applyWireDelta, commonEnds, WireDeltas } from './wire-deltas.js';

/** Encodes `bodies` in order as one session's, rebuilding each from what would be stored, as `getModelCall` does. */
function roundTrip(bodies: readonly string[]): { rebuilt: string[]; deltas: number } {
  const deltas = new WireDeltas();
  const whole = new Map<number, string>();
  let count = 0;
  const rebuilt = bodies.map((body, n) => {
    const stored = deltas.encode('s', body);
    let again = stored.text;
    if (stored.delta !== undefined) {
      count += 1;
      again = applyWireDelta(whole.get(stored.delta.base) as string, stored.delta, stored.text);
    }
    whole.set(n + 1, again);
    stored.remember(n + 1);
    return again;
  });
  return { rebuilt, deltas: count };
}

describe('wire deltas', () => {
  it('finds the shared start and end without letting them overlap', () => {
    expect(commonEnds('abcXYZdef', 'abcQdef')).toEqual({ prefix: 3, suffix: 3 });
    expect(commonEnds('aaaa', 'aa')).toEqual({ prefix: 2, suffix: 0 });
    expect(commonEnds('same', 'same')).toEqual({ prefix: 4, suffix: 0 });
    expect(commonEnds('', 'abc')).toEqual({ prefix: 0, suffix: 0 });
    expect(commonEnds('abc', 'xyz')).toEqual({ prefix: 0, suffix: 0 });
    expect(commonEnds('xab', 'ab')).toEqual({ prefix: 0, suffix: 2 });
  });

  it('rebuilds every body exactly: growing, identical, empty, unrelated, unicode, cut inside a surrogate pair', () => {
    const history = Array.from(
      { length: 20 },
      (_, n) => `{"role":"user","content":"message ${n} héllo 👋 こんにちは ${'x'.repeat(n * 10)}"}`,
    );
    const growing = history.map(
      (_, n) =>
        `{"model":"m","messages":[${history.slice(0, n + 1).join(',')}],"tools":[{"name":"t","description":"${'d'.repeat(100)}"}]}`,
    );
    const last = growing.at(-1) as string;
    const bodies = [
      ...growing,
      last,
      '',
      last,
      'nothing in common with anything before',
      last.replace('👋', '👍'),
      `\ud800 lone ${last} \udc00`,
      `${last}\u0000`,
      '',
    ];
    const { rebuilt, deltas } = roundTrip(bodies);
    expect(rebuilt).toEqual(bodies);
    expect(deltas).toBeGreaterThanOrEqual(20);
  });

  it('stores a growing body as little more than what was added', () => {
    const deltas = new WireDeltas();
    const first = `{"messages":["${'a'.repeat(5000)}"],"tools":"${'t'.repeat(3000)}"}`;
    deltas.encode('s', first).remember(1);
    const second = first.replace('"],', '","new turn"],');
    const stored = deltas.encode('s', second);
    expect(stored.delta).toMatchObject({ base: 1 });
    expect((stored.delta?.prefix ?? 0) + (stored.delta?.suffix ?? 0)).toBe(first.length);
    expect(stored.text).toHaveLength('","new turn'.length);
    expect(applyWireDelta(first, stored.delta ?? { prefix: 0, suffix: 0 }, stored.text)).toBe(second);
    expect(stored.baseHash).toBe(deltas.encode('other', first).hash);
  });

  it('stores a body whole when it shares little, when the chain is long, and after the session is forgotten', () => {
    const deltas = new WireDeltas();
    deltas.encode('s', 'short body').remember(1);
    expect(deltas.encode('s', 'short body!').delta).toBeUndefined();
    const body = (n: number) => `${'p'.repeat(200)}${n}${'s'.repeat(200)}`;
    const kinds: boolean[] = [];
    for (let n = 0; n < 70; n++) {
      const stored = deltas.encode('s', body(n));
      kinds.push(stored.delta !== undefined);
      stored.remember(n + 2);
    }
    // Whole, then 32 differences, whole again, and so on.
    expect(kinds.map((delta, n) => (delta ? '' : n)).filter((n) => n !== '')).toEqual([0, 33, 66]);
    deltas.forget('s');
    expect(deltas.encode('s', body(1)).delta).toBeUndefined();
  });
});
