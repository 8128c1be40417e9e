// agentctx's runner against @google/adk 2.0.0's, same scenario, same run: per-turn framework time with a fake model
// that answers at once, over histories of 10 to 10,000 events in memory and in SQLite; SQLite append time; import
// time; memory. Each (framework, store, N) runs in a fresh child process (bench/runner-child.ts).
// Run: npm run bench:runner [-- --json]   (with --json, stdout holds exactly one JSON object; progress goes to stderr)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildResult } from './runner-child.js';
import type { Framework, Store } from './runner-scenario.js';
import { median } from './stats.js';

const json = process.argv.includes('--json');
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const childScript = join(root, 'bench', 'runner-child.ts');
const startedAt = Date.now();
const progress = (line: string): void => void process.stderr.write(`${line}\n`);

const SIZES = [10, 100, 1_000, 10_000];
/** ADK's database store appends take tens of milliseconds each: 10,000 of them would take minutes. */
const ADK_SQLITE_MAX = 1_000;
const ADK_SQLITE_NOTE = `ADK's DatabaseSessionService was not run at 10,000 events: each append costs 10–40 ms, so building the history alone would take minutes.`;
const IMPORT_RUNS = 5;

type Run = { framework: Framework; store: Store; events: number };
type Failure = Run & { error: string };

function runChild(run: Run): ChildResult | Failure {
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', childScript, run.framework, run.store, String(run.events)],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    },
  );
  const line = child.stdout.split('\n').find((candidate) => candidate.startsWith('RESULT '));
  if (child.status !== 0 || line === undefined) {
    const error =
      `${child.stderr}`.trim().split('\n').slice(-6).join('\n') || `exit ${child.status} ${child.signal ?? ''}`;
    return { ...run, error };
  }
  return JSON.parse(line.slice('RESULT '.length)) as ChildResult;
}

/** Milliseconds of `await import(specifier)` in a fresh plain-node process (no tsx), and the RSS after it. */
function timeImport(specifier: string): { ms: number; rssMb: number } {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); const ms = performance.now() - t; process.stdout.write(JSON.stringify({ ms, rssMb: process.memoryUsage().rss / 1048576 }));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
  if (child.status !== 0)
    throw new Error(`import('${specifier}') failed: ${child.stderr.trim().split('\n').slice(-3).join(' ')}`);
  return JSON.parse(child.stdout) as { ms: number; rssMb: number };
}

const round = (value: number, digits = 3): number => Number(value.toFixed(digits));
const isFailure = (result: ChildResult | Failure): result is Failure => 'error' in result;

// ---- import time: alternate the two packages so drift hits both
const importSamples: Record<Framework, { ms: number; rssMb: number }[]> = { agentctx: [], adk: [] };
for (let i = 0; i < IMPORT_RUNS; i++) {
  importSamples.agentctx.push(timeImport('agentctx'));
  importSamples.adk.push(timeImport('@google/adk'));
}
const importMs = {
  agentctx: round(median(importSamples.agentctx.map((sample) => sample.ms)), 1),
  adk: round(median(importSamples.adk.map((sample) => sample.ms)), 1),
};
const importRssMb = {
  agentctx: round(median(importSamples.agentctx.map((sample) => sample.rssMb)), 1),
  adk: round(median(importSamples.adk.map((sample) => sample.rssMb)), 1),
};
progress(
  `import   agentctx ${importMs.agentctx} ms · adk ${importMs.adk} ms (median of ${IMPORT_RUNS} fresh processes each)`,
);

// ---- one child per (framework, store, N), the two frameworks back to back for each size
const results: (ChildResult | Failure)[] = [];
for (const store of ['memory', 'sqlite'] as const) {
  for (const events of SIZES) {
    for (const framework of ['agentctx', 'adk'] as const) {
      if (framework === 'adk' && store === 'sqlite' && events > ADK_SQLITE_MAX) continue;
      const started = Date.now();
      const result = runChild({ framework, store, events });
      results.push(result);
      const label = `${framework.padEnd(8)} ${store.padEnd(6)} ${String(events).padStart(6)}`;
      if (isFailure(result)) progress(`${label} … FAILED: ${result.error}`);
      else
        progress(
          `${label} … ${result.turnMs.median.toFixed(2)} ms/turn (history built in ${(result.buildMs / 1000).toFixed(1)} s, child ${((Date.now() - started) / 1000).toFixed(1)} s)`,
        );
    }
  }
}

const find = (framework: Framework, store: Store, events: number): ChildResult | undefined => {
  const found = results.find(
    (result) => result.framework === framework && result.store === store && result.events === events,
  );
  return found === undefined || isFailure(found) ? undefined : found;
};
const failure = (framework: Framework, store: Store, events: number): Failure | undefined => {
  const found = results.find(
    (result) => result.framework === framework && result.store === store && result.events === events,
  );
  return found !== undefined && isFailure(found) ? found : undefined;
};

