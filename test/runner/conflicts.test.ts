import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { z } from 'zod';
import type { Event } from '../../src/contracts/event.js';
import type { Model } from '../../src/contracts/model.js';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { defineRows } from '../reliability/rows.js';

// Runners that know nothing of each other share one session or one user, and their turns interleave: on one memory
// store, and on one SQLite file opened by a store (a connection) per runner, as separate processes would.
const tick = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 3));
const note = functionTool({
  name: 'note',
  description: 'Notes the turn.',
  parameters: z.object({ turn: z.string() }),
  execute: async ({ turn }, context) => {
    await tick();
    const count = (context.state.get('user:turns') as number | undefined) ?? 0;
    context.state.set('user:turns', count + 1);
    return { noted: turn };
  },
});

/** Calls `note` once for the user's message, then answers; waits a little at each call so writers interleave. */
const model: Model = {
  specificationVersion: 'v1',
  provider: 'test',
  modelId: 'interleaving',
  generate: async (request) => {
    await tick();
    const last = request.messages.at(-1);
    if (last?.content.some((part) => 'functionResponse' in part))
      return { content: { role: 'model', parts: [{ text: 'noted' }] } };
    const text = last?.content.find((part): part is { text: string } => 'text' in part)?.text ?? '';
    return { content: { role: 'model', parts: [{ functionCall: { name: 'note', args: { turn: text } } }] } };
  },
};

const folder = mkdtempSync(join(tmpdir(), 'agentctx-conflicts-'));
let files = 0;

/** Two stores over the same data: the memory store twice, or two connections to one new SQLite file. */
function twoStores(kind: 'memory' | 'sqlite'): [SessionStore, SessionStore] {
  if (kind === 'memory') {
    const store = createInMemorySessionStore();
    return [store, store];
  }
  const path = join(folder, `conflicts-${++files}.db`);
  return [createSqliteSessionStore({ path }), createSqliteSessionStore({ path })];
}

/** Counts the appends a store refused (stale copies), passing the refusal on. */
function countingRefusals(store: SessionStore): { store: SessionStore; refused: () => number } {
  let refused = 0;
  const append = store.appendEvent.bind(store);
  store.appendEvent = (input) =>
    append(input).catch((error: unknown) => {
      refused += 1;
      throw error;
    });
  return { store, refused: () => refused };
}

async function oneSessionTwoRunners(kind: 'memory' | 'sqlite'): Promise<void> {
  const [first, second] = twoStores(kind);
  const counted = [countingRefusals(first), ...(first === second ? [] : [countingRefusals(second)])];
  const agents = llmAgent({ name: 'scribe', tools: [note] });
  const runners = [createRunner({ agents, model, sessions: first }), createRunner({ agents, model, sessions: second })];
  await runners[0]?.createSession({ userId: 'u', sessionId: 's' });
  const turns = Array.from({ length: 8 }, (_, index) => `turn ${index}`);
  const results = await Promise.all(
    turns.map(async (message, index) => {
      const events: Event[] = [];
      for await (const event of (runners[index % 2] as (typeof runners)[0]).run({
        userId: 'u',
        sessionId: 's',
        message,
      }))
        events.push(event);
      return events;
    }),
  );
  const stored = await first.getSession({ appName: 'scribe', userId: 'u', sessionId: 's' });
  const ids = (stored?.events ?? []).map((event) => event.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const events of results) {
    // Every event a client was given is stored, in the order it was given.
    const positions = events.map((event) => ids.indexOf(event.id));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(events.at(-1)?.content?.parts[0]).toEqual({ text: 'noted' });
  }
  expect(
    stored?.events.filter((event) => event.content?.parts.some((part) => 'functionResponse' in part)),
  ).toHaveLength(turns.length);
  expect(counted.reduce((sum, { refused }) => sum + refused(), 0)).toBeGreaterThan(0);
  // The tool's read-modify-write of a shared key lost no increment: a stale one was refused and the tool ran again.
  expect(stored?.state['user:turns']).toBe(turns.length);
  for (const store of new Set([first, second])) await store.close();
}

async function sessionsOfOneUser(kind: 'memory' | 'sqlite'): Promise<void> {
  const [first, second] = twoStores(kind);
  const agents = llmAgent({ name: 'scribe', tools: [note] });
  const runners = [createRunner({ agents, model, sessions: first }), createRunner({ agents, model, sessions: second })];
  const ids = Array.from({ length: 6 }, (_, index) => `s${index}`);
  for (const sessionId of ids) await runners[0]?.createSession({ userId: 'u', sessionId });
  await Promise.all(
    ids.map(async (sessionId, index) => {
      for await (const _event of (runners[index % 2] as (typeof runners)[0]).run({
        userId: 'u',
        sessionId,
        message: `hello from ${sessionId}`,
      }));
    }),
  );
  const state = (await second.getSession({ appName: 'scribe', userId: 'u', sessionId: 's0' }))?.state;
  expect(state?.['user:turns']).toBe(ids.length);
  for (const store of new Set([first, second])) await store.close();
}

export const rows = defineRows(
  import.meta.url,
  'faults',
  (['memory', 'sqlite'] as const).flatMap((kind) => [
    {
      id: `conflict.one-session.${kind}`,
      entry: `invocation (${kind === 'memory' ? 'memory' : 'SQLite, two connections'})`,
      tried:
        'eight turns of one session at once from two runners that know nothing of each other, each calling a tool that increments `user:turns` (read, then write)',
      expected:
        'every event a client was given is stored once, in the order given; stale appends are refused and retried after a reload (the tool runs again on fresh state), so `user:turns` ends at 8',
      run: () => oneSessionTwoRunners(kind),
    },
    {
      id: `conflict.user-key.${kind}`,
      entry: `invocation (${kind === 'memory' ? 'memory' : 'SQLite, two connections'})`,
      tried:
        "six sessions of one user running at once from two runners, each turn incrementing the user's `user:turns`",
      expected: 'no increment is lost: `user:turns` ends at 6 in every session of the user',
      run: () => sessionsOfOneUser(kind),
    },
  ]),
  { afterAll: () => rmSync(folder, { recursive: true, force: true }) },
);
