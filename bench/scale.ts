// N `agentctx serve` processes on one PostgreSQL, M concurrent clients running multi-turn sessions (some sharing
// sessions and users), one server killed with SIGKILL mid-run; then the database is checked: every event of every
// acknowledged turn present once and in order, and `user:` counters equal to the turns that counted. With
// --restart-postgres, PostgreSQL is also restarted mid-run (on a cluster of the run's own): turns it cuts off fail,
// the servers answer 503 until it is back, then reconnect.
// Run: npm run bench:scale [-- --servers 4 --clients 32 --turns 8 --kill-at 0.4 --restart-postgres 0.6 --postgres <url> --json]
import { parseArgs } from 'node:util';
import { runScale } from './scale-run.js';

const { values } = parseArgs({
  options: {
    servers: { type: 'string', default: '4' },
    clients: { type: 'string', default: '32' },
    turns: { type: 'string', default: '8' },
    'kill-at': { type: 'string', default: '0.4' },
    'no-kill': { type: 'boolean', default: false },
    'restart-postgres': { type: 'string' },
    postgres: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const count = (name: 'servers' | 'clients' | 'turns') => {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive integer, got ${values[name]}`);
  return value;
};
const servers = count('servers');
if (servers < 2 && !values['no-kill']) throw new Error('--servers must be at least 2 to kill one (or pass --no-kill)');
const bar = (done: number, planned: number) => {
  if (values.json || !process.stderr.isTTY) return;
  const width = 30;
  const filled = Math.round((done / planned) * width);
  process.stderr.write(`\r  turns [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${planned}`);
};
const result = await runScale({
  servers,
  clients: count('clients'),
  turns: count('turns'),
  killAt: values['no-kill'] ? undefined : Number(values['kill-at']),
  // A restart needs a cluster of the run's own, never a server given by URL.
  postgres:
    values['restart-postgres'] !== undefined
      ? undefined
      : (values.postgres ?? process.env['AGENTCTX_POSTGRES_URL'] ?? process.env['TEST_POSTGRES_URL']),
  restartPostgresAt: values['restart-postgres'] === undefined ? undefined : Number(values['restart-postgres']),
  progress: bar,
});
if (!values.json && process.stderr.isTTY) process.stderr.write('\n');
const passed =
  result.lostEvents === 0 && result.duplicatedEvents === 0 && result.outOfOrder === 0 && result.counterMismatches === 0;
if (values.json) {
  // The agreed keys first, then the rest of the measurements.
  const {
    turnsPerSecond,
    p50Ms,
    p99Ms,
    conflictsRetried,
    acknowledgedTurns,
    lostEvents,
    duplicatedEvents,
    counterMismatches,
    serverKilled,
    ...rest
  } = result;
  console.log(
    JSON.stringify({
      turnsPerSecond,
      p50Ms,
      p99Ms,
      conflictsRetried,
      acknowledgedTurns,
      lostEvents,
      duplicatedEvents,
      counterMismatches,
      serverKilled,
      ...rest,
    }),
  );
} else {
  console.log(
    `scale: ${servers} servers on one PostgreSQL, ${values.clients} clients × ${values.turns} turns (groups of 4 clients share a user; 2 of each group share a session)`,
  );
  console.log(
    `  acknowledged turns   ${result.acknowledgedTurns} of ${result.plannedTurns} (${result.failedTurns} failed${result.serverKilled ? `, server 0 killed with SIGKILL after serving ${result.acknowledgedByKilled}` : ''}${result.postgresRestarted ? ', PostgreSQL restarted' : ''})`,
  );
  console.log(`  throughput           ${result.turnsPerSecond} turns/s over ${result.seconds} s`);
  console.log(`  turn latency         p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms`);
  console.log(
    `  conflicts retried    ${result.conflictsRetried} in the runners; ${result.busyRetries} turns re-sent because their session was busy, ${result.unavailableRetries} after a 503`,
  );
  console.log(
    `  verification         lost ${result.lostEvents}, duplicated ${result.duplicatedEvents}, out of order ${result.outOfOrder}, counter mismatches ${result.counterMismatches} (${result.countedTurns} turns counted) → ${passed ? 'PASS' : 'FAIL'}`,
  );
}
process.exitCode = passed ? 0 : 1;
