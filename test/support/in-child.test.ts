import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inChild } from './in-child.js';

let dir = '';
beforeAll(async () => void (dir = await mkdtemp(join(tmpdir(), 'agentctx-in-child-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

/** Whether a process is running: a zombie (ended, not yet reaped) is not. */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('inChild', () => {
  it('reports what a function returns, its arguments copied in', async () => {
    const outcome = await inChild((a: number, b: { n: number }) => a + b.n, { args: [2, { n: 40 }] });
    expect(outcome).toMatchObject({ kind: 'returned', value: 42 });
  });

  it('reports what an async function resolves to', async () => {
    const outcome = await inChild(async () => new Map([['k', [1, 2]]]));
    expect(outcome).toMatchObject({ kind: 'returned', value: new Map([['k', [1, 2]]]) });
  });

  it('reports what a function throws, with its name, message and code', async () => {
    const outcome = await inChild(() => {
      throw Object.assign(new RangeError('out of range'), { code: 'E_RANGE' });
    });
    expect(outcome).toMatchObject({
      kind: 'threw',
      error: { name: 'RangeError', message: 'out of range', code: 'E_RANGE' },
    });
  });

  it('reports a function that never returns as timed out, and kills it and the processes it started', async () => {
    const pidFile = join(dir, 'grandchild.pid');
    const started = performance.now();
    const outcome = await inChild(
      async (file: string) => {
        const { spawn } = await import('node:child_process');
        const { writeFileSync } = await import('node:fs');
        const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
        writeFileSync(file, String(grandchild.pid));
        for (;;);
      },
      // Long enough for the child to start its own child on a loaded machine (a CI run beside other work).
      { args: [pidFile], timeoutMs: 5_000 },
    );
    expect(outcome).toEqual({ kind: 'timed-out', timeoutMs: 5_000 });
    expect(performance.now() - started).toBeLessThan(20_000);
    const grandchild = Number(await readFile(pidFile, 'utf8'));
    expect(grandchild).toBeGreaterThan(0);
    await expect.poll(() => running(grandchild), { timeout: 2_000 }).toBe(false);
  });

  it('stops a catastrophic regular expression', async () => {
    const outcome = await inChild((input: string) => /(a+)+$/u.test(input), {
      args: ['a'.repeat(40) + '!'],
      timeoutMs: 1_000,
    });
    expect(outcome.kind).toBe('timed-out');
  });

  it('reports a function that ends its process as exited, with its code and what it wrote to stderr', async () => {
    const outcome = await inChild(() => {
      process.stderr.write('leaving now\n');
      process.exit(3);
    });
    expect(outcome).toMatchObject({ kind: 'exited', code: 3, signal: null, stderr: 'leaving now\n' });
  });

  it('runs an exported function of a TypeScript module', async () => {
    const outcome = await inChild(
      { module: new URL('../../src/engine/util/json-reader.ts', import.meta.url), exportName: 'closest' },
      { args: ['stat', ['state', 'tools']] },
    );
    expect(outcome).toMatchObject({ kind: 'returned', value: 'state' });
  });

  it('says when the module has no such function', async () => {
    const outcome = await inChild({
      module: new URL('../../src/engine/util/json-reader.ts', import.meta.url),
      exportName: 'nothing',
    });
    expect(outcome).toMatchObject({
      kind: 'threw',
      error: { name: 'TypeError', message: expect.stringContaining('exports no function named nothing') },
    });
  });
});
