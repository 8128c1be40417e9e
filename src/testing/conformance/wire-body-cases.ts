import { expect, it } from 'vitest';
import { startOver } from './log-sessions.js';
import { growingBodies, modelCallFixtures, type CallLogSetup, type TwinLog } from './model-call-fixtures.js';

/**
 * Wire bodies, given back exactly: growing, empty, repeated, unrelated or cut inside a character; recorded after the
 * fact; completed out of order, in parallel, across a session deleted and made again, and through a second log over
 * the same storage (a store may keep a body as its difference from an earlier one).
 */
export function wireBodyCases(setup: CallLogSetup, twin: TwinLog | undefined): void {
  const { start, codeOf, newCall, answered } = modelCallFixtures(setup);
  it('gives back the exact wire body of 30 consecutive calls whose bodies grow', async () => {
    const { store, key } = await start();
    const bodies = growingBodies(30);
    for (const [n, body] of bodies.entries()) {
      const index = await store.recordModelCall({ ...key, call: newCall(n + 1) });
      await store.completeModelCall({ ...key, index, outcome: answered(body, index) });
    }
    for (const [n, body] of bodies.entries())
      expect((await store.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
  });

  it('gives back exact wire bodies that are empty, repeated, unrelated, or cut inside a character', async () => {
    const { store, key } = await start();
    const long = `{"messages":[${'"héllo 👋 こんにちは",'.repeat(40)}"end"]}`;
    const bodies = [
      long,
      long,
      '',
      long,
      'completely different text that shares nothing whatsoever with what came before it, not even its first letter',
      `${long.slice(0, 200)}\u0000${long.slice(200)}`,
      // Differs from the body before in the low half of a surrogate pair: the difference starts inside a character.
      `${long.slice(0, 200)}\u0000${long.slice(200)}`.replace('👋', '👍'),
      `lone \ud800 surrogate ${long}`,
      long,
    ];
    for (const [n, body] of bodies.entries()) {
      const index = await store.recordModelCall({ ...key, call: newCall(n + 1) });
      await store.completeModelCall({ ...key, index, outcome: answered(body, index) });
    }
    for (const [n, body] of bodies.entries())
      expect((await store.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
  });

  it('gives back a call recorded with its wire body after the fact, and later bodies built on it', async () => {
    const { store, key } = await start();
    const bodies = growingBodies(4);
    for (const [n, body] of bodies.entries())
      await store.recordModelCall({ ...key, call: { ...newCall(n + 1), ...answered(body, n + 1) } });
    for (const [n, body] of bodies.entries())
      expect((await store.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
  });

  it('completes calls out of order, in parallel, and after the session was deleted and made again', async () => {
    const { store, key } = await start();
    const bodies = growingBodies(8);
    const indexes = await Promise.all(
      bodies.map((_body, n) => store.recordModelCall({ ...key, call: newCall(n + 1) })),
    );
    await store.completeModelCall({ ...key, index: 5, outcome: answered(bodies[4] as string, 5) });
    await Promise.all(
      [3, 1, 8, 2].map((index) =>
        store.completeModelCall({ ...key, index, outcome: answered(bodies[index - 1] as string, index) }),
      ),
    );
    for (const index of [7, 6, 4])
      await store.completeModelCall({ ...key, index, outcome: answered(bodies[index - 1] as string, index) });
    for (const index of indexes)
      expect((await store.getModelCall({ ...key, index }))?.wire?.body).toBe(bodies[index - 1]);

    await startOver(store, key);
    expect(await store.listModelCalls(key)).toEqual([]);
    expect(await store.getModelCall({ ...key, index: 1 })).toBeUndefined();
    expect((await codeOf(store.completeModelCall({ ...key, index: 1, outcome: answered('{}') }))).code).toBe(
      'not_found',
    );
    const other = growingBodies(3, 'again');
    for (const [n, body] of other.entries()) {
      const index = await store.recordModelCall({ ...key, call: newCall(n + 1) });
      await store.completeModelCall({ ...key, index, outcome: answered(body, index) });
    }
    for (const [n, body] of other.entries())
      expect((await store.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
  });

  if (twin !== undefined) {
    it('completes through a second store a call the first recorded, and both give back every body exactly', async () => {
      const { store: first, key } = await start();
      const second = await twin(first);
      const bodies = growingBodies(12);
      for (const [n, body] of bodies.entries()) {
        // Calls alternate between the stores, and each is completed by the store that did not record it.
        const [recorder, completer] = n % 3 === 0 ? [first, second] : [second, first];
        const index = await recorder.recordModelCall({ ...key, call: newCall(n + 1) });
        await completer.completeModelCall({ ...key, index, outcome: answered(body, index) });
      }
      for (const reader of [first, second])
        for (const [n, body] of bodies.entries())
          expect((await reader.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
      expect((await codeOf(second.completeModelCall({ ...key, index: 2, outcome: answered('{}') }))).code).toBe(
        'already_exists',
      );
    });

    it('gives back the exact body when the call a store would build on was deleted and made again by another store', async () => {
      const { store: first, key } = await start();
      const second = await twin(first);
      const shared = growingBodies(3);
      for (const [n, body] of shared.entries()) {
        await first.recordModelCall({ ...key, call: newCall(n + 1) });
        await first.completeModelCall({ ...key, index: n + 1, outcome: answered(body, n + 1) });
      }
      // The second store makes the session again, with calls of the same times and body lengths but other text.
      await startOver(second, key);
      const replaced = shared.map((body) => body.replace(/turn/g, 'TURN'));
      for (const [n, body] of replaced.entries()) {
        await second.recordModelCall({ ...key, call: newCall(n + 1) });
        await second.completeModelCall({ ...key, index: n + 1, outcome: answered(body, n + 1) });
      }
      const next = growingBodies(4)[3] as string;
      const index = await first.recordModelCall({ ...key, call: newCall(4) });
      await first.completeModelCall({ ...key, index, outcome: answered(next, index) });
      for (const reader of [first, second]) {
        expect((await reader.getModelCall({ ...key, index }))?.wire?.body).toBe(next);
        for (const [n, body] of replaced.entries())
          expect((await reader.getModelCall({ ...key, index: n + 1 }))?.wire?.body).toBe(body);
      }
    });
  }
}
