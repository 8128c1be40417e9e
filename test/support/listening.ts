import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawnAgentctx } from './cli.js';

/** A built CLI process (`serve`, `web`) that prints its URL once it listens. */
export type Listening = {
  child: ChildProcessWithoutNullStreams;
  /** The URL it printed (the pattern's first group); rejects when the process exits before printing it. */
  url: Promise<string>;
  /** Its exit code, once it exits. */
  exited: Promise<number | null>;
  output(): { stdout: string; stderr: string };
  /** SIGTERM, then its exit code and standard error. */
  stop(): Promise<{ code: number | null; stderr: string }>;
};

/**
 * Starts the built CLI with `args` (which name `--port 0`) and watches its output for the URL it listens on: the one
 * helper every test that spawns a server uses. `pattern`'s first group is the URL.
 */
export function spawnListening(
  args: readonly string[],
  env: Record<string, string> = {},
  pattern: RegExp = /(http:\/\/127\.0\.0\.1:\d+)/,
): Listening {
  const child = spawnAgentctx(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const match = pattern.exec(stdout);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then((code) =>
      reject(new Error(`agentctx ${args[0] ?? ''} exited with ${String(code)} before listening: ${stderr}`)),
    );
  });
  // A caller that never awaits the URL (it expects the exit) must not leave an unhandled rejection behind.
  url.catch(() => undefined);
  return {
    child,
    url,
    exited,
    output: () => ({ stdout, stderr }),
    stop: async () => {
      child.kill('SIGTERM');
      return { code: await exited, stderr };
    },
  };
}
