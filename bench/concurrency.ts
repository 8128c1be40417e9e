// agentctx beside @google/adk 2.0.0 under concurrency, same workload, same run, several OS processes on one store:
//   1. P processes × S sessions of ONE user × N turns of an agent whose scripted model calls `bump`, a tool that reads
//      `user:counter`, adds one and writes it through the framework's tool state API: the counter must end at P×S×N;
//   2. P processes each appending M events to ONE session through the framework's session service: P×M events,
//      each once.
// ADK runs on its DatabaseSessionService (MikroORM), agentctx on its SQLite file store and, when a PostgreSQL server
// is given (TEST_POSTGRES_URL or --postgres), on PostgreSQL; ADK on PostgreSQL too when its optional driver is there.
// Run: npm run bench:concurrency [-- --processes 4 --sessions 2 --turns 25 --appends 50 --postgres <url> --json]
//      (--frameworks adk,agentctx and --stores sqlite,postgres run a part)
// (with --json, stdout holds exactly one JSON object; progress goes to stderr)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { sessionId, type ChildConfig, type PhaseResult } from './concurrency-child.js';
import {
  adkUnavailable,
  openSide,
  SHARED_SESSION,
  type Framework,
  type StoreKind,
  type Target,
} from './concurrency-sides.js';
import {
  verifyAppends,
  verifyCounter,
  type AppendsVerdict,
  type CounterVerdict,
  type Plan,
} from './concurrency-verify.js';

