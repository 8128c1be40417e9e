import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ToolContext } from '../../src/contracts/contexts.js';
import type { Event } from '../../src/contracts/event.js';
import type { Model } from '../../src/contracts/model.js';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { formatEvent } from '../../src/cli/format-event.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { agentTool } from '../../src/engine/tools/agent-tool.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createPostgresSessionStore } from '../../src/stores/postgres/create-postgres-store.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { createTestDatabase, skipWithoutPostgres, TEST_POSTGRES_URL } from '../support/postgres.js';

// Many sessions of one user, run at once by two runners over one store's data (two connections for SQLite and
// PostgreSQL, as two processes would have), each turn counting itself in `user:turns` and logging itself in
// `user:log`. With state operations no write is ever refused, so the runners retry nothing.

type CountTool = (args: { turn: string }, context: ToolContext) => Record<string, unknown>;
// bench:scale's tool bodies: the read-modify-write one, and the same work with state operations.
const { countTurn, countTurnWithOps } = (await import(new URL('../../bench/count-turn.mjs', import.meta.url).href)) as {
  countTurn: CountTool;
  countTurnWithOps: CountTool;
};
const tick = () => new Promise((resolve) => setTimeout(resolve, Math.random() * 3));

function countingAgent(count: CountTool) {
  const tool = functionTool({
    name: 'count_turn',
    description: 'Counts the turn.',
    parameters: z.object({ turn: z.string() }),
    execute: async (args, context) => {
      await tick();
      const result = count(args, context);
      context.state.append('user:log', args.turn);
      return result;
    },
  });
  return llmAgent({ name: 'counter', instruction: 'Turns so far: {user:turns?}.', tools: [tool] });
}

/** Calls count_turn once for the user's message, then answers with the first line of the system text it was given. */
const model: Model = {
  specificationVersion: 'v1',
  provider: 'test',
  modelId: 'counting',
  generate: async (request) => {
    await tick();
    const last = request.messages.at(-1);
    if (last?.content.some((part) => 'functionResponse' in part))
      return { content: { role: 'model', parts: [{ text: request.system.split('\n')[0] ?? '' }] } };
    const text = last?.content.find((part): part is { text: string } => 'text' in part)?.text ?? '';
    return { content: { role: 'model', parts: [{ functionCall: { name: 'count_turn', args: { turn: text } } }] } };
  },
};

type Result = { conflictsRetried: number; state: Record<string, unknown>; errors: string[]; events: Event[][] };

async function runMany(
  stores: [SessionStore, SessionStore],
  count: CountTool,
  sessions = 6,
  turns = 3,
): Promise<Result> {
  const agents = countingAgent(count);
  const runners = stores.map((sessionStore) => createRunner({ agents, model, sessions: sessionStore }));
  const ids = Array.from({ length: sessions }, (_, index) => `s${index}`);
  for (const sessionId of ids) await runners[0]?.createSession({ userId: 'u', sessionId });
  const events = await Promise.all(
    ids.map(async (sessionId, index) => {
      const runner = runners[index % 2] as (typeof runners)[number];
      const seen: Event[] = [];
      for (let turn = 0; turn < turns; turn++)
        for await (const event of runner.run({ userId: 'u', sessionId, message: `${sessionId} turn ${turn}` }))
          seen.push(event);
      return seen;
    }),
  );
  const state = (await stores[1].getSession({ appName: 'counter', userId: 'u', sessionId: 's0' }))?.state ?? {};
  return {
    conflictsRetried: runners.reduce((sum, runner) => sum + runner.stats.conflictsRetried, 0),
    state,
    errors: events
      .flat()
      .flatMap((event) => (event.errorCode === undefined ? [] : [`${event.errorCode}: ${event.errorMessage}`])),
    events,
  };
}

function expectCounted(result: Result, sessions = 6, turns = 3): void {
  expect(result.errors).toEqual([]);
  expect(result.state['user:turns']).toBe(sessions * turns);
  expect(result.state['turns']).toBe(turns);
  expect([...(result.state['user:log'] as string[])].sort()).toEqual(
    Array.from({ length: sessions }, (_, s) => Array.from({ length: turns }, (__, t) => `s${s} turn ${t}`))
      .flat()
      .sort(),
  );
}

const folder = mkdtempSync(join(tmpdir(), 'agentctx-state-ops-'));
let files = 0;
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const closing: SessionStore[] = [];
afterAll(async () => {
  for (const store of closing) await store.close();
});

function pair(kind: 'memory' | 'sqlite'): [SessionStore, SessionStore] {
  if (kind === 'memory') {
    const store = createInMemorySessionStore();
    return [store, store];
  }
  const path = join(folder, `ops-${++files}.db`);
  const stores: [SessionStore, SessionStore] = [createSqliteSessionStore({ path }), createSqliteSessionStore({ path })];
  closing.push(...stores);
  return stores;
}

async function comparison(stores: () => Promise<[SessionStore, SessionStore]>): Promise<void> {
  const withOps = await runMany(await stores(), countTurnWithOps);
  expectCounted(withOps);
  expect(withOps.conflictsRetried).toBe(0);
  // The same work as a read-modify-write of user:turns is correct too, but only by retrying refused appends.
  const readModifyWrite = await runMany(await stores(), countTurn);
  expect(readModifyWrite.errors).toEqual([]);
  expect(readModifyWrite.state['user:turns']).toBe(18);
  console.info(
    `conflicts retried, 6 sessions × 3 turns: ${withOps.conflictsRetried} with state operations, ${readModifyWrite.conflictsRetried} with read-modify-write`,
  );
}

