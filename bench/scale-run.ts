// bench:scale's run: servers on one PostgreSQL database, concurrent clients, one server killed mid-run, a verdict.
import pg from 'pg';
import { createPostgresSessionStore } from 'agentctx/stores/postgres';
import { planClients, runClient, type AcknowledgedTurn, type ClientPlan, type Workload } from './scale-client.js';
import type { SessionStore } from 'agentctx';
import {
  freshDatabase,
  startAdkServer,
  startFloorServer,
  startServer,
  stopServer,
  type ServerProcess,
  type StateWrites,
} from './scale-servers.js';
import { verify, type Verification } from './scale-verify.js';
import { commandCpuMs, machineBusyMs, processCpuMs } from './cpu-time.js';
import { median } from './stats.js';

export type ScaleOptions = {
  servers: number;
  clients: number;
  turns: number;
  /** Kill server 0 with SIGKILL once this share of the planned turns is done; no kill when undefined. */
  killAt: number | undefined;
  /**
   * Restart PostgreSQL (a fast shutdown, then start) once this share of the planned turns is done: turns in flight
   * fail, the servers reconnect. Needs a cluster of the run's own (`postgres` undefined).
   */
  restartPostgresAt?: number | undefined;
  /** A PostgreSQL server to make the run's database on; a throwaway cluster when undefined. */
  postgres: string | undefined;
  /** Who shares users and sessions; bench:scale's `mixed` by default. */
  workload?: Workload | undefined;
  /** How agentctx's tool writes its counts; read-modify-write by default. ADK's tool always reads, modifies and writes. */
  stateWrites?: StateWrites | undefined;
  /** Whose servers: `agentctx serve` (the default), or ADK's API server with its database session service. */
  framework?: 'agentctx' | 'adk' | undefined;
  progress?: (done: number, planned: number) => void;
  /**
   * Turns each client runs first, on sessions of their own, before the clock starts: every server process compiles
   * its hot paths and fills its connection pool, so the figures are those of servers that have been up a while.
   * Default 0.
   */
  warmupTurns?: number | undefined;
  /** Each server writes a V8 CPU profile (`--cpu-prof`) into this folder when it exits. */
  cpuProfileDir?: string | undefined;
};

export type ScaleResult = Verification & {
  turnsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  conflictsRetried: number;
  /** The most attempts one write needed on any server (1: no write ever lost a race); 0 for ADK, which does not retry. */
  mostAttempts: number;
  busyRetries: number;
  /** Turns sent again after a 503 (the database away; nothing of the turn ran). */
  unavailableRetries: number;
  acknowledgedTurns: number;
  failedTurns: number;
  plannedTurns: number;
  serverKilled: boolean;
  /** PostgreSQL was restarted mid-run. */
  postgresRestarted: boolean;
  /** Acknowledged turns served by the server that was killed (they must all be in the database). */
  acknowledgedByKilled: number;
  seconds: number;
  /**
   * CPU milliseconds per acknowledged turn while the clock ran: the whole machine's (servers, PostgreSQL, clients and
   * all) and the servers' alone (Linux only).
   */
  cpuMsPerTurn: { machine: number | undefined; servers: number | undefined; postgres?: number | undefined };
};

/**
 * The same clients against servers that answer the run protocol with a turn's events and do nothing else (no runner,
 * no database): the most turns per second this machine's HTTP and clients allow, to read the others against. With
 * `durable`, on a fresh database of `postgres`, each event is committed before it is streamed: the ceiling that
 * acknowledging only stored events, one by one, puts on any server.
 */
