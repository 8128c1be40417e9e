import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, sseReader } from '../server/helpers.js';
import { agentctx, expectOneLineError } from '../support/cli.js';
import { spawnListening } from '../support/listening.js';

// `run` and `serve` give a session state (scoped keys included) and artifacts from files, kept beside the sessions in
// the same SQLite file, so `{app:…}`, `{user:…}` and `{artifact.name}` resolve from the command line and over HTTP.

let dir = '';
let agent = '';
let script = '';
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-seed-'));
  agent = join(dir, 'helper.yaml');
  script = join(dir, 'script.yaml');
  await writeFile(
    agent,
    'name: helper\ninstruction: "Company {app:company}, user {user:name}, topic {topic}. Notes: {artifact.notes.txt}"\n',
  );
  await writeFile(script, 'rules:\n  - respond: { text: noted }\n');
  await writeFile(
    join(dir, 'state.json'),
    JSON.stringify({ 'app:company': 'Acme', 'user:name': 'Ann', topic: 'fares' }),
  );
  await writeFile(join(dir, 'notes.txt'), 'Lyon is cheap in May.');
  await writeFile(join(dir, 'logo.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

const SENT = 'Company Acme, user Ann, topic fares. Notes: Lyon is cheap in May.';

describe('run --state --artifact', () => {
  it('starts the session with the state and the artifact, and the recorded request holds both', async () => {
    const store = join(dir, 'run.db');
    const args = ['run', agent, '--model', `scripted:${script}`, '--store', store, '--session', 'a1'];
    const first = await agentctx(
      ...args,
      '--state',
      join(dir, 'state.json'),
      '--artifact',
      `notes.txt=${join(dir, 'notes.txt')}`,
      '--artifact',
      `logo.png=${join(dir, 'logo.png')}`,
      '--message',
      'hi',
    );
    expect(first.stderr).toBe('session a1 (app helper, user user)\n');
    expect(first.code).toBe(0);
    const request = JSON.parse(
      (await agentctx('inspect', agent, '--session', 'a1', '--call', '1', '--store', store, '--json')).stdout,
    ) as { system: string };
    expect(request.system.startsWith(SENT)).toBe(true);

    // Run again with the same file: no new version. With a changed one: version 1, used by the next call.
    expect(
      (await agentctx(...args, '--artifact', `notes.txt=${join(dir, 'notes.txt')}`, '--message', 'again')).code,
    ).toBe(0);
    await writeFile(join(dir, 'notes-2.txt'), 'Porto is cheap in June.');
    expect(
      (await agentctx(...args, '--artifact', `notes.txt=${join(dir, 'notes-2.txt')}`, '--message', 'and now?')).code,
    ).toBe(0);
    const db = new Database(store, { readonly: true });
    try {
      const rows = db
        .prepare('SELECT filename, version, kind, mime_type FROM agentctx_artifacts ORDER BY filename, version')
        .all();
      expect(rows).toEqual([
        { filename: 'logo.png', version: 0, kind: 'binary', mime_type: 'image/png' },
        { filename: 'notes.txt', version: 0, kind: 'text', mime_type: 'text/plain' },
        { filename: 'notes.txt', version: 1, kind: 'text', mime_type: 'text/plain' },
      ]);
    } finally {
      db.close();
    }
    const third = JSON.parse(
      (await agentctx('inspect', agent, '--session', 'a1', '--call', '3', '--store', store, '--json')).stdout,
    ) as { system: string };
    expect(third.system).toContain('Notes: Porto is cheap in June.');
  });

  it('gives an existing session the state with the first message, as a state delta', async () => {
    const store = join(dir, 'later.db');
    await writeFile(
      join(dir, 'topic.json'),
      JSON.stringify({ topic: 'trains', 'app:company': 'Acme', 'user:name': 'Ann' }),
    );
    const base = [
      'run',
      agent,
      '--model',
      `scripted:${script}`,
      '--store',
      store,
      '--session',
      'b1',
      '--artifact',
      `notes.txt=${join(dir, 'notes.txt')}`,
    ];
    expect((await agentctx(...base, '--state', join(dir, 'state.json'), '--message', 'hi')).code).toBe(0);
    expect((await agentctx(...base, '--state', join(dir, 'topic.json'), '--message', 'more')).code).toBe(0);
    const request = JSON.parse(
      (await agentctx('inspect', agent, '--session', 'b1', '--call', '2', '--store', store, '--json')).stdout,
    ) as { system: string };
    expect(request.system).toContain('topic trains.');
  });

  it('refuses a bad --state or --artifact in one line, before anything is stored', async () => {
    const store = join(dir, 'never.db');
    const base = ['run', agent, '--model', `scripted:${script}`, '--store', store, '--message', 'hi'];
    await writeFile(join(dir, 'list.json'), '[1, 2]');
    expectOneLineError(
      await agentctx(...base, '--state', join(dir, 'list.json')),
      2,
      /list\.json: must be a mapping of state keys to values, got a list\. Write it as/,
    );
    expectOneLineError(
      await agentctx(...base, '--state', join(dir, 'nope.json')),
      2,
      /Cannot read .*nope\.json: no such file/,
    );
    expectOneLineError(
      await agentctx(...base, '--artifact', 'notes.txt'),
      2,
      /--artifact takes name=path, got 'notes\.txt'/,
    );
    expectOneLineError(
      await agentctx(...base, '--artifact', `a=${join(dir, 'missing.txt')}`),
      2,
      /Cannot read .*missing\.txt: no such file/,
    );
    expectOneLineError(
      await agentctx(...base, '--artifact', `a=${join(dir, 'notes.txt')}`, '--artifact', `a=${join(dir, 'notes.txt')}`),
      2,
      /--artifact names 'a' twice/,
    );
    expect(existsSync(store)).toBe(false);
  });
});

function serve(args: string[]): Promise<string> {
  const server = spawnListening(['serve', ...args, '--port', '0'], {}, /^listening on (http:\/\/127\.0\.0\.1:\d+) /);
  children.push(server.child);
  return server.url;
}

describe('serve --state --artifact, and the artifacts endpoints', () => {
  it('starts every new session with them; artifacts can be listed, read, written and deleted over HTTP', async () => {
    const store = join(dir, 'serve.db');
    const url = await serve([
      agent,
      '--model',
      `scripted:${script}`,
      '--store',
      store,
      '--state',
      join(dir, 'state.json'),
      '--artifact',
      `notes.txt=${join(dir, 'notes.txt')}`,
    ]);
    const client = api(url);
    const sessions = '/apps/helper/users/user/sessions';
    const created = await client.post(sessions, { sessionId: 's1', state: { topic: 'boats' } });
    expect(created.status).toBe(201);
    expect(created.json.state).toMatchObject({ 'app:company': 'Acme', 'user:name': 'Ann', topic: 'boats' });

    const stream = sseReader(await client.run(`${sessions}/s1`, { message: 'hi' }));
    while ((await stream.next()) !== undefined);
    const call = await client.get(`${sessions}/s1/calls/1`);
    expect(
      call.json.request.system.startsWith('Company Acme, user Ann, topic boats. Notes: Lyon is cheap in May.'),
    ).toBe(true);

    expect((await client.get(`${sessions}/s1/artifacts`)).json).toEqual({ artifacts: ['notes.txt'] });
    expect((await client.get(`${sessions}/s1/artifacts/notes.txt`)).json).toEqual({
      name: 'notes.txt',
      versions: [0],
      version: 0,
      kind: 'text',
      mimeType: 'text/plain',
      text: 'Lyon is cheap in May.',
    });
    const put = await client.call('PUT', `${sessions}/s1/artifacts/notes.txt`, { text: 'Nice is cheap in April.' });
    expect(put).toMatchObject({ status: 201, json: { name: 'notes.txt', version: 1 } });
    const image = await client.call('PUT', `${sessions}/s1/artifacts/${encodeURIComponent('user:photo.png')}`, {
      base64: 'iVBORw0KGgo=',
      mimeType: 'image/png',
    });
    expect(image.status).toBe(201);
    expect((await client.get(`${sessions}/s1/artifacts/${encodeURIComponent('user:photo.png')}`)).json).toMatchObject({
      kind: 'binary',
      mimeType: 'image/png',
      base64: 'iVBORw0KGgo=',
    });
    expect((await client.get(`${sessions}/s1/artifacts/notes.txt?version=0`)).json.text).toBe('Lyon is cheap in May.');

    const again = sseReader(await client.run(`${sessions}/s1`, { message: 'and now?' }));
    while ((await again.next()) !== undefined);
    expect((await client.get(`${sessions}/s1/calls/2`)).json.request.system).toContain(
      'Notes: Nice is cheap in April.',
    );

    // Client mistakes are 4xx with a reason, never 500.
    expect((await client.get(`${sessions}/s1/artifacts/nope.txt`)).status).toBe(404);
    expect((await client.get(`${sessions}/s1/artifacts/notes.txt?version=9`)).json.error.message).toMatch(
      /has no version 9; it has 0, 1/,
    );
    expect((await client.get(`${sessions}/ghost/artifacts`)).status).toBe(404);
    expect((await client.call('PUT', `${sessions}/s1/artifacts/x`, { text: 'a', base64: 'YQ==' })).status).toBe(400);
    expect((await client.call('PUT', `${sessions}/s1/artifacts/x`, { base64: 'not base64!' })).status).toBe(400);
    expect((await client.call('PUT', `${sessions}/s1/artifacts/x`, [1])).status).toBe(400);
    expect((await client.delete(`${sessions}/s1/artifacts/notes.txt`)).status).toBe(204);
    expect((await client.get(`${sessions}/s1/artifacts`)).json).toEqual({ artifacts: ['user:photo.png'] });
    expect((await client.delete(`${sessions}/s1/artifacts/notes.txt`)).status).toBe(404);
  });
});