describe('state operations in the runner', () => {
  it('counts every turn of many sessions of one user without a conflict: memory', () =>
    comparison(async () => pair('memory')));
  it('counts every turn of many sessions of one user without a conflict: SQLite, two connections', () =>
    comparison(async () => pair('sqlite')));

  it('shows the tool and the next instruction the value a set would give, and stores the operations on the event', async () => {
    const stores = pair('memory');
    const result = await runMany(stores, countTurnWithOps, 1, 2);
    // Each turn: the user's message, the call, the tool's response, the answer.
    const [first, second] = [result.events[0]?.slice(0, 4), result.events[0]?.slice(4)];
    const response = (events: Event[] | undefined) => events?.[2]?.content?.parts[0];
    expect(response(first)).toMatchObject({
      functionResponse: { response: { counted: 's0 turn 0', userTurns: 1, turns: 1 } },
    });
    expect(response(second)).toMatchObject({
      functionResponse: { response: { counted: 's0 turn 1', userTurns: 2, turns: 2 } },
    });
    // The model's answer quotes the instruction it was given after the tool ran: the count includes the tool's add.
    expect(first?.[3]?.content?.parts[0]).toEqual({ text: 'Turns so far: 1.' });
    expect(second?.[3]?.content?.parts[0]).toEqual({ text: 'Turns so far: 2.' });
    const toolEvent = first?.[2] as Event;
    expect(toolEvent.actions.stateDelta).toEqual({});
    expect(toolEvent.actions.stateOps).toEqual([
      { op: 'add', key: 'user:turns', by: 1 },
      { op: 'add', key: 'turns', by: 1 },
      { op: 'append', key: 'user:log', items: ['s0 turn 0'] },
    ]);
    const plain = {
      bold: (text: string) => text,
      dim: (text: string) => text,
      red: (text: string) => text,
      cyan: (text: string) => text,
      yellow: (text: string) => text,
    } as Parameters<typeof formatEvent>[1];
    expect(formatEvent(toolEvent, plain)).toContain(
      '    state: user:turns += 1, turns += 1, user:log append ["s0 turn 0"]',
    );
    // A plain set gives the same text.
    const withSet = await runMany(pair('memory'), countTurn, 1, 2);
    expect(withSet.events[0]?.[7]?.content?.parts[0]).toEqual({ text: 'Turns so far: 2.' });
  });

  it('passes an agent tool’s operations back as operations, and its sets as sets', async () => {
    const bump = functionTool({
      name: 'bump',
      description: 'Counts.',
      execute: (_args, context) => {
        context.state.add('user:n', 2);
        context.state.append('log', 'child');
        context.state.set('plain', 'set by child');
        return { ok: true };
      },
    });
    const child = llmAgent({ name: 'child', description: 'Bumps.', tools: [bump] });
    const scripted = createScriptedModel({
      rules: [
        { when: { agent: 'parent', call: 1 }, respond: { functionCall: { name: 'child', args: { request: 'bump' } } } },
        { when: { agent: 'child', afterToolResponse: 'bump' }, respond: { text: 'bumped' } },
        { when: { agent: 'child' }, respond: { functionCall: { name: 'bump', args: {} } } },
        { when: { agent: 'parent' }, respond: { text: 'done' } },
      ],
    });
    const sessions = createInMemorySessionStore();
    const runner = createRunner({
      agents: llmAgent({ name: 'parent', tools: [agentTool(child)] }),
      model: scripted,
      sessions,
    });
    await runner.createSession({ userId: 'u', sessionId: 's', state: { 'user:n': 1, log: ['parent'] } });
    const events: Event[] = [];
    for await (const event of runner.run({ userId: 'u', sessionId: 's', message: 'go' })) events.push(event);
    const response = events.find((event) => event.content?.parts.some((part) => 'functionResponse' in part));
    expect(response?.actions.stateDelta).toEqual({ plain: 'set by child' });
    expect(response?.actions.stateOps).toEqual([
      { op: 'add', key: 'user:n', by: 2 },
      { op: 'append', key: 'log', items: ['child'] },
    ]);
    expect((await sessions.getSession({ appName: 'parent', userId: 'u', sessionId: 's' }))?.state).toEqual({
      'user:n': 3,
      log: ['parent', 'child'],
      plain: 'set by child',
    });
  });
});

if (TEST_POSTGRES_URL === undefined) {
  skipWithoutPostgres('state operations in the runner on PostgreSQL');
} else {
  const server = TEST_POSTGRES_URL;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let schemas = 0;
  beforeAll(async () => {
    database = await createTestDatabase(server, 'state_ops');
  });
  afterAll(async () => {
    for (const store of closing.splice(0)) await store.close();
    await database?.drop();
  });
  describe('state operations in the runner on PostgreSQL', () => {
    it('counts every turn of many sessions of one user without a conflict: two pools', () =>
      comparison(async () => {
        const schema = `ops${++schemas}`;
        const url = database?.url as string;
        const stores: [SessionStore, SessionStore] = [
          createPostgresSessionStore({ url, schema, pool: { max: 3 } }),
          createPostgresSessionStore({ url, schema, pool: { max: 3 } }),
        ];
        closing.push(...stores);
        return stores;
      }));
  });
}
