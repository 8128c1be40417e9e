import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { defineRows } from '../reliability/rows.js';
import { api, parseSse } from '../server/helpers.js';
import { agentctx, agentctxProcessWith, cli, expectCliError } from '../support/cli.js';
import { spawnListening } from '../support/listening.js';

// Part 1, CLI flags of the commands that listen or run turns: `serve`, `web` and `run` take the runner's time limits
// (`--model-timeout`, `--tool-timeout`) and the HTTP timeouts (`--request-timeout`, `--headers-timeout`), refuse bad
// values in one line, and a server run from the built CLI answers clients that are slow, leave half-way or send what
// a browser sends without asking with JSON errors: nothing on stderr but its own lines, never a stack trace.

const children: ChildProcessWithoutNullStreams[] = [];
const cleanups: (() => Promise<void>)[] = [];
// Run after the rows (through defineRows, so the table writer can import this file outside vitest).
const cleanUp = async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const cleanup of cleanups.splice(0)) await cleanup();
};

const NO_KEYS = { OPENAI_COMPATIBLE_API_KEY: '', OPENAI_API_KEY: '', AGENTCTX_TOKEN: '' };

/** Starts the built CLI (`serve` or `web`) on a free port; resolves with its URL once it printed it. */
function listen(args: string[], env: Record<string, string> = {}) {
  const server = spawnListening([...args, '--port', '0'], { ...NO_KEYS, ...env });
  children.push(server.child);
  return { url: server.url, stop: server.stop, stderr: () => server.output().stderr };
}

/** An OpenAI-compatible server whose every answer is a stream that never ends (until the caller hangs up). */
async function endlessUpstream(): Promise<{ url: string; chunks: () => number }> {
  let chunks = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'local',
      choices: [{ index: 0, delta: { role: 'assistant', content: 'la ' }, finish_reason: null }],
    };
    const timer = setInterval(() => {
      chunks += 1;
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }, 20);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`,
    chunks: () => chunks,
  };
}

type Raw = { status: number; code: string | undefined; text: string };

/** Sends raw bytes to a listening URL, optionally resets the connection after 50 ms, and resolves with the answer. */
function raw(url: string, bytes: string, reset = false): Promise<Raw> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(bytes);
      if (reset) setTimeout(() => socket.destroy(), 50);
    });
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      resolve({ status, code: /"code":"([a-z_]+)"/.exec(text)?.[1], text });
    });
  });
}

const post = (path: string, length: number, sent: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${sent}`;

