import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer, type FakeServer } from '../providers/fake-server.js';
import { agentctx, spawnAgentctx } from '../support/cli.js';

// A model call that never answers (a hung provider), then Ctrl-C or kill -9: the call must be on record, its request
// inspectable, before anything came back.

let server: FakeServer;
let dir = '';
let agentFile = '';
let release: () => void = () => undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-interrupt-'));
  agentFile = join(dir, 'agent.yaml');
  await writeFile(agentFile, 'name: helper\ninstruction: Answer briefly.\n');
  const hung = new Promise<void>((resolve) => (release = resolve));
  server = await startFakeServer(async () => {
    await hung;
    return { status: 503 };
  });
});

afterAll(async () => {
  release();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

async function runUntilSent(store: string, session: string) {
  const before = server.received.length;
  const child = spawnAgentctx(
    [
      'run',
      agentFile,
      '--model',
      `openai-compatible:local@${server.url}/v1`,
      '--store',
      store,
      '--session',
      session,
      '--message',
      'Are you there?',
    ],
    { OPENAI_COMPATIBLE_API_KEY: '' },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  while (server.received.length === before) await new Promise((resolve) => setTimeout(resolve, 20));
  return { child, exited, stderr: () => stderr };
}

describe('agentctx run interrupted during a model call', () => {
  it('Ctrl-C: prints one line, exits 130, and leaves the call recorded as aborted with its request', async () => {
    const store = join(dir, 'sigint.db');
    const { child, exited, stderr } = await runUntilSent(store, 'sig1');
    child.kill('SIGINT');
    const { code } = await exited;
    expect(code).toBe(130);
    const lines = stderr().trim().split('\n');
    expect(lines[0]).toMatch(/^session sig1 /);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(
      /^Interrupted: call 1 of session sig1 was recorded as aborted; see it with agentctx inspect .* --session sig1 --call 1$/,
    );

    const list = await agentctx('inspect', agentFile, '--session', 'sig1', '--store', store, '--json');
    expect(JSON.parse(list.stdout)).toMatchObject([{ index: 1, agent: 'helper', status: 'aborted' }]);
    const call = await agentctx('inspect', agentFile, '--session', 'sig1', '--store', store, '--call', '1');
    expect(call.code).toBe(0);
    expect(call.stdout).toContain('Answer briefly.');
    expect(call.stdout).toContain('Are you there?');
    expect(call.stdout).toMatch(/ANSWER · aborted/);
    const wire = await agentctx(
      'inspect',
      agentFile,
      '--session',
      'sig1',
      '--store',
      store,
      '--call',
      '1',
      '--wire',
      '--json',
    );
    expect(JSON.parse(wire.stdout)).toEqual(server.received.at(-1)?.body);
  });

  it('kill -9: the call stays pending, and its request is inspectable', async () => {
    const store = join(dir, 'sigkill.db');
    const { child, exited } = await runUntilSent(store, 'sig2');
    child.kill('SIGKILL');
    expect((await exited).signal).toBe('SIGKILL');
    const list = await agentctx('inspect', agentFile, '--session', 'sig2', '--store', store, '--json');
    expect(JSON.parse(list.stdout)).toMatchObject([{ index: 1, status: 'pending' }]);
    const call = await agentctx('inspect', agentFile, '--session', 'sig2', '--store', store, '--call', '1');
    expect(call.stdout).toContain('Are you there?');
    expect(call.stdout).toContain('no answer was recorded');
  });
});