const { values } = parseArgs({
  options: {
    processes: { type: 'string', default: '4' },
    sessions: { type: 'string', default: '2' },
    turns: { type: 'string', default: '25' },
    appends: { type: 'string', default: '50' },
    postgres: { type: 'string' },
    'timeout-s': { type: 'string', default: '90' },
    frameworks: { type: 'string', default: 'adk,agentctx' },
    stores: { type: 'string', default: 'sqlite,postgres' },
    json: { type: 'boolean', default: false },
  },
});
const positive = (name: 'processes' | 'sessions' | 'turns' | 'appends' | 'timeout-s'): number => {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive integer, got ${values[name]}`);
  return value;
};
const plan: Plan = {
  processes: positive('processes'),
  sessions: positive('sessions'),
  turns: positive('turns'),
  appends: positive('appends'),
};
const phaseTimeoutMs = positive('timeout-s') * 1000;
const postgresUrl = values.postgres ?? process.env['TEST_POSTGRES_URL'];
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const childScript = join(root, 'bench', 'concurrency-child.ts');
const progress = (line: string): void => void process.stderr.write(`${line}\n`);
const startedAt = Date.now();
const round = (value: number, digits = 1): number => Number(value.toFixed(digits));

// ---- worker processes and their barrier
type Worker = {
  index: number;
  child: ChildProcess;
  lines: string[];
  waiters: (() => void)[];
  stderr: string;
  exit: string | undefined;
};
const READY_TIMEOUT_MS = 240_000;

function startWorker(config: ChildConfig): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', childScript, JSON.stringify(config)], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const worker: Worker = { index: config.process, child, lines: [], waiters: [], stderr: '', exit: undefined };
  const wake = () => worker.waiters.splice(0).forEach((waiter) => waiter());
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (/^(READY|RESULT) /.test(line)) {
      worker.lines.push(line);
      wake();
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => (worker.stderr = (worker.stderr + chunk.toString()).slice(-4000)));
  child.on('exit', (code, signal) => {
    worker.exit = `worker ${config.process} exited (${code ?? signal})`;
    wake();
  });
  return worker;
}

async function nextLine(worker: Worker, deadline: number): Promise<string> {
  for (;;) {
    const line = worker.lines.shift();
    if (line !== undefined) return line;
    if (worker.exit !== undefined)
      throw new Error(`${worker.exit}: ${worker.stderr.trim().split('\n').slice(-4).join(' | ')}`);
    const left = deadline - Date.now();
    if (left <= 0) throw new Error(`worker ${worker.index} did not answer in time`);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, left);
      worker.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** Waits until every worker is READY for `phase`, starts them together and collects their results. */
async function runPhase(workers: Worker[], phase: string): Promise<{ results: PhaseResult[]; wallMs: number }> {
  // Imports and connections may take long on a busy machine: they have a limit of their own, outside the workload's.
  const asked = Date.now();
  for (const worker of workers) {
    const line = await nextLine(worker, asked + READY_TIMEOUT_MS);
    if (line !== `READY ${phase}`) throw new Error(`expected READY ${phase}, got ${line.slice(0, 80)}`);
  }
  if (phase === 'counter')
    progress(`  workers ready (imports and connections) after ${((Date.now() - asked) / 1000).toFixed(1)} s`);
  const started = performance.now();
  const deadline = Date.now() + phaseTimeoutMs;
  for (const worker of workers) worker.child.stdin?.write('GO\n');
  const results = await Promise.all(
    workers.map(
      async (worker) => JSON.parse((await nextLine(worker, deadline)).slice('RESULT '.length)) as PhaseResult,
    ),
  );
  return { results, wallMs: performance.now() - started };
}

// ---- stores: a fresh SQLite file or PostgreSQL database per (framework, store)
type Place = { location: string; drop(): Promise<void> };

async function freshPlace(framework: Framework, store: StoreKind): Promise<Place> {
  if (store === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `bench-concurrency-${framework}-`));
    return { location: join(dir, 'sessions.db'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `bench_concurrency_${framework}_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(postgresUrl as string);
  url.pathname = `/${name}`;
  return { location: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

// ---- one (framework, store): set up, run both workloads, verify
type Phase<V> = V & { wallMs: number; conflictsRetried: number; errors: number; errorKinds: Record<string, number> };
type StoreRow = {
  lostUpdates: number;
  lostEvents: number;
  duplicatedEvents: number;
  errors: number;
  errorKinds: Record<string, number>;
  wallMs: number;
  storeSettings?: Record<string, unknown>;
  counter: Phase<CounterVerdict>;
  appends: Phase<AppendsVerdict>;
};
type Failed = { error: string };

function summarize<V>(verdict: V, run: { results: PhaseResult[]; wallMs: number }): Phase<V> {
  const errorKinds: Record<string, number> = {};
  for (const result of run.results)
    for (const [key, count] of Object.entries(result.errors)) errorKinds[key] = (errorKinds[key] ?? 0) + count;
  return {
    ...verdict,
    wallMs: round(run.wallMs),
    conflictsRetried: run.results.reduce((sum, result) => sum + result.conflictsRetried, 0),
    errors: Object.values(errorKinds).reduce((sum, count) => sum + count, 0),
    errorKinds,
  };
}

async function runTarget(framework: Framework, store: StoreKind): Promise<StoreRow | Failed> {
  if (store === 'postgres' && postgresUrl === undefined)
    return { error: 'not run: no PostgreSQL server (set TEST_POSTGRES_URL or pass --postgres <url>)' };
  const unavailable = framework === 'adk' ? adkUnavailable(store) : undefined;
  if (unavailable !== undefined) return { error: unavailable };
  const place = await freshPlace(framework, store);
  const target: Target = { framework, store, location: place.location };
  const workers: Worker[] = [];
  try {
    // Schema and sessions are made before the workers start, so the workloads measure only the workloads.
    const setup = await openSide(target);
    for (let process = 0; process < plan.processes; process++)
      for (let session = 0; session < plan.sessions; session++) await setup.createSession(sessionId(process, session));
    await setup.createSession(SHARED_SESSION);
    const storeSettings = await setup.storeSettings();
    await setup.close();

    progress(`  ${framework} ${store}: store and sessions ready; starting ${plan.processes} workers`);
    for (let process = 0; process < plan.processes; process++) workers.push(startWorker({ target, process, ...plan }));
    const counterRun = await runPhase(workers, 'counter');
    progress(`  ${framework} ${store}: counter workload done in ${(counterRun.wallMs / 1000).toFixed(1)} s`);
    const appendsRun = await runPhase(workers, 'appends');
    progress(`  ${framework} ${store}: appends workload done in ${(appendsRun.wallMs / 1000).toFixed(1)} s`);
    // Each worker closes its connections and exits; one that does not within 15 s is killed below.
    const exited = (worker: Worker) =>
      worker.exit !== undefined ? undefined : new Promise((resolve) => worker.child.once('exit', resolve));
    await Promise.race([
      Promise.all(workers.map(exited)),
      new Promise((resolve) => setTimeout(resolve, 15_000).unref()),
    ]);

    const check = await openSide(target);
    const counter = summarize(await verifyCounter(check, plan, counterRun.results), counterRun);
    const appends = summarize(await verifyAppends(check, plan, appendsRun.results), appendsRun);
    await check.close();
    const errorKinds: Record<string, number> = {};
    for (const [phase, kinds] of [
      ['counter', counter.errorKinds],
      ['appends', appends.errorKinds],
    ] as const) {
      for (const [key, count] of Object.entries(kinds)) errorKinds[`${phase}: ${key}`] = count;
    }
    return {
      lostUpdates: counter.lostUpdates,
      lostEvents: counter.lostEvents + appends.lostEvents,
      duplicatedEvents: counter.duplicatedEvents + appends.duplicatedEvents,
      errors: counter.errors + appends.errors,
      errorKinds,
      wallMs: round(counter.wallMs + appends.wallMs),
      ...(Object.keys(storeSettings).length === 0 ? {} : { storeSettings }),
      counter,
      appends,
    };
  } catch (error) {
    return { error: `the run failed: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    // Workers still running (a failed run) are killed and waited for, so none writes to the store after it is dropped.
    const running = workers.filter((worker) => worker.exit === undefined);
    const gone = Promise.all(running.map((worker) => new Promise((resolve) => worker.child.once('exit', resolve))));
    for (const worker of running) worker.child.kill('SIGKILL');
    await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    await place.drop().catch(() => undefined);
  }
}

const pick = <T extends string>(name: 'frameworks' | 'stores', known: readonly T[]): T[] => {
  const chosen = (values[name] ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  for (const item of chosen)
    if (!known.includes(item as T)) throw new Error(`--${name}: unknown ${item} (known: ${known.join(', ')})`);
  return known.filter((item) => chosen.includes(item));
};
const STORES = pick<StoreKind>('stores', ['sqlite', 'postgres']);
const FRAMEWORKS = pick<Framework>('frameworks', ['adk', 'agentctx']);
const rows = new Map<string, StoreRow | Failed>();
for (const store of STORES) {
  for (const framework of FRAMEWORKS) {
    progress(`${framework} on ${store}: ${plan.processes} processes …`);
    const began = Date.now();
    const row = await runTarget(framework, store);
    progress(
      `  ${framework} ${store}: ${'error' in row ? row.error : `lost updates ${row.lostUpdates}, lost events ${row.lostEvents}, duplicated ${row.duplicatedEvents}, errors ${row.errors}`} (${((Date.now() - began) / 1000).toFixed(1)} s in all)`,
    );
    rows.set(`${framework} ${store}`, row);
  }
}

/** A framework's totals over the stores it ran on, with each store's detail beside. */
function frameworkReport(framework: Framework): Record<string, unknown> {
  const perStore = Object.fromEntries(
    STORES.map((store) => [store, rows.get(`${framework} ${store}`) as StoreRow | Failed]),
  );
  const ran = STORES.filter((store) => !('error' in (perStore[store] as StoreRow | Failed)));
  const sum = (key: 'lostUpdates' | 'lostEvents' | 'duplicatedEvents' | 'errors' | 'wallMs') =>
    round(ran.reduce((total, store) => total + (perStore[store] as StoreRow)[key], 0));
  if (ran.length === 0)
    return { error: STORES.map((store) => `${store}: ${(perStore[store] as Failed).error}`).join('; '), ...perStore };
  return {
    lostUpdates: sum('lostUpdates'),
    lostEvents: sum('lostEvents'),
    duplicatedEvents: sum('duplicatedEvents'),
    errors: sum('errors'),
    wallMs: sum('wallMs'),
    stores: ran,
    ...perStore,
  };
}

const adkVersion = (
  JSON.parse(readFileSync(join(root, 'node_modules', '@google', 'adk', 'package.json'), 'utf8')) as { version: string }
).version;
const report = {
  ...Object.fromEntries(FRAMEWORKS.map((framework) => [framework, frameworkReport(framework)])),
  settings: {
    processes: plan.processes,
    sessionsPerProcess: plan.sessions,
    turnsPerSession: plan.turns,
    appendsPerProcess: plan.appends,
    expectedCounter: plan.processes * plan.sessions * plan.turns,
    expectedAppends: plan.processes * plan.appends,
    postgres: postgresUrl === undefined ? null : 'given',
    adk: `@google/adk ${adkVersion}: new DatabaseSessionService('sqlite://<file>') (or the postgres:// URL), Runner + LlmAgent + FunctionTool, the tool writing through context.state`,
    agentctx:
      'createRunner + llmAgent + functionTool on createSqliteSessionStore({ path }) / createPostgresSessionStore({ url }), the tool writing through context.state',
  },
  notes: [
    'counter: every process runs its sessions at the same time, each session its turns one after another; a turn is user message → model calls bump → bump reads user:counter, adds one, writes it → model confirms (4 events). lostUpdates = expected − final counter; overwrittenIncrements = bump responses stored − final counter (increments the store took and later lost).',
    'appends: each process loads the shared session once and appends its events one after another through the session service. An append agentctx refuses as stale (ConflictError stale_session) is retried after reloading the session (conflictsRetried), as its contract says; ADK refuses nothing (its appendEvent reloads a stale copy itself). Other errors are counted and that event is not retried.',
    'errors: thrown errors and error events, grouped by type and message (ids and numbers blanked); a failed turn or append is not retried by the bench, so its events and increment count as lost too. A turn whose runner gave up leaves its bump call stored without an answer; agentctx answers such a call with an `interrupted` error when the session is next used (counter.interruptedCalls).',
    "ADK's appendEvent is one MikroORM transaction that begins deferred, reads the session, app and user state, then inserts the event. On SQLite shared by several processes, a transaction that holds a read lock and needs the write lock while another connection writes gets SQLITE_BUSY at once (SQLite does not wait there, to avoid a deadlock), so a longer busy timeout does not remove these errors. Its user state is one JSON value per user, written with the value the tool computed from the state loaded at the start of the turn; the stale-copy check compares only the session's own update time.",
    'Workers start together behind a barrier after their imports and connections; wallMs is from the start signal to the last result. Schema and sessions are created beforehand by the parent, in a fresh SQLite file or PostgreSQL database per framework.',
  ],
  meta: {
    adkVersion,
    node: process.version,
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    wallSeconds: round((Date.now() - startedAt) / 1000),
  },
};

if (values.json) {
  process.stdout.write(`${JSON.stringify(report)}\n`);
} else {
  const out: string[] = [];
  out.push(
    `bench:concurrency · agentctx vs @google/adk ${adkVersion} · ${plan.processes} processes · node ${process.version}`,
  );
  out.push(
    `  counter: ${plan.processes} processes × ${plan.sessions} sessions of one user × ${plan.turns} turns → user:counter must end at ${report.settings.expectedCounter}`,
  );
  out.push(
    `  appends: ${plan.processes} processes × ${plan.appends} events to one session → ${report.settings.expectedAppends} events, each once`,
  );
  out.push('');
  const head = [
    'framework',
    'store',
    'counter',
    'lost upd.',
    'overwritten',
    'lost ev.',
    'dup. ev.',
    'errors',
    'retried',
    'counter s',
    'appends s',
  ];
  const widths = [10, 9, 9, 10, 12, 9, 9, 7, 8, 10, 10];
  const line = (cells: string[]) =>
    cells
      .map((cell, index) => (index < 2 ? cell.padEnd(widths[index] as number) : cell.padStart(widths[index] as number)))
      .join(' ');
  out.push(line(head));
  const errorLines: string[] = [];
  for (const framework of FRAMEWORKS) {
    for (const store of STORES) {
      const row = rows.get(`${framework} ${store}`) as StoreRow | Failed;
      if ('error' in row) {
        out.push(`${line([framework, store])}  ${row.error}`);
        continue;
      }
      out.push(
        line([
          framework,
          store,
          `${row.counter.final}/${row.counter.expected}`,
          String(row.lostUpdates),
          String(row.counter.overwrittenIncrements),
          String(row.lostEvents),
          String(row.duplicatedEvents),
          String(row.errors),
          String(row.counter.conflictsRetried + row.appends.conflictsRetried),
          (row.counter.wallMs / 1000).toFixed(1),
          (row.appends.wallMs / 1000).toFixed(1),
        ]),
      );
      for (const [kind, count] of Object.entries(row.errorKinds))
        errorLines.push(`  ${framework} ${store} ×${count}  ${kind}`);
    }
  }
  out.push('');
  out.push(
    'lost upd. = expected − final counter; overwritten = increments stored as done but missing from the counter; lost/dup. ev. = both workloads; retried = stale writes refused and retried (agentctx)',
  );
  for (const framework of FRAMEWORKS) {
    for (const store of STORES) {
      const row = rows.get(`${framework} ${store}`) as StoreRow | Failed;
      if (!('error' in row) && row.storeSettings !== undefined)
        out.push(
          `${framework} ${store} connection: ${Object.entries(row.storeSettings)
            .map(([key, value]) => `${key} ${String(value)}`)
            .join(', ')}`,
        );
    }
  }
  if (errorLines.length > 0) out.push('', 'errors by kind', ...errorLines);
  out.push('', `wall time ${report.meta.wallSeconds} s`);
  process.stdout.write(`${out.join('\n')}\n`);
}
// The exit code holds agentctx to its promise (0 lost, 0 duplicated, on every store it ran on); ADK's numbers are reported as they are.
if (FRAMEWORKS.includes('agentctx')) {
  const agentctxRows = STORES.map((store) => rows.get(`agentctx ${store}`) as StoreRow | Failed).filter(
    (row): row is StoreRow => !('error' in row),
  );
  if (
    agentctxRows.length === 0 ||
    agentctxRows.some((row) => row.lostUpdates !== 0 || row.lostEvents !== 0 || row.duplicatedEvents !== 0)
  )
    process.exitCode = 1;
}