/** What a server's stderr may hold after it was stopped: its shutdown line, nothing logged as unexpected, no stack. */
function expectQuietStderr(stderr: string): void {
  expect(stderr).not.toMatch(/unexpected error|\n\s+at |Error: aborted/);
}

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'cli.time-limit-flags',
      entry: 'CLI flags',
      tried:
        '`--model-timeout -1`, `--tool-timeout 1.5`, `--request-timeout 0`, `--headers-timeout` longer than `--request-timeout`, on `serve`, `run` and `web`',
      expected:
        'one line naming the flag and what it takes (`must be a whole number of milliseconds from 0 to …`), exit 2, before anything opens',
      run: async () => {
        const agent = ['examples/draft-and-review/pipeline.yaml', '--store', 'memory'];
        expectCliError(
          await cli(['serve', ...agent, '--model-timeout=-1']),
          /--model-timeout must be a whole number of milliseconds from 0 to 2147483647, got '-1'/,
        );
        expectCliError(
          await cli(['serve', ...agent, '--tool-timeout', '1.5']),
          /--tool-timeout must be a whole number of milliseconds from 0/,
        );
        expectCliError(
          await cli(['serve', ...agent, '--request-timeout', '0']),
          /--request-timeout must be a whole number of milliseconds from 1/,
        );
        expectCliError(
          await cli(['serve', ...agent, '--request-timeout', '1000', '--headers-timeout', '5000']),
          /--headers-timeout 5000 is longer than --request-timeout 1000/,
        );
        expectCliError(
          await cli(['run', ...agent, '--message', 'hi', '--model-timeout', 'soon']),
          /--model-timeout must be a whole number of milliseconds/,
        );
        expectCliError(
          await cli(['web', '--store', 'memory', '--headers-timeout', '1e3']),
          /--headers-timeout must be a whole number of milliseconds from 1/,
        );
      },
    },
    {
      id: 'cli.serve-model-timeout',
      entry: 'CLI flags',
      tried: '`serve --stream --model-timeout 1000` against an upstream model whose stream never ends',
      expected:
        'the streamed turn ends after 1 s, cut mid-stream: its last event has `errorCode: model_timeout`, then `done`; the upstream stream is closed; nothing on stderr',
      run: async () => {
        const upstream = await endlessUpstream();
        const server = listen([
          'serve',
          'examples/draft-and-review/pipeline.yaml',
          '--model',
          `openai-compatible:local@${upstream.url}/v1`,
          '--store',
          'memory',
          '--stream',
          '--model-timeout',
          '1000',
        ]);
        const client = api(await server.url);
        const sessions = '/apps/draft_and_review/users/ann/sessions';
        expect((await client.post(sessions, { sessionId: 's' })).status).toBe(201);
        const started = Date.now();
        const frames = parseSse(await (await client.run(`${sessions}/s`, { message: 'Write about X' })).text());
        expect(Date.now() - started).toBeLessThan(8000);
        // The stream was flowing when the limit cut it (how many chunks reached the client first depends on the load).
        const streamed = upstream.chunks();
        expect(streamed).toBeGreaterThan(0);
        const stored = frames
          .filter((frame) => frame.event === 'event')
          .map((frame) => frame.data as { errorCode?: string; errorMessage?: string });
        expect(stored.at(-1)).toMatchObject({
          errorCode: 'model_timeout',
          errorMessage: expect.stringMatching(/within 1000 ms/) as unknown,
        });
        expect(frames.at(-1)).toEqual({ event: 'done', data: { events: stored.length } });
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(upstream.chunks() - streamed).toBeLessThan(3);
        const { code, stderr } = await server.stop();
        expect(code).toBe(0);
        expectQuietStderr(stderr);
      },
      timeout: 20_000,
    },
    {
      id: 'cli.run-tool-timeout',
      entry: 'CLI flags',
      tried:
        '`run --tool-timeout 300` with a tool that never answers, and `run --model-timeout 400` against a stream that never ends',
      expected:
        'the tool is stopped and the model gets `did not answer within 300 ms` (the turn finishes, exit 0); the model call ends the turn with `model_timeout` (exit 1); no stack trace',
      run: async () => {
        // A child process: the fixture reads its release file from the environment when it loads.
        const tool = await agentctxProcessWith(
          { AGENTCTX_TEST_RELEASE: join(tmpdir(), 'agentctx-never-released') },
          'run',
          'test/fixtures/waiting-agent.mjs',
          '--model',
          'scripted:test/fixtures/waiting-script.yaml',
          '--store',
          'memory',
          '--tool-timeout',
          '300',
          '--json',
          '--message',
          'go',
        );
        expect(tool.code).toBe(0);
        const events = tool.stdout
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { content?: { parts: Record<string, unknown>[] } });
        expect(JSON.stringify(events)).toMatch(/Tool 'wait' did not answer within 300 ms and was stopped/);
        expect(events.at(-1)?.content?.parts).toEqual([{ text: 'finished' }]);
        const upstream = await endlessUpstream();
        const model = await agentctxProcessWith(
          NO_KEYS,
          'run',
          'examples/draft-and-review/pipeline.yaml',
          '--model',
          `openai-compatible:local@${upstream.url}/v1`,
          '--store',
          'memory',
          '--stream',
          '--model-timeout',
          '400',
          '--message',
          'Write about X',
        );
        expect(model.code).toBe(1);
        expect(model.stdout).toMatch(/no complete answer within 400 ms/);
        expect(`${tool.stderr}${model.stderr}`).not.toMatch(/\n\s+at /);
      },
      timeout: 30_000,
    },
    {
      id: 'cli.serve-http-limits',
      entry: 'CLI flags',
      tried:
        '`serve --request-timeout 800 --headers-timeout 400`: a stalled upload, headers never finished, an upload reset half-way, one half-closed, and a bodyless `text/plain` POST; then SIGTERM',
      expected:
        '408 `request_timeout` for both slow ones, 400 `incomplete_body` for the half-closed one, 400 `missing_body` and no session for the bodyless POST; exit 0, stderr only its shutdown line',
      run: async () => {
        const server = listen([
          'serve',
          'examples/draft-and-review/pipeline.yaml',
          '--model',
          'scripted:examples/draft-and-review/script.yaml',
          '--store',
          'memory',
          '--request-timeout',
          '800',
          '--headers-timeout',
          '400',
        ]);
        const url = await server.url;
        const sessions = '/apps/draft_and_review/users/ann/sessions';
        const [stalled, slowHeaders, reset] = await Promise.all([
          raw(url, post(sessions, 100, '{"sessionId": "sl')),
          raw(url, `POST ${sessions} HTTP/1.1\r\nHost: 127.0`),
          raw(url, post(sessions, 100, '{"sessionId": "r'), true),
        ]);
        expect([stalled, slowHeaders].map((reply) => [reply.status, reply.code])).toEqual([
          [408, 'request_timeout'],
          [408, 'request_timeout'],
        ]);
        expect(reset.status).toBe(0);
        const halfClosed = await new Promise<Raw>((resolve) => {
          let text = '';
          const socket = connect(Number(new URL(url).port), '127.0.0.1', () =>
            socket.end(post(`${sessions}/s/run`, 100, '{"message": "h')),
          );
          socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
          socket.on('close', () =>
            resolve({
              status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
              code: /"code":"([a-z_]+)"/.exec(text)?.[1],
              text,
            }),
          );
        });
        expect([halfClosed.status, halfClosed.code]).toEqual([400, 'incomplete_body']);
        const simple = await fetch(`${url}${sessions}`, { method: 'POST', headers: { 'content-type': 'text/plain' } });
        expect([simple.status, ((await simple.json()) as { error: { code: string } }).error.code]).toEqual([
          400,
          'missing_body',
        ]);
        expect((await api(url).get(sessions)).json).toEqual({ sessions: [] });
        const { code, stderr } = await server.stop();
        expect(code).toBe(0);
        expect(stderr).toBe('SIGTERM: shutting down\n');
      },
      timeout: 20_000,
    },
    {
      id: 'cli.web-http-limits',
      entry: 'CLI flags',
      tried:
        '`web --headers-timeout 300 --request-timeout 600`: headers never finished, headers reset half-way, a `text/plain` POST to the API',
      expected:
        '408 `request_timeout` JSON within the limit; the reset is closed quietly; the POST is 405 and changes nothing; exit 0, nothing on stderr but the stop line',
      run: async () => {
        const dir = await mkdtemp(join(tmpdir(), 'agentctx-web-limits-'));
        cleanups.push(() => rm(dir, { recursive: true, force: true }));
        const store = join(dir, 'agentctx.db');
        expect(
          (
            await agentctx(
              'run',
              'examples/draft-and-review/pipeline.yaml',
              '--model',
              'scripted:examples/draft-and-review/script.yaml',
              '--store',
              store,
              '--message',
              'Write about X',
            )
          ).code,
        ).toBe(0);
        const server = listen(['web', '--store', store, '--headers-timeout', '300', '--request-timeout', '600']);
        const url = await server.url;
        const started = Date.now();
        const [slowHeaders, reset] = await Promise.all([
          raw(url, 'GET /api/info HTTP/1.1\r\nHost: 127.0'),
          raw(url, 'GET /api/info HTTP/1.1\r\nHost: 1', true),
        ]);
        expect([slowHeaders.status, slowHeaders.code]).toEqual([408, 'request_timeout']);
        expect(Date.now() - started).toBeLessThan(3000);
        expect(reset.status).toBe(0);
        const simple = await fetch(`${url}/api/apps/draft_and_review/sessions`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'x',
        });
        expect(simple.status).toBe(405);
        const { code, stderr } = await server.stop();
        expect(code).toBe(0);
        expect(stderr).toBe('SIGTERM: stopping the inspector\n');
      },
      timeout: 30_000,
    },
  ],
  { afterAll: cleanUp },
);
