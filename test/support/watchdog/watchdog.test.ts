import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { repositoryRoot } from '../cli.js';
import { processGroup } from './process-tree.js';

// The watchdog's own test: the suite's set-up (vitest.config.ts, through test/fixtures/watchdog/vitest.config.ts) run
// on a file whose test spins in a synchronous endless loop, with a 5-second file limit.

const VITEST = join(repositoryRoot, 'node_modules', 'vitest', 'vitest.mjs');
const REPORT = join(repositoryRoot, 'test-results', 'watchdog-fixture.json');

it.skipIf(process.platform !== 'linux')(
  'stops a file that spins for ever: names it and its test, exits 1, counts it as failed and leaves no process behind',
  { timeout: 60_000 },
  async () => {
    await rm(REPORT, { force: true });
    // A clean environment: none of the outer run's vitest variables, nor its watchdog folder.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && !name.startsWith('AGENTCTX_TEST_')),
    );
    const started = performance.now();
    // Its own process group, to find afterwards any process of the run still alive.
    const run = spawn(process.execPath, [VITEST, 'run', '--config', 'test/fixtures/watchdog/vitest.config.ts'], {
      cwd: repositoryRoot,
      env: { ...env, NO_COLOR: '1', AGENTCTX_TEST_FILE_LIMIT: '5' },
      detached: true,
    });
    let output = '';
    run.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    run.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const backstop = setTimeout(() => process.kill(-run.pid!, 'SIGKILL'), 50_000);
    const code = await new Promise<number | null>((resolve) => run.on('close', resolve));
    clearTimeout(backstop);
    const seconds = (performance.now() - started) / 1000;

    expect(code, output).toBe(1);
    expect(seconds).toBeLessThan(30);
    expect(output).toContain(
      'watchdog: stopping the run: test/fixtures/watchdog/spin.hang.ts ran longer than the limit of 5 s a file',
    );
    expect(output).toMatch(/test\/fixtures\/watchdog\/spin\.hang\.ts {2}\d+\.\d s, in test "spins for ever"/);
    const report = JSON.parse(await readFile(REPORT, 'utf8')) as {
      numFailedTests: number;
      watchdog: { stuck: unknown[] };
    };
    expect(report.numFailedTests).toBeGreaterThanOrEqual(1);
    expect(report.watchdog.stuck).toEqual([{ file: 'test/fixtures/watchdog/spin.hang.ts', test: 'spins for ever' }]);
    await expect.poll(() => processGroup(run.pid!), { timeout: 2_000 }).toEqual([]);
  },
);
