import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentctx, expectOneLineError } from '../support/cli.js';
import { spawnListening } from '../support/listening.js';

// `agentctx serve --protocol adk`: several agents as several apps, speaking ADK's API server protocol.

const children: ChildProcessWithoutNullStreams[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

async function serveAdk(args: string[]): Promise<{ child: ChildProcessWithoutNullStreams; url: string; line: string }> {
  const server = spawnListening(
    ['serve', '--protocol', 'adk', ...args, '--store', 'memory', '--port', '0'],
    {},
    /^listening on (http:\/\/127\.0\.0\.1:\d+) \(ADK protocol; [^)]*\)\n/,
  );
  children.push(server.child);
  const url = await server.url;
  return { child: server.child, url, line: server.output().stdout.trim() };
}

describe('agentctx serve --protocol adk', () => {
  it('serves two agents as two apps; a turn streams back as ADK events, and SIGTERM stops it with 0', {
    timeout: 60_000,
  }, async () => {
    const { child, url, line } = await serveAdk([
      'examples/draft-and-review/pipeline.yaml',
      'examples/coordinator.yaml',
      '--model',
      'scripted:examples/draft-and-review/script.yaml',
    ]);
    expect(line).toMatch(/\(ADK protocol; apps draft_and_review, \w+\)$/);
    const apps = (await (await fetch(`${url}/list-apps`)).json()) as string[];
    expect(apps).toContain('draft_and_review');
    expect(apps).toHaveLength(2);
    const created = await fetch(`${url}/apps/draft_and_review/users/u/sessions/s1`, { method: 'POST' });
    expect(created.status).toBe(200);
    const stream = await fetch(`${url}/run_sse`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        appName: 'draft_and_review',
        userId: 'u',
        sessionId: 's1',
        newMessage: { role: 'user', parts: [{ text: 'Write about X' }] },
      }),
    });
    const text = await stream.text();
    const events = text
      .split('\n\n')
      .filter((chunk) => chunk.startsWith('data: '))
      .map((chunk) => JSON.parse(chunk.slice(6)) as { author: string });
    expect(events.map((event) => event.author)).toEqual(['generator_agent', 'reviewer_agent']);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('serves ADK’s dev UI with --dev-ui, pointed at its own ADK routes', { timeout: 60_000 }, async () => {
    const { child, url } = await serveAdk([
      'examples/draft-and-review/pipeline.yaml',
      '--dev-ui',
      '--model',
      'scripted:examples/draft-and-review/script.yaml',
    ]);
    const root = await fetch(`${url}/`, { redirect: 'manual' });
    expect([root.status, root.headers.get('location')]).toEqual([302, '/dev-ui/']);
    const page = await fetch(`${url}/dev-ui/`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<app-root></app-root>');
    expect(await (await fetch(`${url}/dev-ui/assets/config/runtime-config.json`)).json()).toEqual({ backendUrl: '' });
    // agentctx's inspector beside it, over the same store.
    expect(await (await fetch(`${url}/inspector`)).text()).toContain('/assets/app.js');
    expect(await (await fetch(`${url}/api/info`)).json()).toMatchObject({ apps: ['draft_and_review'] });
    // Only the bundle's own files: a path that leaves it, or names nothing in it, is the API's 404.
    for (const path of ['/dev-ui/../package.json', '/dev-ui/%2e%2e/package.json', '/dev-ui/nothing.js'])
      expect((await fetch(`${url}${path}`)).status).toBe(404);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('keeps eval sets under --eval-dir, as ADK’s agents folder holds them', { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentctx-serve-evals-'));
    try {
      const { child, url } = await serveAdk([
        'examples/draft-and-review/pipeline.yaml',
        '--eval-dir',
        dir,
        '--model',
        'scripted:examples/draft-and-review/script.yaml',
      ]);
      const created = await fetch(`${url}/dev/apps/draft_and_review/eval-sets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ evalSet: { evalSetId: 'smoke' } }),
      });
      expect(created.status).toBe(200);
      expect(await (await fetch(`${url}/dev/apps/draft_and_review/eval_sets`)).json()).toEqual(['smoke']);
      expect(await readdir(join(dir, 'draft_and_review'))).toEqual(['smoke.evalset.json']);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses what it cannot serve with one line', async () => {
    expectOneLineError(
      await agentctx('serve', '--eval-dir', '.', 'examples/draft-and-review/pipeline.yaml'),
      2,
      /--eval-dir needs --protocol adk/,
    );
    expectOneLineError(
      await agentctx('serve', '--dev-ui', 'examples/draft-and-review/pipeline.yaml'),
      2,
      /--dev-ui needs --protocol adk/,
    );
    expectOneLineError(
      await agentctx('serve', '--protocol', 'grpc', 'examples/draft-and-review/pipeline.yaml'),
      2,
      /--protocol must be agentctx or adk, got 'grpc'/,
    );
    expectOneLineError(
      await agentctx('serve', 'examples/draft-and-review/pipeline.yaml', 'examples/coordinator.yaml'),
      2,
      /serve takes one agent file, got 2/,
    );
    expectOneLineError(
      await agentctx(
        'serve',
        '--protocol',
        'adk',
        'examples/draft-and-review/pipeline.yaml',
        'examples/draft-and-review/pipeline.yaml',
        '--model',
        'scripted:examples/draft-and-review/script.yaml',
        '--port',
        '0',
      ),
      2,
      /Two agents are both named 'draft_and_review'/,
    );
    expectOneLineError(
      await agentctx('serve', '--protocol', 'adk', 'examples/draft-and-review/pipeline.yaml', '--state', 'x.yaml'),
      2,
      /--state and --artifact are not taken with --protocol adk/,
    );
  });
});