export async function runFloor(
  options: Pick<ScaleOptions, 'servers' | 'clients' | 'turns' | 'workload' | 'warmupTurns' | 'postgres'> & {
    durable?: boolean;
  },
): Promise<Pick<ScaleResult, 'turnsPerSecond' | 'p50Ms' | 'p99Ms' | 'failedTurns' | 'lostEvents' | 'cpuMsPerTurn'>> {
  const database = options.durable === true ? await freshDatabase(options.postgres) : undefined;
  const servers: ServerProcess[] = [];
  try {
    // The first durable server makes the tables; the others find them.
    servers.push(await startFloorServer(database?.url));
    servers.push(
      ...(await Promise.all(Array.from({ length: options.servers - 1 }, () => startFloorServer(database?.url)))),
    );
    const plans = planClients(options.clients, options.turns, options.workload);
    const warmups = await Promise.all(warmupPlans(options).map((plan) => runClient(plan, servers, () => {})));
    const cpuBefore = { machine: machineBusyMs(), servers: serversCpuMs(servers), postgres: commandCpuMs('postgres') };
    const started = performance.now();
    const results = await Promise.all(plans.map((plan) => runClient(plan, servers, () => {})));
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = { machine: machineBusyMs(), servers: serversCpuMs(servers), postgres: commandCpuMs('postgres') };
    const latencies = results.flatMap((result) => result.acknowledged.map((turn) => turn.ms)).sort((a, b) => a - b);
    // The durable floor's events, counted in the database: every acknowledged one must be there.
    const acknowledgedEvents = [...warmups, ...results].reduce(
      (sum, result) => sum + result.acknowledged.reduce((events, turn) => events + turn.eventIds.length, 0),
      0,
    );
    const storedEvents = database === undefined ? acknowledgedEvents : await countRows(database.url, 'floor_events');
    return {
      turnsPerSecond: round(latencies.length / seconds),
      p50Ms: round(median(latencies)),
      p99Ms: round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0),
      failedTurns: results.reduce((sum, result) => sum + result.failed, 0),
      lostEvents: Math.max(0, acknowledgedEvents - storedEvents),
      cpuMsPerTurn: {
        machine: perTurn(cpuBefore.machine, cpuAfter.machine, latencies.length),
        servers: perTurn(cpuBefore.servers, cpuAfter.servers, latencies.length),
        ...(database === undefined
          ? {}
          : { postgres: perTurn(cpuBefore.postgres, cpuAfter.postgres, latencies.length) }),
      },
    };
  } finally {
    await Promise.all(servers.map(stopServer));
    await database?.drop();
  }
}

