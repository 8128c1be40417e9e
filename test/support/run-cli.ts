import { execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';

const run = promisify(execFile);
export const repositoryRoot = new URL('../..', import.meta.url).pathname;
const bin = join(repositoryRoot, 'bin', 'agentctx.js');

export type CliResult = { code: number; stdout: string; stderr: string };

/** Runs the built CLI as a user would, from the repository root; `npm test` builds it first. */
export async function agentctx(...args: string[]): Promise<CliResult> {
  return agentctxWith({}, ...args);
}

/** The same, with extra environment variables. */
export async function agentctxWith(env: Record<string, string>, ...args: string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: repositoryRoot, env: { ...process.env, NO_COLOR: '1', ...env }, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The CLI's promise for bad input: one line on stderr, no stack trace, the given exit code. */
export function expectOneLineError(result: CliResult, code: number, pattern: RegExp): void {
  expect(result.code).toBe(code);
  expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  expect(result.stderr).toMatch(pattern);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

/** Runs the CLI with text on its standard input (not a terminal), as a pipe would. */
export function agentctxWithInput(input: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: repositoryRoot, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(input);
  });
}
