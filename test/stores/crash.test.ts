import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { Event } from '../../src/contracts/event.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createPostgresSessionStore } from '../../src/stores/postgres/index.js';
import { createSqliteSessionStore, type SqlSessionStore } from '../../src/stores/sqlite/index.js';
import { defineRows, type Row } from '../reliability/rows.js';
import { scratch, turn } from '../reliability/support.js';
import { repositoryRoot } from '../support/cli.js';
import { createTestDatabase, TEST_POSTGRES_URL } from '../support/postgres.js';

// Part 3: a process running turns or writes on SQLite or PostgreSQL is killed with SIGKILL at chosen points
// (test/fixtures/fault-child.mjs, on the built dist/, rebuilt by the global setup when src/ is newer); after each kill
// this process opens the store and checks what a restart would find: every acknowledged event, nothing half-written,
// a session that loads and a next turn that works. Kill points are sampled from fixed seeds: the same on every run, so
// a missing transaction or an event acknowledged before it is stored fails every run, not one in five.
const tmp = scratch();
const CHILD = join(repositoryRoot, 'test/fixtures/fault-child.mjs');
const KEY = { appName: 'faulty', userId: 'u1', sessionId: 's1' };
const NO_POSTGRES =
  TEST_POSTGRES_URL === undefined ? 'TEST_POSTGRES_URL is not set (eval "$(bash .ci/postgres.sh start)")' : undefined;

type Target = { spec: string; open: () => SqlSessionStore; check: () => void; dispose: () => Promise<void> };

async function sqliteTarget(): Promise<Target> {
  const path = join(await tmp.dir(), 'faulty.db');
  return {
    spec: path,
    open: () => createSqliteSessionStore({ path }),
    check: () => {
      const db = new Database(path);
      try {
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      } finally {
        db.close();
      }
    },
    dispose: async () => undefined,
  };
}

async function postgresTarget(): Promise<Target> {
  const database = await createTestDatabase(TEST_POSTGRES_URL as string, 'faults');
  return {
    spec: database.url,
    open: () => createPostgresSessionStore({ url: database.url }),
    check: () => undefined,
    dispose: database.drop,
  };
}

/** A sequence of numbers in [0, 1) from a seed (a 32-bit linear congruential generator): the same kill points on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Runs the child with a kill plan (see test/fixtures/fault-child.mjs): it kills itself at the planned point, or this
 * process kills it when `killWhen` says so. Returns the ids it acknowledged and where it died.
 */
async function runAndKill(
  mode: string,
  target: Target,
  plan: string,
  killWhen: (line: string, acks: number) => boolean | Promise<boolean> = () => false,
): Promise<{ acks: string[]; where: string }> {
  const child = spawn(process.execPath, [CHILD, mode, target.spec, ...(plan === '' ? [] : [plan])], {
    cwd: repositoryRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const acks: string[] = [];
  let where = 'the guard, after 15 s';
  const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith('ACK ')) acks.push(line.slice(4));
    if (line.startsWith('KILLED ') || line.startsWith('DONE ')) where = line;
    if (child.exitCode === null && child.signalCode === null && (await killWhen(line, acks.length))) {
      where = `by the test at: ${line}`;
      child.kill('SIGKILL');
      break;
    }
  }
  clearTimeout(guard);
  expect(await exited, `the child was to be killed (plan ${plan || 'none'}; stderr: ${stderr.slice(0, 500)})`).toBe(
    'SIGKILL',
  );
  expect(where, `plan ${plan || 'none'}: not killed at its point`).not.toMatch(/^(?:the guard|DONE)/);
  return { acks, where };
}

/** What a restart finds: the acknowledged events, a revision equal to the events stored, state equal to their deltas. */
async function expectConsistent(target: Target, acks: readonly string[], context: string): Promise<Event[]> {
  target.check();
  const store = target.open();
  try {
    const session = await store.getSession(KEY);
    expect(session, `${context}: the session loads`).toBeDefined();
    const events = session?.events ?? [];
    const ids = events.map((event) => event.id);
    expect(
      acks.filter((id) => !ids.includes(id)),
      `${context}: acknowledged but lost`,
    ).toEqual([]);
    expect(new Set(ids).size, `${context}: duplicated events`).toBe(ids.length);
    expect(session?.revision, `${context}: no half-written append, one revision per stored event`).toBe(events.length);
    const folded: Record<string, unknown> = { started: true };
    for (const event of events) Object.assign(folded, event.actions.stateDelta);
    expect(session?.state, `${context}: state = the stored events' deltas`).toEqual(folded);
    for (const call of await store.listModelCalls(KEY))
      if (call.responseEventId !== undefined)
        expect(ids, `${context}: call ${call.index}'s answer`).toContain(call.responseEventId);
    return events;
  } finally {
    await store.close();
  }
}

/** The next turn, on what the killed processes left: it answers, and every append after it is whole. */
async function expectNextTurn(target: Target): Promise<void> {
  const store = target.open();
  try {
    const note = functionTool({
      name: 'note',
      description: 'Counts turns.',
      jsonSchema: { type: 'object' },
      execute: () => ({ turns: 0 }),
    });
    const runner = createRunner({
      appName: 'faulty',
      agents: llmAgent({ name: 'counter', tools: [note] }),
      model: createScriptedModel([{ text: 'recovered' }]),
      sessions: store,
    });
    const next = await turn(runner, { message: 'after the restart' });
    expect(
      next.filter((event) => event.errorCode !== undefined),
      'no error in the next turn',
    ).toEqual([]);
    expect(next[0]?.content?.parts).toEqual([{ text: 'after the restart' }]);
    expect(next.at(-1)?.content?.parts).toEqual([{ text: 'recovered' }]);
    const after = await store.getSession(KEY);
    expect(after?.revision).toBe(after?.events.length);
  } finally {
    await store.close();
  }
}

