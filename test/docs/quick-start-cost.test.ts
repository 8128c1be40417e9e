import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { repositoryRoot } from '../support/cli.js';

// The Quick start's promise, offline: `npm start` prints what each run costs with Anthropic's prompt caching, and
// `agentctx cost` on the sessions it recorded prints the same USD, because every call was recorded with the usage the
// billing simulation gave it (the scripted model billed as claude-sonnet-4-6).

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function run(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('the Quick start', () => {
  it('prints the USD `agentctx cost` prints for the same sessions, naive and paged', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentctx-quick-start-'));
    dirs.push(dir);
    const loader = pathToFileURL(join(repositoryRoot, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
    const started = await run(['--import', loader, join(repositoryRoot, 'examples', 'report-analyst', 'main.ts')], dir);
    expect({
      code: started.code,
      stderr: started.stderr
        .split('\n')
        .filter((line) => !line.startsWith('analysing'))
        .join(''),
    }).toEqual({ code: 0, stderr: '' });
    const printed = /naive \$(\d+\.\d{3}) .*paged \$(\d+\.\d{3})/.exec(started.stdout);
    expect(printed, started.stdout).not.toBeNull();
    const bin = join(repositoryRoot, 'bin', 'agentctx.js');
    for (const [mode, usd] of [
      ['naive', printed?.[1]],
      ['paged', printed?.[2]],
    ] as const) {
      const cost = await run(
        [bin, 'cost', '--app', 'report_analyst', '--user', 'analyst', '--session', `report-analyst-${mode}`, '--json'],
        dir,
      );
      expect({ code: cost.code, stderr: cost.stderr }).toEqual({ code: 0, stderr: '' });
      const report = JSON.parse(cost.stdout) as { total: { usd?: number; unpricedCalls: number; calls: number } };
      expect(report.total.unpricedCalls).toBe(0);
      expect(report.total.usd?.toFixed(3)).toBe(usd);
      // And the table a person reads says the same.
      const table = await run(
        [bin, 'cost', '--app', 'report_analyst', '--user', 'analyst', '--session', `report-analyst-${mode}`],
        dir,
      );
      expect(table.stdout).toContain(`$${report.total.usd?.toFixed(4)}`);
    }
    expect(printed?.[2]).toBe('0.540');

    // The web inspector's cost tab reads the same recorded usage.
    const store = createSqliteSessionStore({ path: join(dir, '.agentctx', 'agentctx.db') });
    try {
      const app = createInspectorApp({ store, version: 'test' });
      for (const [mode, usd] of [
        ['naive', printed?.[1]],
        ['paged', printed?.[2]],
      ] as const) {
        const response = await app.request(
          `/api/apps/report_analyst/users/analyst/sessions/report-analyst-${mode}/cost`,
          { headers: { host: '127.0.0.1:8090' } },
        );
        const view = (await response.json()) as { measure: string; total: { usd?: number } };
        expect({ status: response.status, measure: view.measure, usd: view.total.usd?.toFixed(3) }).toEqual({
          status: 200,
          measure: 'usd',
          usd,
        });
      }
    } finally {
      await store.close();
    }
  });
});