// ---- the two scenarios must have sent the model the same thing
const mismatches: string[] = [];
for (const store of ['memory', 'sqlite'] as const) {
  for (const events of SIZES) {
    const mine = find('agentctx', store, events);
    const theirs = find('adk', store, events);
    if (mine === undefined || theirs === undefined) continue;
    if (JSON.stringify(mine.lastRequest) !== JSON.stringify(theirs.lastRequest) || mine.turns !== theirs.turns) {
      mismatches.push(
        `${store} ${events}: agentctx ${JSON.stringify(mine.lastRequest)} vs adk ${JSON.stringify(theirs.lastRequest)}`,
      );
    }
  }
}

type Row = {
  store: Store;
  events: number;
  agentctxMs: number | null;
  adkMs: number | null;
  ratio: number | null;
  note?: string;
};
const rows: Row[] = [];
for (const store of ['memory', 'sqlite'] as const) {
  for (const events of SIZES) {
    const agentctxMs = find('agentctx', store, events)?.turnMs.median ?? null;
    const adkMs = find('adk', store, events)?.turnMs.median ?? null;
    const notes: string[] = [];
    if (store === 'sqlite' && events > ADK_SQLITE_MAX) notes.push(ADK_SQLITE_NOTE);
    for (const framework of ['agentctx', 'adk'] as const) {
      const failed = failure(framework, store, events);
      if (failed !== undefined) notes.push(`${framework} failed: ${failed.error}`);
    }
    rows.push({
      store,
      events,
      agentctxMs,
      adkMs,
      ratio: agentctxMs === null || adkMs === null ? null : round(adkMs / agentctxMs, 1),
      ...(notes.length === 0 ? {} : { note: notes.join(' ') }),
    });
  }
}

const sqliteAppend = { agentctx: find('agentctx', 'sqlite', 100), adk: find('adk', 'sqlite', 100) };
const appendMs = {
  agentctx: sqliteAppend.agentctx?.appendMs ?? null,
  adk: sqliteAppend.adk?.appendMs ?? null,
  agentctxSynchronousFull: sqliteAppend.agentctx?.appendFullSyncMs ?? null,
};
const rssMb = {
  agentctx: find('agentctx', 'memory', 10_000)?.rssMb ?? null,
  adk: find('adk', 'memory', 10_000)?.rssMb ?? null,
};

type Target = { target: string; measured: string; value: number | null; limit: string; pass: boolean | null };
const quotient = (top: number | null | undefined, bottom: number | null | undefined): number | null =>
  top === null || top === undefined || bottom === null || bottom === undefined || bottom === 0 ? null : top / bottom;
const target = (
  description: string,
  measured: string,
  value: number | null,
  limit: number,
  atLeast: boolean,
): Target => ({
  target: description,
  measured,
  value: value === null ? null : round(value, 2),
  limit: `${atLeast ? '≥' : '≤'} ${limit}`,
  pass: value === null ? null : atLeast ? value >= limit : value <= limit,
});
const memoryRow = (events: number) => rows.find((row) => row.store === 'memory' && row.events === events);
const sqliteRow = (events: number) => rows.find((row) => row.store === 'sqlite' && row.events === events);
const targets: Record<string, Target> = {
  turnAt10k: target(
    'per-turn time at 10,000 events (memory) at most 1/50 of ADK’s',
    'ADK ms / agentctx ms',
    memoryRow(10_000)?.ratio ?? null,
    50,
    true,
  ),
  scalingMemory: target(
    'agentctx per-turn time at 10,000 events at most 5× that at 100 (memory)',
    'agentctx ms at 10,000 / at 100',
    quotient(memoryRow(10_000)?.agentctxMs, memoryRow(100)?.agentctxMs),
    5,
    false,
  ),
  scalingSqlite: target(
    'agentctx per-turn time at 10,000 events at most 5× that at 100 (sqlite)',
    'agentctx ms at 10,000 / at 100',
    quotient(sqliteRow(10_000)?.agentctxMs, sqliteRow(100)?.agentctxMs),
    5,
    false,
  ),
  sqliteAppend: target(
    'SQLite append at least 20× faster per event than ADK’s database store',
    'ADK ms / agentctx ms per append',
    quotient(appendMs.adk, appendMs.agentctx),
    20,
    true,
  ),
  importTime: target(
    'import("agentctx") at most 1/5 of ADK’s import time',
    'ADK ms / agentctx ms',
    quotient(importMs.adk, importMs.agentctx),
    5,
    true,
  ),
};