/** Kills one child per plan, in order, on one store; after each, what a restart finds is checked. */
async function killEach(
  mode: string,
  target: Target,
  plans: readonly { plan: string; killWhen?: (line: string, acks: number) => boolean | Promise<boolean> }[],
): Promise<{ acks: string[]; events: Event[] }> {
  const acks: string[] = [];
  let events: Event[] = [];
  for (const { plan, killWhen } of plans) {
    const killed = await runAndKill(mode, target, plan, killWhen);
    acks.push(...killed.acks);
    events = await expectConsistent(target, acks, `${mode} ${plan || 'hang'}, killed ${killed.where}`);
  }
  expect(acks.length).toBeGreaterThan(0);
  await expectNextTurn(target);
  return { acks, events };
}

/** The kills of one store. */
function killRows(store: 'sqlite' | 'postgres', makeTarget: () => Promise<Target>, skip: string | undefined): Row[] {
  const name = store === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  // Each kill costs a process start; PostgreSQL, which runs the same SQL, gets fewer of them.
  const [askKinds, writeKills, appendKills] = store === 'sqlite' ? [[1, 2, 3, 4], 2, 6] : [[1, 3, 4], 1, 4];
  const withTarget = (use: (target: Target) => Promise<void>) => async () => {
    const target = await makeTarget();
    try {
      await use(target);
    } finally {
      await target.dispose();
    }
  };
  return [
    {
      id: `kill.model.${store}`,
      entry: `invocation (${name})`,
      tried: `SIGKILL at ${askKinds.length + writeKills} seeded points of the runner's write path, one process each, on one session: right after the n-th event is acknowledged to the caller (a question, a call, a result, an answer), right after the n-th database write (user messages, model-call records, answers with their call's outcome, tool results with state); then while a model call waits in the third turn`,
      expected:
        "after every kill: every acknowledged event stored, nothing half-written (revision = events, state = their deltas, a call's recorded answer is an event); the next turn answers",
      timeout: 90_000,
      skip,
      run: withTarget(async (target) => {
        const random = seeded(store === 'sqlite' ? 0x5eed01 : 0x5eed02);
        // A turn yields four events (question, call, result, answer): the acknowledgements cover each kind, in a seeded turn.
        const acks = askKinds.map((kind) => ({ plan: `ack:${4 * Math.floor(random() * 2) + kind}` }));
        const writes = Array.from({ length: writeKills }, () => ({ plan: `write:${1 + Math.floor(random() * 90)}` }));
        const plans = acks.flatMap((ack, i) => [ack, ...(writes[i] === undefined ? [] : [writes[i]])]);
        const { events } = await killEach('model', target, [
          ...plans,
          { plan: '', killWhen: (line) => line === 'HANG model' },
        ]);
        // Each process killed after an acknowledgement had its question stored first.
        expect(events.filter((event) => event.author === 'user').length).toBeGreaterThanOrEqual(acks.length);
      }),
    },
    {
      id: `kill.compaction.${store}`,
      entry: `compaction (${name})`,
      tried: 'SIGKILL while a slow summarizer compacts two invocations',
      expected:
        'no compaction event, nothing half-written; both turns intact; the session loads and the next turn answers',
      timeout: 30_000,
      skip,
      run: withTarget(async (target) => {
        const { events } = await killEach('compaction', target, [
          { plan: '', killWhen: (line) => line === 'HANG compaction' },
        ]);
        expect(events.some((event) => event.actions.compaction !== undefined)).toBe(false);
        expect(events).toHaveLength(8);
      }),
    },
    {
      id: `kill.write.${store}`,
      entry: `store write (${name})`,
      tried: `SIGKILL at ${appendKills} seeded points of a loop of 200 KB appends that write session and \`user:\` state, one process each, on one session: after the 1st, 2nd, … ${appendKills}th database write of a seeded append (${appendKills > 5 ? 'every statement of an append, its commit included' : 'its statements before the commit'}); then at a seeded moment after a seeded number of appends`,
      expected:
        'after every kill: every acknowledged append stored whole (the one in flight entirely or not at all); revision = events; state = their deltas; the next turn answers',
      timeout: 90_000,
      skip,
      run: withTarget(async (target) => {
        const random = seeded(store === 'sqlite' ? 0x5eed03 : 0x5eed04);
        const plans = Array.from({ length: appendKills }, (_, i) => ({
          plan: `write:${1 + Math.floor(random() * 4)}.${i + 1}`,
        }));
        const after = 2 + Math.floor(random() * 10);
        const delay = random() * 4;
        const timed = {
          plan: '',
          killWhen: async (_line: string, count: number) =>
            count >= after && (await new Promise((resolve) => setTimeout(resolve, delay)), true),
        };
        const { acks, events } = await killEach('writes', target, [...plans, timed]);
        expect(
          events.length,
          `the last kill came ${delay.toFixed(2)} ms after ${after} acknowledged appends`,
        ).toBeGreaterThanOrEqual(acks.length);
      }),
    },
  ];
}

export const rows = defineRows(
  import.meta.url,
  'faults',
  [...killRows('sqlite', sqliteTarget, undefined), ...killRows('postgres', postgresTarget, NO_POSTGRES)],
  { afterAll: () => tmp.cleanup() },
);
