import { connect } from 'node:net';
import { expect, vi } from 'vitest';
import { loadAgent } from '../../src/cli/load-agent.js';
import { resolveModel } from '../../src/cli/resolve-model.js';
import type { Runner } from '../../src/engine/runner/runner.js';
import { createInMemoryArtifactStore } from '../../src/engine/session/in-memory-artifact-store.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createServer, type AgentctxServer, type ServerOptions } from '../../src/server/index.js';
import { ROUTES } from '../../src/server/routes.js';
import { defineRows } from '../reliability/rows.js';
import { repositoryRoot } from '../support/cli.js';
import { gate, PIPELINE, PIPELINE_SCRIPT, waitingAgent } from './helpers.js';

// Part 1, HTTP API bodies, from the network's side: clients that leave half-way, send slowly or not at all, and web
// pages on other origins sending what a browser sends without asking (CORS "simple requests"). Each is answered
// with a typed JSON error (or, when the client is gone, a quietly closed socket), never a 500, never a stack trace
// on stderr (the server's default error log is `console.error`, watched here), and nothing is written.

const APP = '/apps/draft_and_review/users/ann/sessions';
const servers: AgentctxServer[] = [];

// Run after the rows (through defineRows, so the table writer can import this file outside vitest).
const cleanUp = async () => {
  for (const server of servers.splice(0)) {
    server.abortTurns();
    await server.close();
  }
};

/** A server on an in-memory store with session `s1` (and artifact `a.txt`), its default error log watched. */
async function start(
  options: Partial<ServerOptions> = {},
): Promise<{ server: AgentctxServer; port: number; runner: Runner; logged: () => unknown[][] }> {
  const runner = options.runner ?? (await pipelineRunner());
  const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const server = createServer({ ...options, runner });
  servers.push(server);
  const { port } = await server.listen(0);
  await runner.createSession({ userId: 'ann', sessionId: 's1' });
  await runner.artifacts?.save({
    appName: runner.appName,
    userId: 'ann',
    sessionId: 's1',
    filename: 'a.txt',
    artifact: { kind: 'text', mimeType: 'text/plain', text: 'kept' },
  });
  return {
    server,
    port,
    runner,
    logged: () => logged.mock.calls.filter((call) => String(call[0]).startsWith('agentctx server')),
  };
}

type Raw = {
  status: number;
  text: string;
  json: { error?: { code: string; message: string } } | undefined;
  elapsedMs: number;
};

/**
 * Sends raw bytes, then does what `then` says: nothing more (wait for the answer), `end` (close the sending side,
 * keep reading), or `destroy` (reset the connection). Resolves with what came back when the connection closes.
 */
function raw(port: number, bytes: string, then: 'wait' | 'end' | 'destroy' = 'wait'): Promise<Raw> {
  const started = Date.now();
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(bytes);
      if (then === 'end') setTimeout(() => socket.end(), 50);
      if (then === 'destroy') setTimeout(() => socket.destroy(), 50);
    });
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const body = text.split('\r\n\r\n').slice(1).join('\r\n\r\n');
      let json: Raw['json'];
      try {
        json = body === '' ? undefined : (JSON.parse(body) as Raw['json']);
      } catch {
        json = undefined;
      }
      resolve({ status, text, json, elapsedMs: Date.now() - started });
    });
  });
}