let affinity: string | undefined;
try {
  affinity = /Cpus_allowed_list:\s*(.*)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
} catch {
  affinity = undefined;
}
const adkVersion = (
  JSON.parse(readFileSync(join(root, 'node_modules', '@google', 'adk', 'package.json'), 'utf8')) as { version: string }
).version;
const failures = results.filter(isFailure);
const report = {
  rows,
  importMs,
  appendMs,
  rssMb,
  targets,
  ratio: 'adkMs / agentctxMs: how many times less framework time agentctx spends per turn',
  equivalence:
    mismatches.length === 0
      ? 'last request identical in shape (messages, parts by kind, text characters, rendered instruction, tool) for every (store, N) run by both'
      : mismatches,
  importRssMb,
  runs: results,
  notes: [
    'Per-turn time: wall time of one full run()/runAsync() of a short user message, drained; 3 warm-up turns then 15 measured (9 at 10,000 events); median. The fake model answers "fine, thanks" at once; each child asserts it was called exactly once per turn.',
    'appendMs: median of the last 20 of 100 history appends (events 80–99, each timed alone) on a SQLite file in a temp dir, in the sqlite N=100 child of each framework. agentctx runs SQLite in WAL mode with synchronous=NORMAL by default; agentctxSynchronousFull is the same measurement with synchronous=full (an fsync per commit). ADK uses MikroORM’s SQLite defaults.',
    'agentctx’s runner keeps the sessions it works on: before each turn it asks the store for the session’s revision and state only (no events) and reloads the events only if someone else appended since. ADK’s Runner loads the whole session every turn (InMemorySessionService deep-copies it).',
    'importMs: median of 5 fresh plain-node processes timing `await import(…)` of the built package; the two packages alternate.',
    'rssMb: process RSS after the memory N=10,000 child finished its turns (after a GC), including tsx; importRssMb: RSS right after the import alone.',
    ADK_SQLITE_NOTE,
  ],
  meta: {
    adkVersion,
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cpusAllowed: affinity ?? null,
    wallSeconds: round((Date.now() - startedAt) / 1000, 1),
  },
};

if (json) {
  process.stdout.write(`${JSON.stringify(report)}\n`);
} else {
  const out: string[] = [];
  const ms = (value: number | null): string =>
    value === null ? '—' : value < 10 ? value.toFixed(2) : value.toFixed(1);
  out.push(
    `agentctx runner vs @google/adk ${adkVersion} · same scenario, fake model, one child process per cell · node ${process.version}`,
  );
  out.push('');
  out.push('per-turn framework time (median ms)');
  out.push(
    `  ${'store'.padEnd(7)}${'events'.padStart(7)}  ${'agentctx'.padStart(9)}  ${'ADK'.padStart(9)}  ${'ADK/agentctx'.padStart(12)}`,
  );
  for (const row of rows) {
    out.push(
      `  ${row.store.padEnd(7)}${row.events.toLocaleString('en-US').padStart(7)}  ${ms(row.agentctxMs).padStart(9)}  ${ms(row.adkMs).padStart(9)}  ${(row.ratio === null ? '—' : `${row.ratio}×`).padStart(12)}${row.note === undefined ? '' : '  *'}`,
    );
  }
  for (const row of rows) if (row.note !== undefined) out.push(`  * ${row.store} ${row.events}: ${row.note}`);
  out.push('');
  out.push(
    `import        agentctx ${importMs.agentctx} ms · ADK ${importMs.adk} ms   (RSS after import ${importRssMb.agentctx} MB vs ${importRssMb.adk} MB)`,
  );
  out.push(
    `SQLite append agentctx ${ms(appendMs.agentctx)} ms (synchronous=full: ${ms(appendMs.agentctxSynchronousFull)} ms) · ADK ${ms(appendMs.adk)} ms   (per event, session of ~100 events)`,
  );
  out.push(
    `RSS at end    agentctx ${rssMb.agentctx ?? '—'} MB · ADK ${rssMb.adk ?? '—'} MB   (memory store, 10,000 events)`,
  );
  out.push('');
  out.push('targets');
  for (const item of Object.values(targets)) {
    const mark = item.pass === null ? '?' : item.pass ? '✓' : '✗';
    out.push(`  ${mark} ${item.target}: ${item.measured} = ${item.value ?? 'n/a'} (target ${item.limit})`);
  }
  out.push('');
  out.push(
    mismatches.length === 0
      ? 'equivalence: the last request had the same shape in both frameworks for every pair of runs'
      : `equivalence: MISMATCH\n  ${mismatches.join('\n  ')}`,
  );
  out.push(`wall time ${report.meta.wallSeconds} s`);
  process.stdout.write(`${out.join('\n')}\n`);
}
if (failures.length > 0 || mismatches.length > 0) process.exitCode = 1;
