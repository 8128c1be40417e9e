// Turns per second of `agentctx serve` processes on one PostgreSQL, by workload and by number of servers: every client
// its own session (independent), clients of one user writing its `user:` counter from their own sessions (shared
// user: with state operations, and again as read-modify-write), two clients on one session (shared session). Beside them, ADK's own API server (@google/adk-devtools 2.0.0
// with @google/adk's DatabaseSessionService on the same PostgreSQL) serving the same agent, driven the same way over
// its own protocol. And two floors: servers that answer the same protocol with a turn's events and do no other work,
// the ceiling this machine's HTTP and clients put on any server; and the same with each event committed to
// PostgreSQL before it is streamed, the ceiling of acknowledging only what is stored, event by event. Fake model, clients and database on this machine. Each
// cell is a fresh database, checked afterwards: events lost or duplicated, counter increments lost.
// Run: npm run bench:throughput [-- --servers 1,2,4 --clients 32 --turns 16 --warmup 8 --frameworks agentctx,adk,floor,durable-floor --workloads independent,shared-user,shared-user-rmw,shared-session --postgres <url> --cpu-prof <dir> --json]
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import type { Workload } from './scale-client.js';
import { runFloor, runScale, type ScaleResult } from './scale-run.js';
import type { StateWrites } from './scale-servers.js';