/** A request's head with a body of `length` bytes announced, and `sent` of it. */
const partial = (path: string, length: number, sent: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n${sent}`;

/** Session s1's events, the sessions of ann, and a.txt's versions: what no refused request may change. */
async function snapshot(runner: Runner): Promise<unknown> {
  const key = { appName: runner.appName, userId: 'ann', sessionId: 's1' };
  const session = await runner.sessions.getSession(key);
  return {
    sessions: (await runner.sessions.listSessions({ appName: runner.appName, userId: 'ann' }))
      .map((listed) => listed.id)
      .sort(),
    revision: session?.revision,
    state: session?.state,
    versions: await runner.artifacts?.listVersions({ ...key, filename: 'a.txt' }),
  };
}

/** Seed 001's pipeline as `agentctx serve` runs it, with sessions and artifacts in memory. */
async function pipelineRunner(): Promise<Runner> {
  const agents = await loadAgent(PIPELINE, repositoryRoot);
  const model = await resolveModel(`scripted:${PIPELINE_SCRIPT}`, repositoryRoot, {});
  return createRunner({
    agents,
    sessions: createInMemorySessionStore(),
    artifacts: createInMemoryArtifactStore(),
    model,
  });
}

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'http.cut-upload',
      entry: 'HTTP API body',
      tried:
        'a client that resets the connection half-way through a body, and one that closes its sending side half-way (on create and on run)',
      expected:
        'nothing logged (no `unexpected error: Error: aborted`, no stack trace); the half-closed one gets 400 `incomplete_body`; nothing written, no request left in flight',
      run: async () => {
        const { server, port, runner, logged } = await start();
        const before = await snapshot(runner);
        for (const path of [APP, `${APP}/s1/run`]) {
          const reset = await raw(port, partial(path, 200, '{"message": "hel'), 'destroy');
          expect(reset.status).toBe(0);
          const halfClosed = await raw(port, partial(path, 200, '{"sessionId": "cut", "message": "hel'), 'end');
          expect({ status: halfClosed.status, code: halfClosed.json?.error?.code }).toEqual({
            status: 400,
            code: 'incomplete_body',
          });
          expect(halfClosed.text).not.toMatch(/\n\s+at |internal_error/);
        }
        await expect.poll(() => server.activeRequests).toBe(0);
        expect(logged()).toEqual([]);
        expect(await snapshot(runner)).toEqual(before);
      },
    },
    {
      id: 'http.slow-upload',
      entry: 'HTTP API body',
      tried:
        'headers sent and never finished, and a body stalled half-way, with `headersTimeoutMs` 300 and `requestTimeoutMs` 600',
      expected:
        '408 `request_timeout` JSON naming both limits, within the limit (not after Node\u2019s 300 s); nothing logged or written',
      run: async () => {
        const { port, runner, logged } = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 });
        const before = await snapshot(runner);
        const [headers, body] = await Promise.all([
          raw(port, `POST ${APP} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: appl`),
          raw(port, partial(`${APP}/s1/run`, 100, '{"message": "sl')),
        ]);
        for (const reply of [headers, body]) {
          expect({ status: reply.status, code: reply.json?.error?.code }).toEqual({
            status: 408,
            code: 'request_timeout',
          });
          expect(reply.json?.error?.message).toMatch(
            /headers must arrive within 300 ms, the whole request within 600 ms/,
          );
          expect(reply.elapsedMs).toBeLessThan(3000);
        }
        expect(logged()).toEqual([]);
        expect(await snapshot(runner)).toEqual(before);
      },
      timeout: 10_000,
    },
    {
      id: 'http.shutdown-upload',
      entry: 'HTTP API body',
      tried:
        '`close()` while one client\u2019s upload has stalled (the request timeout far away) and another\u2019s turn is running, `shutdownGraceMs` 300',
      expected:
        'the stalled upload gets 503 `shutting_down` after the grace period and its connection closes; the running turn still finishes; `close()` resolves without waiting for the upload',
      run: async () => {
        const release = gate();
        const waiting = waitingAgent(release.opened);
        const runner = createRunner({
          agents: waiting.agents,
          sessions: createInMemorySessionStore(),
          model: waiting.model,
          appName: 'draft_and_review',
        });
        const { server, port, logged } = await start({ runner, shutdownGraceMs: 300, requestTimeoutMs: 120_000 });
        const turn = fetch(`http://127.0.0.1:${port}${APP}/s1/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"message":"go"}',
        }).then((response) => response.text());
        await expect.poll(() => server.activeRequests).toBe(1);
        const stalled = raw(port, partial(APP, 100, '{"sessionId": "sl'));
        await expect.poll(() => server.activeRequests).toBe(2);
        const started = Date.now();
        const closed = server.close();
        const upload = await stalled;
        expect({ status: upload.status, code: upload.json?.error?.code }).toEqual({
          status: 503,
          code: 'shutting_down',
        });
        expect(Date.now() - started).toBeLessThan(3000);
        release.open();
        expect(await turn).toMatch(/event: done/);
        await closed;
        expect(Date.now() - started).toBeLessThan(5000);
        expect(logged()).toEqual([]);
      },
      timeout: 15_000,
    },
    {
      id: 'http.simple-requests',
      entry: 'HTTP API body',
      tried:
        'what a page on another origin can send without a preflight (no body; `text/plain`, form and multipart bodies) to every POST, PUT, PATCH and DELETE route, without a token and with one; DELETE with a `text/plain` body',
      expected:
        'no body: 400 `missing_body`; any other type: 415 `unsupported_media_type` (401 first when a token is set and missing); nothing created, run, written or deleted',
      run: async () => {
        const changing = ROUTES.flatMap((route) =>
          Object.keys(route.methods)
            .filter((method) => method !== 'GET')
            .map((method) => ({ method, path: route.path })),
        );
        expect(changing.map(({ method }) => method)).toEqual(expect.arrayContaining(['POST', 'PUT', 'DELETE']));
        const concrete = (path: string) =>
          path
            .replace(':app', 'draft_and_review')
            .replace(':user', 'ann')
            .replace(':session', 's1')
            .replace(':artifact', 'a.txt');
        const bodies: { type?: string; body?: string; bodyless?: true }[] = [
          { bodyless: true },
          { type: 'text/plain', bodyless: true },
          { type: 'text/plain;charset=UTF-8', body: '{"sessionId":"evil","message":"hi","text":"x"}' },
          { type: 'application/x-www-form-urlencoded', body: 'sessionId=evil&message=hi' },
          {
            type: 'multipart/form-data; boundary=b',
            body: '--b\r\nContent-Disposition: form-data; name="message"\r\n\r\nhi\r\n--b--\r\n',
          },
        ];
        for (const token of [undefined, 'secret']) {
          const { port, runner, logged } = await start({
            ...(token === undefined ? {} : { token }),
            runner: await pipelineRunner(),
          });
          const before = await snapshot(runner);
          for (const { method, path } of changing) {
            for (const { type, body, bodyless } of bodies) {
              if (method === 'DELETE' && bodyless === true) continue;
              for (const authorization of token === undefined ? [undefined] : [undefined, `Bearer ${token}`]) {
                const headers: Record<string, string> = {
                  ...(type === undefined ? {} : { 'content-type': type }),
                  ...(authorization === undefined ? {} : { authorization }),
                };
                const response = await fetch(`http://127.0.0.1:${port}${concrete(path)}`, {
                  method,
                  headers,
                  ...(bodyless === true ? {} : { body }),
                });
                const answer = (await response.json()) as { error?: { code: string; message: string } };
                const expected =
                  token !== undefined && authorization === undefined
                    ? [401, 'unauthorized']
                    : bodyless === true
                      ? [400, 'missing_body']
                      : [415, 'unsupported_media_type'];
                expect(
                  [response.status, answer.error?.code],
                  `${method} ${path} ${type ?? '(no type)'}${authorization === undefined ? '' : ' with the token'}`,
                ).toEqual(expected);
              }
            }
          }
          expect(await snapshot(runner)).toEqual(before);
          expect(logged()).toEqual([]);
        }
      },
    },
  ],
  { afterAll: cleanUp },
);
