import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import type { Event } from '../../src/contracts/event.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { INTERRUPTED_CALL_ERROR } from '../../src/engine/runner/interrupted-calls.js';
import { ExtractiveSummarizer } from '../../src/features/compaction/extractive-summarizer.js';
import { createRunner, type RunnerOptions } from '../../src/presets/create-runner.js';
import { createPostgresSessionStore } from '../../src/stores/postgres/index.js';
import { createSqliteSessionStore, type SqlSessionStore } from '../../src/stores/sqlite/index.js';
import { defineRows, type Row } from '../reliability/rows.js';
import { scratch, turn } from '../reliability/support.js';
import { repositoryRoot } from '../support/cli.js';
import { createTestDatabase, TEST_POSTGRES_URL } from '../support/postgres.js';
import { callEvent, note, noteModel, openCalls, responsesTo } from './orphan-helpers.js';

// Part 3, crash recovery: test/fixtures/orphan-child.mjs (on the built dist/) runs turns with a tool call each; in the
// third turn its tool reports the call id, and this process kills it with SIGKILL (the call is stored, its response
// never is) or lets it go on later. This process then takes the session over with a runner of its own.
const tmp = scratch();
const CHILD = join(repositoryRoot, 'test/fixtures/orphan-child.mjs');
const KEY = { appName: 'orphans', userId: 'u1', sessionId: 's1' };
const NO_POSTGRES =
  TEST_POSTGRES_URL === undefined ? 'TEST_POSTGRES_URL is not set (eval "$(bash .ci/postgres.sh start)")' : undefined;

type Target = { spec: string; open: () => SqlSessionStore; check: () => void; dispose: () => Promise<void> };

async function sqliteTarget(): Promise<Target> {
  const path = join(await tmp.dir(), 'orphans.db');
  const check = () => {
    const db = new Database(path);
    try {
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  };
  return { spec: path, open: () => createSqliteSessionStore({ path }), check, dispose: async () => undefined };
}

async function postgresTarget(): Promise<Target> {
  const database = await createTestDatabase(TEST_POSTGRES_URL as string, 'orphans');
  return {
    spec: database.url,
    open: () => createPostgresSessionStore({ url: database.url }),
    check: () => undefined,
    dispose: database.drop,
  };
}

/** The child, started: the call id its tool reports in turn 3, a way to let the tool go on, and how it ends. */
async function startChild(mode: 'hang' | 'wait', target: Target) {
  const child = spawn(process.execPath, [CHILD, mode, target.spec], {
    cwd: repositoryRoot,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const acks: string[] = [];
  const until = async (prefix: string): Promise<string> => {
    for (;;) {
      const next = await lines.next();
      if (next.done === true) throw new Error(`the child ended before '${prefix}' (stderr: ${stderr.slice(0, 800)})`);
      if (next.value.startsWith('ACK ')) acks.push(next.value.slice(4));
      if (next.value.startsWith(prefix)) return next.value.slice(prefix.length);
    }
  };
  const callId = await until('CALL ');
  return {
    callId,
    acks,
    kill: async () => {
      child.kill('SIGKILL');
      clearTimeout(guard);
      return exited;
    },
    /** Lets the tool return; resolves with what the child printed at the end of turn 3. */
    release: async () => {
      child.stdin.write('go\n');
      const end = await until('END ');
      clearTimeout(guard);
      expect(await exited, stderr).toEqual({ code: 0, signal: null });
      return end;
    },
  };
}

function runnerOn(store: SqlSessionStore, options: Partial<RunnerOptions> = {}) {
  const model = noteModel();
  return {
    model,
    runner: createRunner({
      appName: 'orphans',
      agents: llmAgent({ name: 'counter', instruction: 'Note every turn.', tools: [note] }),
      model,
      sessions: store,
      ...options,
    }),
  };
}

async function stored(store: SqlSessionStore): Promise<Event[]> {
  const session = await store.getSession(KEY);
  expect(session?.revision, 'one revision per stored event').toBe(session?.events.length);
  return session?.events ?? [];
}

const withTarget = (makeTarget: () => Promise<Target>, use: (target: Target) => Promise<void>) => async () => {
  const target = await makeTarget();
  try {
    await use(target);
  } finally {
    await target.dispose();
  }
};

function killRow(store: 'sqlite' | 'postgres', makeTarget: () => Promise<Target>, skip: string | undefined): Row {
  return {
    id: `kill.tool.${store}`,
    entry: `invocation (${store === 'sqlite' ? 'SQLite' : 'PostgreSQL'})`,
    tried:
      'SIGKILL while a tool runs, after its call is stored and before its response; then turns from another process, with a token trigger: at once, and once the call is older than `toolTimeoutMs` (1 s) + 1 s',
    expected:
      'at once, nothing is stored for the call (it might be running elsewhere) but the request shows it answered as interrupted; later, the turn first stores one response `{ error: "interrupted: …" }` (author the agent, the call\'s invocation), and no later turn answers it again; no request has a call without its result; a summary stands for the call and its answer',
    timeout: 30_000,
    skip,
    run: withTarget(makeTarget, async (target) => {
      const child = await startChild('hang', target);
      expect((await child.kill()).signal).toBe('SIGKILL');
      target.check();
      const store = target.open();
      try {
        const before = await stored(store);
        expect(
          child.acks.filter((id) => !before.some((event) => event.id === id)),
          'acknowledged but lost',
        ).toEqual([]);
        const orphan = callEvent(before, child.callId) as Event;
        expect(before.at(-1), 'the call is the last event stored').toBe(orphan);
        expect(responsesTo(before, child.callId)).toEqual([]);

        const eventsCompactionConfig = {
          tokenThreshold: 1,
          eventRetentionSize: 2,
          summarizer: new ExtractiveSummarizer(),
        };
        const soon = runnerOn(store, { eventsCompactionConfig });
        const first = await turn(soon.runner, { message: 'turn 4' });
        expect(first[0]?.content?.parts).toEqual([{ text: 'turn 4' }]);
        expect(first.at(-1)?.content?.parts).toEqual([{ text: 'noted {"noted":4}' }]);
        expect(JSON.stringify(soon.model.requests[0]?.messages), 'shown as interrupted in the request').toContain(
          INTERRUPTED_CALL_ERROR,
        );

        // Past the tool time limit (and a second), no run with the same limit can still be running it.
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, (orphan.timestamp + 2.1) * 1000 - Date.now())));
        const later = runnerOn(store, { eventsCompactionConfig, toolTimeoutMs: 1000 });
        const second = await turn(later.runner, { message: 'turn 5' });
        expect(second[0]).toMatchObject({
          author: 'counter',
          invocationId: orphan.invocationId,
          content: {
            role: 'user',
            parts: [
              { functionResponse: { id: child.callId, name: 'note', response: { error: INTERRUPTED_CALL_ERROR } } },
            ],
          },
        });
        expect(second[1]?.content?.parts).toEqual([{ text: 'turn 5' }]);
        const again = await turn(runnerOn(store, { eventsCompactionConfig, interruptedAfterMs: 0 }).runner, {
          message: 'turn 6',
        });
        expect(again[0]?.content?.parts).toEqual([{ text: 'turn 6' }]);
        expect(
          [...soon.model.requests, ...later.model.requests].flatMap(openCalls),
          'every call the model is sent has its result right after it',
        ).toEqual([]);

        const after = await stored(store);
        const answers = responsesTo(after, child.callId);
        expect(answers.map(({ response }) => response)).toEqual([{ error: INTERRUPTED_CALL_ERROR }]);
        const repair = (answers[0] as { event: Event }).event;
        const summaries = after.flatMap((event) =>
          event.actions.compaction === undefined ? [] : [event.actions.compaction.eventIds ?? []],
        );
        expect(
          summaries.some((ids) => ids.includes(orphan.id) && ids.includes(repair.id)),
          'a summary stands for the call and its answer',
        ).toBe(true);
      } finally {
        await store.close();
      }
    }),
  };
}

