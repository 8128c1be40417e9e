// Processes for bench:scale: a throwaway PostgreSQL cluster when none is given, and `agentctx serve` servers.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import pg from 'pg';

const root = new URL('..', import.meta.url).pathname;

export type Database = { url: string; drop(): Promise<void> };

/**
 * A fresh database for one run: on the server `base` names, or on a cluster started with `.ci/postgres.sh`
 * (stopped again by `drop`).
 */
export async function freshDatabase(base: string | undefined): Promise<Database> {
  let server = base;
  let cluster: string | undefined;
  if (server === undefined) {
    const started = spawnSync('bash', [`${root}.ci/postgres.sh`, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (started.status !== 0) throw new Error('no PostgreSQL: pass --postgres <url> (or set TEST_POSTGRES_URL), or run as root so .ci/postgres.sh can start one');
    server = /TEST_POSTGRES_URL=(\S+)/.exec(started.stdout)?.[1];
    cluster = /AGENTCTX_PG_DIR=(\S+)/.exec(started.stdout)?.[1];
    if (server === undefined) throw new Error(`.ci/postgres.sh printed no URL: ${started.stdout}`);
  }
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
      const client = new pg.Client({ connectionString: server });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
      if (cluster !== undefined) spawnSync('bash', [`${root}.ci/postgres.sh`, 'stop', cluster], { stdio: 'ignore' });
    },
  };
}

export type ServerProcess = { url: string; child: ChildProcess; alive: boolean };

/** Starts `agentctx serve` with the bench agent on `store`, and resolves once it prints the URL it listens on. */
export function startServer(store: string, nodeArgs: readonly string[] = []): Promise<ServerProcess> {
  const child = spawn(
    process.execPath,
    [...nodeArgs, `${root}bin/agentctx.js`, 'serve', `${root}bench/scale-agent.mjs`, '--store', store, '--port', '0', '--model', `scripted:${root}bench/scale-script.yaml`],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return listening(child, 'agentctx serve');
}

/**
 * Starts ADK's own API server (bench/throughput-adk-server.mjs: AdkApiServer with DatabaseSessionService) on the
 * database `url`; `init` creates ADK's tables first, which one process must do alone.
 */
export function startAdkServer(url: string, init: boolean, nodeArgs: readonly string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, `${root}bench/throughput-adk-server.mjs`, url, ...(init ? ['--init'] : [])], { stdio: ['ignore', 'pipe', 'pipe'], env: withoutMikroOrm() });
  return listening(child, 'ADK api server');
}

/** Starts bench:throughput's floor server (bench/throughput-floor-server.mjs): agentctx's run protocol, no work behind it. */
export function startFloorServer(): Promise<ServerProcess> {
  const child = spawn(process.execPath, [`${root}bench/throughput-floor-server.mjs`], { stdio: ['ignore', 'pipe', 'pipe'] });
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
