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

// Part 3: a process running turns or writes on SQLite or PostgreSQL is killed with SIGKILL at a chosen point
// (test/fixtures/fault-child.mjs, on the built dist/); then this process opens the store and checks what a restart
// would find: every acknowledged event, nothing half-written, a session that loads and a next turn that works.
const tmp = scratch();
const CHILD = join(repositoryRoot, 'test/fixtures/fault-child.mjs');
const KEY = { appName: 'faulty', userId: 'u1', sessionId: 's1' };
const NO_POSTGRES = TEST_POSTGRES_URL === undefined ? 'TEST_POSTGRES_URL is not set (eval "$(bash .ci/postgres.sh start)")' : undefined;

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
  return { spec: database.url, open: () => createPostgresSessionStore({ url: database.url }), check: () => undefined, dispose: database.drop };
}

/** Runs the child until `killWhen` says so, kills it with SIGKILL, and returns the ids it reported as stored. */
async function runAndKill(mode: string, target: Target, killWhen: (line: string, acks: number) => boolean | Promise<boolean>): Promise<string[]> {
  const child = spawn(process.execPath, [CHILD, mode, target.spec], { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  const acks: string[] = [];
  const guard = setTimeout(() => child.kill('SIGKILL'), 15_000);
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith('ACK ')) acks.push(line.slice(4));
    if (child.exitCode === null && (await killWhen(line, acks.length))) {
      child.kill('SIGKILL');
      break;
    }
  }
  clearTimeout(guard);
  expect(await exited, `the child was to be killed (stderr: ${stderr.slice(0, 500)})`).toBe('SIGKILL');
  return acks;
}

/** What a restart finds: the acknowledged events, a revision equal to the events stored, state equal to their deltas. */
async function expectRecovered(target: Target, acks: readonly string[]): Promise<Event[]> {
  target.check();
  const store = target.open();
  try {
    const session = await store.getSession(KEY);
    expect(session, 'the session loads').toBeDefined();
    const events = session?.events ?? [];
    const ids = events.map((event) => event.id);
    expect(acks.length).toBeGreaterThan(0);
    expect(acks.filter((id) => !ids.includes(id)), 'acknowledged but lost').toEqual([]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(session?.revision, 'no half-written append: one revision per stored event').toBe(events.length);
    const folded: Record<string, unknown> = { started: true };
    for (const event of events) Object.assign(folded, event.actions.stateDelta);
    expect(session?.state).toEqual(folded);
    for (const call of await store.listModelCalls(KEY)) if (call.responseEventId !== undefined) expect(ids).toContain(call.responseEventId);
    // The next turn, on what the killed process left.
    const note = functionTool({ name: 'note', description: 'Counts turns.', jsonSchema: { type: 'object' }, execute: () => ({ turns: 0 }) });
    const runner = createRunner({ appName: 'faulty', agents: llmAgent({ name: 'counter', tools: [note] }), model: createScriptedModel([{ text: 'recovered' }]), sessions: store });
    const next = await turn(runner, { message: 'after the restart' });
    expect(next.map((event) => event.errorCode ?? event.content?.parts.map((part) => ('text' in part ? part.text : '')).join(''))).toEqual(['after the restart', 'recovered']);
    const after = await store.getSession(KEY);
    expect(after?.revision).toBe(after?.events.length);
    return events;
  } finally {
    await store.close();
  }
}

/** The three kills of one store. */
function killRows(store: 'sqlite' | 'postgres', makeTarget: () => Promise<Target>, skip: string | undefined): Row[] {
  const name = store === 'sqlite' ? 'SQLite' : 'PostgreSQL';
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
      tried: 'SIGKILL while a model call waits, in the third turn (two complete turns with tool calls before it)',
      expected: 'every acknowledged event stored, the user message of the killed turn included; revision = events; state = their deltas; the next turn answers',
      timeout: 20_000,
      skip,
      run: withTarget(async (target) => {
        const acks = await runAndKill('model', target, (line) => line === 'HANG model');
        const events = await expectRecovered(target, acks);
        expect(events.filter((event) => event.author === 'user').map((event) => event.content?.parts[0])).toEqual([{ text: 'turn 1' }, { text: 'turn 2' }, { text: 'turn 3' }]);
      }),
    },
    {
      id: `kill.compaction.${store}`,
      entry: `compaction (${name})`,
      tried: 'SIGKILL while a slow summarizer compacts two invocations',
      expected: 'no compaction event, nothing half-written; both turns intact; the session loads and the next turn answers',
      timeout: 20_000,
      skip,
      run: withTarget(async (target) => {
        const acks = await runAndKill('compaction', target, (line) => line === 'HANG compaction');
        const events = await expectRecovered(target, acks);
        expect(events.some((event) => event.actions.compaction !== undefined)).toBe(false);
        expect(events).toHaveLength(8);
      }),
    },
    {
      id: `kill.write.${store}`,
      entry: `store write (${name})`,
      tried: 'SIGKILL at a random moment of a loop of 200 KB appends that write session and `user:` state',
      expected: 'every acknowledged append stored whole (the one in flight entirely or not at all); revision = events; state = their deltas',
      timeout: 20_000,
      skip,
      run: withTarget(async (target) => {
        const after = 5 + Math.floor(Math.random() * 30);
        const delay = Math.random() * 4;
        const acks = await runAndKill('writes', target, async (_line, count) => {
          if (count < after) return false;
          await new Promise((resolve) => setTimeout(resolve, delay));
          return true;
        });
        const events = await expectRecovered(target, acks);
        expect(events.length, `killed after ${after} acknowledged appends and ${delay.toFixed(2)} ms`).toBeGreaterThanOrEqual(acks.length);
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