export const rows = defineRows(
  import.meta.url,
  'faults',
  [
    killRow('sqlite', sqliteTarget, undefined),
    killRow('postgres', postgresTarget, NO_POSTGRES),
    {
      id: 'live.tool.sqlite',
      entry: 'invocation (SQLite)',
      tried:
        'a turn from this process while another process is still running a tool call of the session: by default, and with `interruptedAfterMs: 0` (a process that assumes it is alone)',
      expected:
        "by default the call is left alone (shown as interrupted in this turn's request only) and later gets its real result; with 0 it is answered as interrupted and the other process stores no second answer (its turn ends with `tool_results_discarded`); either way exactly one response",
      timeout: 40_000,
      run: async () => {
        for (const alone of [false, true]) {
          await withTarget(sqliteTarget, async (target) => {
            const child = await startChild('wait', target);
            const store = target.open();
            try {
              const { runner } = runnerOn(store, alone ? { interruptedAfterMs: 0 } : {});
              const mine = await turn(runner, { message: 'turn 4' });
              expect(
                mine[0]?.content?.parts.length === 1 && 'functionResponse' in (mine[0]?.content?.parts[0] ?? {}),
              ).toBe(alone);
              const end = await child.release();
              const answers = responsesTo(await stored(store), child.callId).map(({ response }) => response);
              if (alone)
                expect({ end, answers }).toEqual({
                  end: 'tool_results_discarded',
                  answers: [{ error: INTERRUPTED_CALL_ERROR }],
                });
              else expect({ end, answers }).toEqual({ end: 'ok', answers: [{ noted: 3 }] });
            } finally {
              await store.close();
            }
          })();
        }
      },
    },
  ],
  { afterAll: () => tmp.cleanup() },
);
