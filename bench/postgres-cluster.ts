import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A PostgreSQL cluster of one test file's own, which it may stop and start again. */
export type OwnCluster = {
  /** `postgres://postgres@127.0.0.1:<port>/agentctx`, the same before and after a restart. */
  url: string;
  /** A fast shutdown (`pg_ctl -m fast stop`): every session is ended with 57P01, as a restart does. No-op when stopped. */
  stop(): Promise<void>;
  /** Starts it again on the same data, port and settings. No-op when running. */
  start(): Promise<void>;
  /** Stops it and removes its files. */
  dispose(): Promise<void>;
};

const SCRIPT = new URL('../.ci/postgres.sh', import.meta.url).pathname;

/**
 * A throwaway cluster from `.ci/postgres.sh start` (as root, or as a user who may run PostgreSQL), for benchmarks
 * and tests that restart PostgreSQL: the server of `TEST_POSTGRES_URL` is shared by test files running in parallel,
 * which a restart would disturb.
 */
export async function startOwnCluster(): Promise<OwnCluster> {
  const started = await exec('bash', [SCRIPT, 'start']);
  const url = /TEST_POSTGRES_URL=(\S+)/.exec(started)?.[1];
  const dir = /AGENTCTX_PG_DIR=(\S+)/.exec(started)?.[1];
  if (url === undefined || dir === undefined) throw new Error(`.ci/postgres.sh start printed no cluster: ${started}`);
  const bin = (await readFile(join(dir, 'bin'), 'utf8')).trim();
  // pg_ctl start needs the server's options again (port, socket dir, settings); postmaster.opts keeps the command line.
  const opts = [...(await readFile(join(dir, 'data/postmaster.opts'), 'utf8')).matchAll(/"([^"]*)"/g)].map(
    (match) => match[1] ?? '',
  );
  const serverOptions = opts.slice(opts.indexOf('-D') + 2).join(' ');
  // As root the server runs as the postgres OS user, as .ci/postgres.sh does it.
  const pgCtl = (...args: string[]) =>
    process.getuid?.() === 0
      ? exec('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args])
      : exec(join(bin, 'pg_ctl'), args);
  const data = join(dir, 'data');
  let running = true;
  return {
    url,
    stop: async () => {
      if (running) await pgCtl('-D', data, '-m', 'fast', '-w', '-t', '30', 'stop');
      running = false;
    },
    start: async () => {
      if (!running)
        await pgCtl('-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '30', '-o', serverOptions, 'start');
      running = true;
    },
    dispose: async () => void (await exec('bash', [SCRIPT, 'stop', dir])),
  };
}

// stdout as text; stdin and stderr closed or kept, so a server started in the background holds no pipe of ours open.
function exec(command: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve(stdout)
        : reject(new Error(`${command} ${args.join(' ')} exited with ${String(code)}: ${stderr.trim()}`)),
    );
  });
}
