import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, sseReader } from '../server/helpers.js';
import { agentctx, agentctxWith, expectOneLineError } from '../support/cli.js';
import { spawnListening } from '../support/listening.js';

let dir = '';
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-serve-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

/** Starts `agentctx serve` from the built bin, and resolves once it printed its URL. */
function serve(args: string[], env: Record<string, string>) {
  const server = spawnListening(
    ['serve', ...args, '--port', '0'],
    env,
    /^listening on (http:\/\/127\.0\.0\.1:\d+) \(app waiter\)\n$/,
  );
  children.push(server.child);
  return server;
}

describe('agentctx serve', () => {
  it('serves over HTTP with a token, and on SIGTERM refuses new requests, finishes the running turn and exits 0', async () => {
    const store = join(dir, 'agentctx.db');
    const release = join(dir, 'release');
    const server = serve(
      ['test/fixtures/waiting-agent.mjs', '--model', 'scripted:test/fixtures/waiting-script.yaml', '--store', store],
      {
        AGENTCTX_TOKEN: 'tok',
        AGENTCTX_TEST_RELEASE: release,
      },
    );
    const url = await server.url;
    const client = api(url, { authorization: 'Bearer tok' });
    expect((await api(url).get('/healthz')).status).toBe(401);
    expect((await client.get('/healthz')).json).toMatchObject({ ok: true, conflictsRetried: 0 });
    const sessions = '/apps/waiter/users/u/sessions';
    expect((await client.post(sessions, { sessionId: 's' })).status).toBe(201);

    const stream = sseReader(await client.run(`${sessions}/s`, { message: 'go' }));
    expect((await stream.next())?.data).toMatchObject({ author: 'user' });
    expect((await stream.next())?.data).toMatchObject({
      author: 'waiter',
      content: { parts: [{ functionCall: { name: 'wait' } }] },
    });

    server.child.kill('SIGTERM');
    await expect.poll(async () => (await client.get('/healthz')).status, { timeout: 5000 }).toBe(503);
    expect(server.child.exitCode).toBeNull();

    await writeFile(release, '');
    const rest = await stream.rest();
    expect(rest.map((frame) => frame.event)).toEqual(['event', 'event', 'done']);
    expect(rest[0]?.data).toMatchObject({
      content: { parts: [{ functionResponse: { name: 'wait', response: { released: true } } }] },
    });
    expect(rest[1]?.data).toMatchObject({ author: 'waiter', content: { parts: [{ text: 'finished' }] } });
    expect(await server.exited).toBe(0);
    expect(server.output().stderr).toBe('SIGTERM: shutting down, waiting for 1 request in flight\n');

    const calls = await agentctx(
      'inspect',
      '--app',
      'waiter',
      '--session',
      's',
      '--user',
      'u',
      '--store',
      store,
      '--json',
    );
    expect((JSON.parse(calls.stdout) as unknown[]).length).toBe(2);
  });

  it('refuses to listen beyond loopback without a token, and explains its options', async () => {
    const open = await agentctxWith(
      { AGENTCTX_TOKEN: '' },
      'serve',
      'examples/draft-and-review/pipeline.yaml',
      '--host',
      '0.0.0.0',
    );
    expectOneLineError(open, 2, /--host 0\.0\.0\.0 reaches beyond this machine, so the server needs a token/);
    expectOneLineError(
      await agentctx('serve', 'examples/draft-and-review/pipeline.yaml', '--port', 'http'),
      2,
      /--port must be a whole number from 0 to 65535, got 'http'/,
    );
    expectOneLineError(await agentctx('serve'), 2, /serve needs an agent file or module/);
    const help = await agentctx('serve', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: agentctx serve <agent-file-or-module>/);
    expect(help.stdout).toContain("curl -N -X POST $A/s1/run -H 'content-type: application/json'");
    expect((await agentctx('--help')).stdout).toMatch(/^\s+serve\s+serve an agent over HTTP/m);
  });
});