const { values } = parseArgs({
  options: {
    servers: { type: 'string', default: '1,2,4' },
    clients: { type: 'string', default: '32' },
    turns: { type: 'string', default: '16' },
    // Fresh server processes spend their first seconds compiling (V8's optimizing compiler took 17% of the machine's
    // CPU 9–17 s into a run of four fresh servers, measured with perf): warm-up turns, on sessions of their own, let
    // the measured turns see servers that have run for a while, as a deployed server has.
    warmup: { type: 'string', default: '8' },
    frameworks: { type: 'string', default: 'agentctx,adk,floor,durable-floor' },
    workloads: { type: 'string', default: 'independent,shared-user,shared-user-rmw,shared-session' },
    postgres: { type: 'string' },
    'cpu-prof': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const positive = (text: string, name: string) => {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer, got ${text}`);
  return value;
};
const serverCounts = (values.servers ?? '').split(',').map((each) => positive(each.trim(), 'servers'));
const clients = positive(values.clients ?? '', 'clients');
const turns = positive(values.turns ?? '', 'turns');
const warmupTurns = Number(values.warmup);
if (!Number.isInteger(warmupTurns) || warmupTurns < 0)
  throw new Error(`--warmup must be a whole number of turns per client, got ${values.warmup}`);
const frameworks = (values.frameworks ?? '').split(',').map((each) => each.trim());
const FRAMEWORKS = ['agentctx', 'adk', 'floor', 'durable-floor'] as const;
type Framework = (typeof FRAMEWORKS)[number];
for (const framework of frameworks)
  if (!(FRAMEWORKS as readonly string[]).includes(framework))
    throw new Error(`--frameworks takes ${FRAMEWORKS.join(', ')}, got ${framework}`);
// Each framework's key in the JSON.
const JSON_KEYS: Record<Framework, string> = {
  agentctx: 'agentctx',
  adk: 'adk',
  floor: 'floor',
  'durable-floor': 'durableFloor',
};
// agentctx counts with state operations (its way to write a shared counter); the shared-user workload runs again with
// read-modify-write, the way ADK's tool (and any plain `set`) does it. Each entry: name, JSON key, agentctx's writes.
const ALL_WORKLOADS: [Workload | 'shared-user-rmw', string, StateWrites][] = [
  ['independent', 'independent', 'operations'],
  ['shared-user', 'sharedUser', 'operations'],
  ['shared-user-rmw', 'sharedUserReadModifyWrite', 'read-modify-write'],
  ['shared-session', 'sharedSession', 'operations'],
];
const chosen = (values.workloads ?? '').split(',').map((each) => each.trim());
for (const name of chosen)
  if (!ALL_WORKLOADS.some(([workload]) => workload === name))
    throw new Error(`--workloads takes ${ALL_WORKLOADS.map(([workload]) => workload).join(', ')}, got ${name}`);
const WORKLOADS = ALL_WORKLOADS.filter(([workload]) => chosen.includes(workload));
const root = new URL('..', import.meta.url).pathname;

// One PostgreSQL for every cell (a database each): the one given, or a throwaway cluster.
let postgres = values.postgres ?? process.env['AGENTCTX_POSTGRES_URL'] ?? process.env['TEST_POSTGRES_URL'];
let cluster: string | undefined;
if (postgres === undefined) {
  const started = spawnSync('bash', [`${root}.ci/postgres.sh`, 'start'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  postgres = /TEST_POSTGRES_URL=(\S+)/.exec(started.stdout)?.[1];
  cluster = /AGENTCTX_PG_DIR=(\S+)/.exec(started.stdout)?.[1];
  if (started.status !== 0 || postgres === undefined)
    throw new Error(
      'no PostgreSQL: pass --postgres <url> (or set TEST_POSTGRES_URL), or run as root so .ci/postgres.sh can start one',
    );
}

type Cell = Pick<
  ScaleResult,
  | 'turnsPerSecond'
  | 'p50Ms'
  | 'p99Ms'
  | 'failedTurns'
  | 'conflictsRetried'
  | 'mostAttempts'
  | 'lostUpdates'
  | 'lostEvents'
  | 'duplicatedEvents'
> &
  Partial<Pick<ScaleResult, 'cpuMsPerTurn'>>;
const cells: Record<string, Record<string, Record<number, Cell>>> = {};
const progress = (line: string) => void (values.json ? process.stderr : process.stdout).write(`${line}\n`);
try {
  for (const framework of frameworks as Framework[]) {
    const byWorkload: Record<string, Record<number, Cell>> = {};
    cells[JSON_KEYS[framework]] = byWorkload;
    for (const [name, key, stateWrites] of WORKLOADS) {
      // ADK has no state operations: its tool is read-modify-write in every row, so the second shared-user row is agentctx's alone.
      if (framework !== 'agentctx' && name === 'shared-user-rmw') continue;
      const workload: Workload = name === 'shared-user-rmw' ? 'shared-user' : name;
      byWorkload[key] = {};
      for (const servers of serverCounts) {
        if (framework === 'floor' || framework === 'durable-floor') {
          // The workload only changes who shares sessions, which the floor servers ignore: one row is enough.
          if (key !== WORKLOADS[0]?.[1]) continue;
          const durable = framework === 'durable-floor';
          const floor = await runFloor({ servers, clients, turns, workload, warmupTurns, postgres, durable });
          (byWorkload[key] as Record<number, Cell>)[servers] = {
            ...floor,
            conflictsRetried: 0,
            mostAttempts: 0,
            lostUpdates: 0,
            duplicatedEvents: 0,
          };
          const { machine, servers: serversMs, postgres: postgresMs } = floor.cpuMsPerTurn;
          const label = durable ? 'durable floor (no runner; PostgreSQL)' : 'floor (no runner, no database)';
          progress(
            `  ${label.padEnd(38)} ${servers} server${servers === 1 ? ' ' : 's'}  ${String(floor.turnsPerSecond).padStart(7)} turns/s  p50 ${String(floor.p50Ms).padStart(7)} ms  p99 ${String(floor.p99Ms).padStart(7)} ms  CPU ms/turn ${machine ?? '?'} (servers ${serversMs ?? '?'}${durable ? `, PostgreSQL ${postgresMs ?? '?'}` : ''})${durable ? `  events lost ${floor.lostEvents}` : ''}`,
          );
          continue;
        }
        const result = await runScale({
          servers,
          clients,
          turns,
          killAt: undefined,
          postgres,
          workload,
          framework,
          stateWrites,
          warmupTurns,
          cpuProfileDir: values['cpu-prof'],
        });
        const {
          turnsPerSecond,
          p50Ms,
          p99Ms,
          failedTurns,
          conflictsRetried,
          mostAttempts,
          lostUpdates,
          lostEvents,
          duplicatedEvents,
          cpuMsPerTurn,
        } = result;
        (byWorkload[key] as Record<number, Cell>)[servers] = {
          turnsPerSecond,
          p50Ms,
          p99Ms,
          failedTurns,
          conflictsRetried,
          mostAttempts,
          lostUpdates,
          lostEvents,
          duplicatedEvents,
          cpuMsPerTurn,
        };
        progress(
          `  ${framework.padEnd(9)} ${name.padEnd(15)} ${servers} server${servers === 1 ? ' ' : 's'}  ${String(turnsPerSecond).padStart(7)} turns/s  p50 ${String(p50Ms).padStart(7)} ms  p99 ${String(p99Ms).padStart(7)} ms  retried ${String(conflictsRetried).padStart(4)} (most attempts ${mostAttempts})  failed ${failedTurns}  lost updates ${lostUpdates}  lost/duplicated events ${lostEvents}/${duplicatedEvents}  CPU ms/turn ${cpuMsPerTurn.machine ?? '?'} (servers ${cpuMsPerTurn.servers ?? '?'}, PostgreSQL ${cpuMsPerTurn.postgres ?? '?'})`,
        );
      }
    }
  }
} finally {
  if (cluster !== undefined) spawnSync('bash', [`${root}.ci/postgres.sh`, 'stop', cluster], { stdio: 'ignore' });
}

// The agreed figures are those of the most servers; every count is kept under `byServers`.
const most = Math.max(...serverCounts);
const summary = (byWorkload: Record<string, Record<number, Cell>>) =>
  Object.fromEntries(
    Object.entries(byWorkload)
      .filter(([, byServers]) => Object.keys(byServers).length > 0)
      .map(([key, byServers]) => [key, { ...(byServers[most] as Cell), servers: most, byServers }]),
  );
if (values.json)
  console.log(
    JSON.stringify({
      clients,
      turns,
      warmupTurns,
      ...Object.fromEntries(Object.entries(cells).map(([framework, byWorkload]) => [framework, summary(byWorkload)])),
    }),
  );
// agentctx (and the durable floor, which stands for a server that stores what it acknowledges) must lose nothing;
// ADK's figures are reported as measured, whatever they are.
const broken = ['agentctx', 'durableFloor'].some((framework) =>
  Object.values(cells[framework] ?? {}).some((byServers) =>
    Object.values(byServers).some((cell) => cell.lostEvents > 0 || cell.duplicatedEvents > 0 || cell.lostUpdates > 0),
  ),
);
process.exitCode = broken ? 1 : 0;
