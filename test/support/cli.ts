import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { main } from '../../src/cli/main.js';

// The one harness for CLI tests. Most test what a command prints and returns: `agentctx` and `agentctxWith` run the
// CLI's `main` in this process (what `bin/agentctx.js` calls), as a user would from the repository root, which costs
// no process start. Where the process boundary is what is tested — the built bin, exit codes set by the process,
// signals, standard input, a module's import side effects, a pipe closed early — `agentctxProcess` and
// `agentctxProcessWith` run the built CLI as a child, and `spawnAgentctx` starts servers (`serve`, `web`).

const run = promisify(execFile);
export const repositoryRoot = new URL('../..', import.meta.url).pathname;
const bin = join(repositoryRoot, 'bin', 'agentctx.js');

export type CliResult = { code: number; stdout: string; stderr: string };

/** Runs the CLI's `main` in this process, from the repository root, with this process's environment. */
export async function agentctx(...args: string[]): Promise<CliResult> {
  return agentctxWith({}, ...args);
}

/** The same, with extra environment variables. */
export async function agentctxWith(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  return cli(args, { env: { ...stringEnv(process.env), NO_COLOR: '1', ...env } });
}

/** Runs the built CLI as a child process, as a user would, from the repository root; `npm test` builds it first. */
export async function agentctxProcess(...args: string[]): Promise<CliResult> {
  return agentctxProcessWith({}, ...args);
}

/** The same, with extra environment variables. */
export async function agentctxProcessWith(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd: repositoryRoot,
      env: { ...process.env, NO_COLOR: '1', ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** Runs the CLI with text on its standard input (not a terminal), as a pipe would. */
export function agentctxWithInput(input: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnAgentctx(args);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** The built CLI as a long-running child (`serve`, `web`), from the repository root. */
export function spawnAgentctx(
  args: readonly string[],
  env: Record<string, string> = {},
): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [bin, ...args], {
    cwd: repositoryRoot,
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
}

/** `agentctx web` running as a child, once it printed its address; `stop` sends SIGTERM and waits for its exit code. */
export type RunningInspector = { url: string; stdout: string; stop(): Promise<number | null>; kill(): void };

/**
 * Starts `agentctx web …` and resolves when its first line matches `ready` (whose first group is the URL); rejects
 * with its standard error if it exits before. The caller stops it (`stop`), or kills it in a `finally`.
 */
export async function startInspectorProcess(
  args: readonly string[],
  ready: RegExp = /^inspector on (http:\/\/127\.0\.0\.1:\d+\/)/,
  env: Record<string, string> = { AGENTCTX_TOKEN: '' },
): Promise<RunningInspector> {
  const child = spawnAgentctx(['web', ...args], env);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const kill = () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = ready.exec(stdout);
        if (match?.[1] !== undefined) resolve(match[1]);
      });
      void exited.then((code) => reject(new Error(`agentctx web exited with ${String(code)}: ${stderr}`)));
    });
    return {
      url,
      stdout,
      kill,
      stop: () => {
        child.kill('SIGTERM');
        return exited;
      },
    };
  } catch (error) {
    kill();
    throw error;
  }
}

/** The CLI's `main`, in this process (what `bin/agentctx.js` calls), with its output captured. */
export async function cli(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; ask?: (question: string) => boolean } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: (text: string) => void (stdout += text),
    stderr: (text: string) => void (stderr += text),
    cwd: options.cwd ?? repositoryRoot,
    env: options.env ?? {},
    isTty: false,
    ...(options.ask === undefined ? {} : { ask: options.ask }),
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

/** The CLI's promise for an error: one line on stderr, no stack trace, the given exit code. */
export function expectOneLineError(result: CliResult, code: number, pattern: RegExp): void {
  expect(result.code).toBe(code);
  expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

/** The CLI's promise for bad input: exit 2, one line on stderr that matches, no stack trace, nothing on stdout. */
export function expectCliError(result: CliResult, pattern: RegExp): void {
  expect({ code: result.code, stdout: result.stdout }).toEqual({ code: 2, stdout: '' });
  expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  expect(result.stderr).toMatch(/^error: /);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at |unexpected failure/);
}
