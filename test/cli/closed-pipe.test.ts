import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../support/cli.js';

// `agentctx inspect … | head`: the reader closes the pipe after its first lines. The command ends quietly, with the
// status it would have had, instead of dying on EPIPE with a stack trace (issue 46).

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** Runs the built CLI, reads its first chunk of output, then closes the pipe as `head` does; killed after 20 s. */
function firstChunkThenClose(args: string[]): Promise<{ code: number | null; stderr: string; first: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repositoryRoot, 'bin', 'agentctx.js'), ...args], {
      cwd: repositoryRoot,
      env: { ...process.env, NO_COLOR: '1' },
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    let stderr = '';
    let first = '';
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString('utf8')));
    child.stdout.once('data', (chunk: Buffer) => {
      first = chunk.toString('utf8');
      child.stdout.destroy();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, first });
    });
  });
}

describe('a reader that closes the pipe early', () => {
  it('ends the command quietly: no stack trace, the status it would have had', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentctx-pipe-'));
    dirs.push(dir);
    // An instruction of 4 MB, so the request printed is far more than a pipe holds.
    const file = join(dir, 'long.yaml');
    await writeFile(
      file,
      `name: long\nmodel: gemini-2.5-flash\ninstruction: "${'All work and no play. '.repeat(200_000)}"\n`,
    );
    const result = await firstChunkThenClose(['inspect', file]);
    expect(result.first).toContain("Request for agent 'long'");
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});
