// The web inspector's token chart on a long session: how long `GET …/chart` takes the first time a server process
// answers it (every call counted) and again (only calls that were still pending are read). The target: a 500-call
// session answers a repeat request in under 300 ms.
// Run: npm run bench:inspector [-- --json] [-- --calls 500]   (with --json, stdout holds exactly one JSON object)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadTokenCounter } from '../src/engine/tokens/token-counter.js';
import { createSqliteSessionStore } from '../src/stores/sqlite/index.js';
import { createInspectorApp } from '../src/web/inspector-app.js';
import { LONG, writeLongSession } from '../test/web/long-session.js';
import { median } from './stats.js';

const json = process.argv.includes('--json');
const callsArg = process.argv.indexOf('--calls');
const CALLS = callsArg < 0 ? 500 : Number(process.argv[callsArg + 1]);
const ROUNDS = 5;
const TARGET_MS = 300;
const CHART = `/api/apps/${LONG.appName}/users/${LONG.userId}/sessions/${LONG.sessionId}/chart`;
const progress = (line: string): void => void process.stderr.write(`${line}\n`);

const dir = await mkdtemp(join(tmpdir(), 'bench-inspector-'));
const store = createSqliteSessionStore({ path: join(dir, 'agentctx.db') });
try {
  progress(`writing a ${CALLS}-call session…`);
  await writeLongSession(store, CALLS);
  // The tokenizer loads once per process, on first use: timed apart from the counting.
  const loading = performance.now();
  await loadTokenCounter();
  const tokenizerMs = performance.now() - loading;
  const first: number[] = [];
  const repeat: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // A fresh app is a fresh server process's view: nothing counted yet.
    const app = createInspectorApp({ store });
    for (const samples of [first, repeat, repeat]) {
      const started = performance.now();
      const response = await app.request(CHART, { headers: { host: '127.0.0.1' } });
      const body = (await response.json()) as { calls: unknown[] };
      samples.push(performance.now() - started);
      if (body.calls.length !== CALLS) throw new Error(`the chart has ${body.calls.length} calls, expected ${CALLS}`);
    }
    progress(
      `round ${round + 1}/${ROUNDS}: first ${first.at(-1)?.toFixed(0)} ms, repeat ${repeat.at(-1)?.toFixed(0)} ms`,
    );
  }
  const result = {
    calls: CALLS,
    tokenizerLoadMs: Math.round(tokenizerMs),
    firstMs: Math.round(median(first)),
    repeatMs: Math.round(median(repeat) * 10) / 10,
    targetRepeatMs: TARGET_MS,
    pass: median(repeat) < TARGET_MS,
  };
  if (json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    console.log(`token chart of a ${CALLS}-call session (SQLite), medians of ${ROUNDS} server processes`);
    console.log(`  tokenizer load (once per process)  ${result.tokenizerLoadMs} ms`);
    console.log(`  first request                      ${result.firstMs} ms`);
    console.log(
      `  repeat request                     ${result.repeatMs} ms   (target < ${TARGET_MS} ms: ${result.pass ? 'met' : 'MISSED'})`,
    );
  }
  process.exitCode = result.pass ? 0 : 1;
} finally {
  await store.close();
  await rm(dir, { recursive: true, force: true });
}
