// Processes for bench:scale: a throwaway PostgreSQL cluster when none is given, and the servers.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { startOwnCluster, type OwnCluster } from './postgres-cluster.js';

const root = new URL('..', import.meta.url).pathname;

export type Database = {
  url: string;
  drop(): Promise<void>;
  /** Stops PostgreSQL (a fast shutdown: every session ended) and starts it again; only on a cluster of the run's own. */
  restart?: (() => Promise<void>) | undefined;
};

/**
 * A fresh database for one run: on the server `base` names, or on a cluster of its own started with
 * `.ci/postgres.sh` (which it may restart, and stops again in `drop`).
 */
export async function freshDatabase(base: string | undefined): Promise<Database> {
  const cluster =
    base === undefined
      ? await startOwnCluster().catch((error: unknown) => {
          throw new Error(
            `no PostgreSQL: pass --postgres <url> (or set TEST_POSTGRES_URL), or run as root so .ci/postgres.sh can start one (${error instanceof Error ? error.message : String(error)})`,
          );
        })
      : undefined;
  const server = base ?? (cluster as OwnCluster).url;
  const name = `agentctx_scale_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      if (cluster !== undefined) return cluster.dispose();
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
    restart:
      cluster === undefined
        ? undefined
        : async () => {
            await cluster.stop();
            await cluster.start();
          },
  };
}

/** How the bench agent's tool writes its counts: read-modify-write `set`s (scale-agent.mjs) or `add`s (scale-agent-ops.mjs). */
export type StateWrites = 'read-modify-write' | 'operations';

export type ServerProcess = { url: string; child: ChildProcess; alive: boolean };

/** Starts `agentctx serve` with the bench agent (its counts written as `stateWrites` says) on `store`, and resolves once it prints the URL it listens on. */
export function startServer(
  store: string,
  nodeArgs: readonly string[] = [],
  stateWrites: StateWrites = 'read-modify-write',
): Promise<ServerProcess> {
  const agent = stateWrites === 'operations' ? 'scale-agent-ops.mjs' : 'scale-agent.mjs';
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      `${root}bin/agentctx.js`,
      'serve',
      `${root}bench/${agent}`,
      '--store',
      store,
      '--port',
      '0',
      '--model',
      `scripted:${root}bench/scale-script.yaml`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return listening(child, 'agentctx serve');
}

/**
 * Starts ADK's own API server (bench/throughput-adk-server.mjs: AdkApiServer with DatabaseSessionService) on the
 * database `url`; `init` creates ADK's tables first, which one process must do alone.
 */
export function startAdkServer(url: string, init: boolean, nodeArgs: readonly string[] = []): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, `${root}bench/throughput-adk-server.mjs`, url, ...(init ? ['--init'] : [])],
    { stdio: ['ignore', 'pipe', 'pipe'], env: withoutMikroOrm() },
  );
  return listening(child, 'ADK api server');
}

/**
 * Starts one of bench:throughput's floor servers (bench/throughput-floor-server.mjs): agentctx's run protocol, no work
 * behind it; with a database URL, each event committed to it before it is streamed.
 */
export function startFloorServer(databaseUrl?: string): Promise<ServerProcess> {
  const args = [`${root}bench/throughput-floor-server.mjs`, ...(databaseUrl === undefined ? [] : [databaseUrl])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return listening(child, 'floor server');
}

// MikroORM reads MIKRO_ORM_* variables, which would override the URL ADK is given.
function withoutMikroOrm(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MIKRO_ORM_')));
}

function listening(child: ChildProcess, what: string): Promise<ServerProcess> {
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      const url = /listening on (\S+)/.exec(line)?.[1];
      if (url !== undefined) resolve({ url, child, alive: true });
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}: ${errors.trim()}`)));
  });
}

/** Stops a server gracefully (SIGTERM: in-flight turns finish) and waits for it to exit. */
export function stopServer(server: ServerProcess): Promise<void> {
  if (!server.alive || server.child.exitCode !== null) return Promise.resolve();
  server.alive = false;
  return new Promise((resolve) => {
    server.child.once('exit', () => resolve());
    server.child.kill('SIGTERM');
  });
}
