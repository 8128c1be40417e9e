import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvalComparison } from '../../src/analysis/eval/compare-results.js';
import { parseComparison } from '../../src/analysis/eval/comparison-file.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { cli, expectCliError, startInspectorProcess } from '../support/cli.js';
import { getJson } from './api-requests.js';

// Comparisons in the inspector (issue 50): `agentctx eval --compare … --store db --json > file`, then
// `agentctx web --store db --comparison file` serves them under /api/comparisons; a file that is not one is refused
// before anything listens, every problem named.

describe('comparisons in the inspector', () => {
  let dir: string;
  let db: string;
  let file: string;
  let comparison: EvalComparison;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'agentctx-web-comparison-'));
    db = join(dir, 'eval.db');
    file = join(dir, 'support.json');
    const compared = await cli([
      'eval',
      '--compare',
      'examples/eval/support.yaml',
      'examples/eval/support-compacted.yaml',
      'examples/eval',
      '--model',
      'scripted:examples/eval/support-script.yaml',
      '--store',
      db,
      '--json',
    ]);
    expect(compared.code).toBe(1);
    await writeFile(file, compared.stdout);
    comparison = parseComparison(compared.stdout, file);
  }, 60_000);

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('lists them and serves each whole; the sessions they name are in the store', async () => {
    const store = createSqliteSessionStore({ path: db });
    try {
      const app = createInspectorApp({ store, comparisons: [{ name: 'support.json', comparison }] });
      expect((await getJson(app, '/api/info')).comparisons).toBe(1);
      expect(await getJson(app, '/api/comparisons')).toEqual([
        {
          index: 1,
          name: 'support.json',
          a: 'examples/eval/support.yaml',
          b: 'examples/eval/support-compacted.yaml',
          cases: 2,
          changed: 1,
        },
      ]);
      const whole = await getJson(app, '/api/comparisons/1');
      expect(whole.comparison.a.appName).toBe('support_agent');
      const outcome = whole.comparison.cases[0].b;
      const session = await getJson(
        app,
        `/api/apps/support_agent/users/${outcome.userId}/sessions/${encodeURIComponent(outcome.sessionId)}`,
      );
      expect(session.calls).toHaveLength(6);
      const missing = await app.request('/api/comparisons/2', { headers: { host: '127.0.0.1:8090' } });
      expect(missing.status).toBe(404);
      expect(((await missing.json()) as { error: { message: string } }).error.message).toBe(
        'There is no comparison 2: the inspector was given 1.',
      );
      expect((await app.request('/api/comparisons/0', { headers: { host: '127.0.0.1:8090' } })).status).toBe(400);
    } finally {
      await store.close();
    }
  });

  it('agentctx web --comparison serves the file', async () => {
    const web = await startInspectorProcess(
      ['--store', db, '--port', '0', '--comparison', file],
      /^inspector on (http:\/\/127\.0\.0\.1:\d+\/).*1 comparison/,
    );
    try {
      const served = (await (await fetch(`${web.url}api/comparisons/1`)).json()) as {
        name: string;
        comparison: unknown;
      };
      expect(served.name).toBe(file);
      expect(served.comparison).toEqual(JSON.parse(await readFile(file, 'utf8')));
      expect(await web.stop()).toBe(0);
    } finally {
      web.kill();
    }
  });

  it('refuses a file that is not a comparison, naming every problem', async () => {
    const bad = join(dir, 'bad.json');
    const broken = JSON.parse(await readFile(file, 'utf8')) as Record<string, any>;
    broken['cases'][0].passedOn = 'sometimes';
    delete broken['b'].label;
    broken['a'].efficiency.usd = 'cheap';
    await writeFile(bad, JSON.stringify(broken));
    const result = await cli(['web', '--store', db, '--comparison', bad]);
    expectCliError(result, /bad\.json/);
    expect(result.stderr).toContain('b.label');
    expect(result.stderr).toContain('cases[0].passedOn');
    expect(result.stderr).toContain('a.efficiency.usd');
    await writeFile(bad, 'not json');
    expectCliError(await cli(['web', '--store', db, '--comparison', bad]), /is not JSON/);
  });
});