export async function runScale(options: ScaleOptions): Promise<ScaleResult> {
  const database = await freshDatabase(options.postgres);
  if (options.restartPostgresAt !== undefined && database.restart === undefined) {
    await database.drop();
    throw new Error(
      'restarting PostgreSQL needs a cluster of the run’s own: leave out --postgres (and TEST_POSTGRES_URL)',
    );
  }
  const servers: ServerProcess[] = [];
  try {
    const adk = options.framework === 'adk';
    const nodeArgs =
      options.cpuProfileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`];
    const start = (first: boolean) =>
      adk ? startAdkServer(database.url, first, nodeArgs) : startServer(database.url, nodeArgs, options.stateWrites);
    // The first server migrates the new database (ADK's: creates its tables); the others find it ready.
    servers.push(await start(true));
    servers.push(...(await Promise.all(Array.from({ length: options.servers - 1 }, () => start(false)))));
    const plans = planClients(options.clients, options.turns, options.workload);
    const store = adk ? adkSessionReader(servers) : createPostgresSessionStore({ url: database.url });
    for (const plan of plans) {
      if ((await store.getSession({ appName: 'scale', userId: plan.userId, sessionId: plan.sessionId })) !== undefined)
        continue;
      // One at a time: ADK's first session of a user races on its user_states row when made concurrently.
      if (adk)
        await fetch(`${(servers[0] as ServerProcess).url}/apps/scale/users/${plan.userId}/sessions/${plan.sessionId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
      else await store.createSession({ appName: 'scale', userId: plan.userId, sessionId: plan.sessionId });
    }
    // Warm-up turns on sessions of their own (made like the others), then the count of conflicts they retried, to leave out.
    const warmup = warmupPlans(options);
    // Two clients of a shared session share one plan's session: made once.
    for (const plan of warmup.filter(
      (each, index) =>
        warmup.findIndex((other) => other.sessionId === each.sessionId && other.userId === each.userId) === index,
    )) {
      if (adk)
        await fetch(`${(servers[0] as ServerProcess).url}/apps/scale/users/${plan.userId}/sessions/${plan.sessionId}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
      else await store.createSession({ appName: 'scale', userId: plan.userId, sessionId: plan.sessionId });
    }
    await Promise.all(warmup.map((plan) => runClient(plan, servers, () => {}, adk ? 'adk' : 'agentctx')));
    const warmupConflicts = new Map<number, number>();
    if (!adk) await pollConflicts(servers, warmupConflicts);
    const planned = options.clients * options.turns;
    let done = 0;
    let killed = false;
    const conflicts = new Map<number, number>();
    // ADK's servers retry nothing and report no conflicts.
    const attempts = new Map<number, number>();
    const poll = setInterval(() => void (adk ? undefined : pollConflicts(servers, conflicts, attempts)), 250);
    let restarted: Promise<void> | undefined;
    const onTurn = () => {
      done += 1;
      options.progress?.(done, planned);
      if (
        restarted === undefined &&
        options.restartPostgresAt !== undefined &&
        done >= planned * options.restartPostgresAt
      )
        restarted = database.restart?.();
      if (!killed && options.killAt !== undefined && done >= planned * options.killAt) {
        killed = true;
        const victim = servers[0] as ServerProcess;
        victim.alive = false;
        victim.child.kill('SIGKILL');
      }
    };
    const cpuBefore = { machine: machineBusyMs(), servers: serversCpuMs(servers), postgres: commandCpuMs('postgres') };
    const started = performance.now();
    const results = await Promise.all(plans.map((plan) => runClient(plan, servers, onTurn, adk ? 'adk' : 'agentctx')));
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = { machine: machineBusyMs(), servers: serversCpuMs(servers), postgres: commandCpuMs('postgres') };
    await restarted;
    clearInterval(poll);
    if (!adk) await pollConflicts(servers, conflicts, attempts);
    const acknowledged: AcknowledgedTurn[] = results.flatMap((result) => result.acknowledged);
    const verdict = await verify(store, plans, acknowledged);
    await store.close();
    const latencies = acknowledged.map((turn) => turn.ms).sort((a, b) => a - b);
    return {
      ...verdict,
      turnsPerSecond: round(acknowledged.length / seconds),
      p50Ms: round(median(latencies)),
      p99Ms: round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * 0.99))] ?? 0),
      conflictsRetried:
        [...conflicts.values()].reduce((sum, count) => sum + count, 0) -
        [...warmupConflicts.values()].reduce((sum, count) => sum + count, 0),
      mostAttempts: Math.max(0, ...attempts.values()),
      busyRetries: results.reduce((sum, result) => sum + result.busyRetries, 0),
      unavailableRetries: results.reduce((sum, result) => sum + result.unavailableRetries, 0),
      acknowledgedTurns: acknowledged.length,
      failedTurns: results.reduce((sum, result) => sum + result.failed, 0),
      plannedTurns: planned,
      serverKilled: killed,
      postgresRestarted: restarted !== undefined,
      acknowledgedByKilled: acknowledged.filter((turn) => turn.server === 0).length,
      seconds: round(seconds),
      cpuMsPerTurn: {
        machine: perTurn(cpuBefore.machine, cpuAfter.machine, acknowledged.length),
        servers: perTurn(cpuBefore.servers, cpuAfter.servers, acknowledged.length),
        postgres: perTurn(cpuBefore.postgres, cpuAfter.postgres, acknowledged.length),
      },
    };
  } finally {
    await Promise.all(servers.map(stopServer));
    await database.drop();
  }
}

/** The CPU time of the servers still running (a killed one's is left out of both ends). */
function serversCpuMs(servers: readonly ServerProcess[]): number | undefined {
  let sum = 0;
  for (const server of servers) {
    if (!server.alive) continue;
    const used = processCpuMs(server.child.pid);
    if (used === undefined) return undefined;
    sum += used;
  }
  return sum;
}

async function countRows(url: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number(
      (await client.query<{ count: string }>(`SELECT count(*) AS count FROM ${table}`)).rows[0]?.count ?? 0,
    );
  } finally {
    await client.end();
  }
}

function perTurn(before: number | undefined, after: number | undefined, turns: number): number | undefined {
  return before === undefined || after === undefined || turns === 0 ? undefined : round((after - before) / turns);
}

/** The warm-up's clients: the measured workload's shape, on users and sessions of their own. */
function warmupPlans(options: Pick<ScaleOptions, 'clients' | 'workload' | 'warmupTurns'>): ClientPlan[] {
  const turns = options.warmupTurns ?? 0;
  if (turns === 0) return [];
  return planClients(options.clients, turns, options.workload).map((plan) => ({
    ...plan,
    userId: `warmup-${plan.userId}`,
    sessionId: `warmup-${plan.sessionId}`,
  }));
}

// What the verifier reads of a session, from ADK's own API (GET …/sessions/{id}: its events and merged state), so ADK
// is checked by what it stores, through the first server alive.
function adkSessionReader(servers: readonly ServerProcess[]): SessionStore {
  const reader = {
    async getSession(key: { appName: string; userId: string; sessionId: string }) {
      const server = servers.find((each) => each.alive) ?? servers[0];
      const response = await fetch(`${server?.url}/apps/${key.appName}/users/${key.userId}/sessions/${key.sessionId}`);
      return response.status === 200 ? await response.json() : undefined;
    },
    async close() {},
  };
  return reader as unknown as SessionStore;
}

// The last count each server reported; a killed server keeps the count it had when it last answered.
async function pollConflicts(
  servers: readonly ServerProcess[],
  conflicts: Map<number, number>,
  mostAttempts?: Map<number, number>,
): Promise<void> {
  await Promise.all(
    servers.map(async (server, index) => {
      if (!server.alive) return;
      try {
        const health = (await (await fetch(`${server.url}/healthz`)).json()) as {
          conflictsRetried: number;
          mostAttempts?: number;
        };
        conflicts.set(index, health.conflictsRetried);
        mostAttempts?.set(index, health.mostAttempts ?? 0);
      } catch {
        // Gone, or going: its last count stands.
      }
    }),
  );
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
