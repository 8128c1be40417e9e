// What SQLite's `synchronous=FULL` costs beside the default `NORMAL` (docs/reliability.md states the guarantee of
// each): the same appends (a model answer of ~1 KB with a state delta, as a turn writes them) to one session of a
// file store in WAL mode, built from dist/ as users get it, alternating the two settings round by round so the
// machine's noise falls on both. Reports the median milliseconds per append and appends per second of each, and the
// ratio FULL / NORMAL.
// Run: npm run bench:durability [-- --appends 200 --rounds 7 --json]
// (with --json, stdout holds exactly one JSON object; progress goes to stderr)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEvent } from '../dist/index.js';
import { createSqliteSessionStore } from '../dist/stores/sqlite/index.js';
import { median } from './stats.js';

const { values } = parseArgs({
  options: {
    appends: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '7' },
    json: { type: 'boolean', default: false },
  },
});
const positive = (name: 'appends' | 'rounds'): number => {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive integer, got ${values[name]}`);
  return value;
};
const appends = positive('appends');
const rounds = positive('rounds');
type Setting = 'normal' | 'full';
const SETTINGS: readonly Setting[] = ['normal', 'full'];
const text = 'The answer, as a model would give it. '.repeat(28);

/** One round: a fresh file, one session, `appends` appends; milliseconds per append. */
async function round(synchronous: Setting, folder: string, index: number): Promise<number> {
  const store = createSqliteSessionStore({ path: join(folder, `${synchronous}-${index}.db`), synchronous });
  try {
    const session = await store.createSession({ appName: 'bench', userId: 'u', sessionId: 's' });
    let id = 0;
    const start = process.hrtime.bigint();
    for (let i = 0; i < appends; i++) {
      const event = createEvent(
        {
          author: 'writer',
          invocationId: `inv-${i}`,
          content: { role: 'model', parts: [{ text }] },
          actions: { stateDelta: { turn: i, 'user:seen': i } },
        },
        { newId: () => `e-${++id}` },
      );
      await store.appendEvent({ session, event });
    }
    return Number(process.hrtime.bigint() - start) / 1e6 / appends;
  } finally {
    await store.close();
  }
}

const folder = mkdtempSync(join(tmpdir(), 'agentctx-durability-'));
const samples: Record<Setting, number[]> = { normal: [], full: [] };
try {
  await round('normal', folder, -1); // warm-up: module loading and the first file's creation
  for (let r = 0; r < rounds; r++) {
    for (const setting of r % 2 === 0 ? SETTINGS : [...SETTINGS].reverse())
      samples[setting].push(await round(setting, folder, r));
    process.stderr.write(`\rround ${r + 1}/${rounds}`);
  }
  process.stderr.write('\n');
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const msPerAppend = { normal: median(samples.normal), full: median(samples.full) };
const result = {
  appendsPerRound: appends,
  rounds,
  msPerAppend: { normal: Number(msPerAppend.normal.toFixed(3)), full: Number(msPerAppend.full.toFixed(3)) },
  appendsPerSecond: { normal: Math.round(1000 / msPerAppend.normal), full: Math.round(1000 / msPerAppend.full) },
  fullOverNormal: Number((msPerAppend.full / msPerAppend.normal).toFixed(2)),
};
if (values.json) console.log(JSON.stringify(result));
else {
  console.log(`SQLite append, WAL mode, ${appends} appends × ${rounds} rounds (medians):`);
  console.log(
    `  synchronous=NORMAL  ${result.msPerAppend.normal} ms per append  (${result.appendsPerSecond.normal}/s)  survives a process crash`,
  );
  console.log(
    `  synchronous=FULL    ${result.msPerAppend.full} ms per append  (${result.appendsPerSecond.full}/s)  also survives power loss`,
  );
  console.log(`  FULL costs ${result.fullOverNormal}× the time of NORMAL per append`);
}
