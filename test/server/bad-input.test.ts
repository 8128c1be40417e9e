import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Runner } from '../../src/engine/runner/runner.js';
import { defineRows } from '../reliability/rows.js';
import { api, pipelineRunner, resources } from './helpers.js';

// Part 1, HTTP API bodies (and paths and queries): every bad request is a 4xx JSON `{ error: { code, message, hint } }`
// naming what is wrong, never a stack trace, and it writes nothing: the session's revision does not move.
const res = resources();
const app = '/apps/draft_and_review/users/ann/sessions';
let started: Promise<{ base: string; runner: Runner }> | undefined;

/** One server on SQLite for the whole file, with a small body limit, and session `v1` made. */
function server(): Promise<{ base: string; runner: Runner }> {
  started ??= (async () => {
    const runner = await pipelineRunner(res.sqlite(join(await res.dir(), 'agentctx.db')));
    const { url } = await res.serve({ runner, maxBodyBytes: 4096 });
    await api(url).post(app, { sessionId: 'v1' });
    return { base: url, runner };
  })();
  return started;
}

type Reply = {
  status: number;
  json: { error: { code: string; message: string; hint?: string } };
  text: string;
  headers: Headers;
};

/** The reply is this status and error code, its message matches, no stack trace, and session v1 is still empty. */
async function expectRefused(
  send: (client: ReturnType<typeof api>) => Promise<Reply>,
  status: number,
  code: string,
  message: RegExp,
): Promise<Reply> {
  const { base, runner } = await server();
  const reply = await send(api(base));
  expect({ status: reply.status, code: reply.json.error.code }).toEqual({ status, code });
  expect(reply.json.error.message).toMatch(message);
  expect(reply.text).not.toMatch(/\n\s+at |\.ts:\d+/);
  expect(
    await runner.sessions.getSession({ appName: 'draft_and_review', userId: 'ann', sessionId: 'v1' }),
  ).toMatchObject({ revision: 0, events: [] });
  return reply;
}

export const rows = defineRows(
  import.meta.url,
  'bad-input',
  [
    {
      id: 'http.bad-json',
      entry: 'HTTP API body',
      tried: 'a run body cut off mid-JSON (`{"message": `)',
      expected: '400 `bad_json` (`not valid JSON`); no turn starts',
      run: () =>
        expectRefused((client) => client.post(`${app}/v1/run`, '{"message": '), 400, 'bad_json', /not valid JSON/),
    },
    {
      id: 'http.wrong-shape',
      entry: 'HTTP API body',
      tried: 'a list instead of an object, a misspelt `mesage`, `message: 42`, a message with role `model`',
      expected: "400 `invalid_input`, each naming the field and what it expected (`did you mean 'message'?`)",
      run: async () => {
        await expectRefused(
          (client) => client.post(`${app}/v1/run`, []),
          400,
          'invalid_input',
          /expected a JSON object \(\{ message, stateDelta\? \}\), got a list/,
        );
        await expectRefused(
          (client) => client.post(`${app}/v1/run`, { mesage: 'hi' }),
          400,
          'invalid_input',
          /mesage: unknown field \(did you mean 'message'\?\)/,
        );
        await expectRefused(
          (client) => client.post(`${app}/v1/run`, { message: 42 }),
          400,
          'invalid_input',
          /message: expected a string or a message object, got the number 42/,
        );
        await expectRefused(
          (client) => client.post(`${app}/v1/run`, { message: { role: 'model', parts: [] } }),
          400,
          'invalid_input',
          /message\.role: .*expected 'user', got 'model'/,
        );
      },
    },
    {
      id: 'http.state-delta',
      entry: 'HTTP API body',
      tried: '`stateDelta` that is a list, and session `state` that is a string',
      expected: '400 `invalid_input` (`stateDelta: expected an object of state keys, got a list`)',
      run: async () => {
        await expectRefused(
          (client) => client.post(`${app}/v1/run`, { message: 'hi', stateDelta: [1] }),
          400,
          'invalid_input',
          /stateDelta: expected an object of state keys, got a list/,
        );
        await expectRefused(
          (client) => client.post(app, { sessionId: 'v2', state: 'x' }),
          400,
          'invalid_input',
          /state: expected/,
        );
      },
    },
    {
      id: 'http.session-id',
      entry: 'HTTP API body',
      tried: '`sessionId: 7`, and an id that already exists',
      expected: '400 `invalid_input` (`expected a string, got the number 7`); 409 `already_exists`',
      run: async () => {
        await expectRefused(
          (client) => client.post(app, { sessionId: 7 }),
          400,
          'invalid_input',
          /sessionId: expected a string, got the number 7/,
        );
        await expectRefused((client) => client.post(app, { sessionId: 'v1' }), 409, 'already_exists', /v1/);
      },
    },
    {
      id: 'http.too-large',
      entry: 'HTTP API body',
      tried: 'a body over the limit, sent whole and sent chunked',
      expected: '413 `body_too_large` naming the limit; the connection is not cut',
      run: async () => {
        await expectRefused(
          (client) => client.post(`${app}/v1/run`, { message: 'x'.repeat(5000) }),
          413,
          'body_too_large',
          /limit of 4096 bytes/,
        );
        const { base } = await server();
        const status = await new Promise<number>((resolve, reject) => {
          const request = httpRequest(
            `${base}${app}`,
            { method: 'POST', headers: { 'content-type': 'application/json' } },
            (response) => {
              response.resume();
              response.on('end', () => resolve(response.statusCode ?? 0));
            },
          );
          request.on('error', reject);
          request.write('{"state": {"a": "');
          for (let index = 0; index < 10; index++) request.write('x'.repeat(1000));
          request.end('"}}');
        });
        expect(status).toBe(413);
      },
    },
    {
      id: 'http.media-type',
      entry: 'HTTP API body',
      tried: 'a JSON body sent as `text/plain`',
      expected: '415 `unsupported_media_type`',
      run: async () => {
        const { base } = await server();
        const reply = await fetch(`${base}${app}/v1/run`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: '{"message":"hi"}',
        });
        expect(reply.status).toBe(415);
        expect(((await reply.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
      },
    },
    {
      id: 'http.query',
      entry: 'HTTP API body',
      tried: '`?limit=-1`, `?limt=1`, call number `0`, a call that does not exist',
      expected: '400 naming the parameter and what it takes; 404 `Session v1 has no call 7; it has 0.`',
      run: async () => {
        await expectRefused(
          (client) => client.get(`${app}/v1?limit=-1`),
          400,
          'invalid_input',
          /limit: expected a whole number from 0, got "-1"/,
        );
        await expectRefused(
          (client) => client.get(`${app}/v1?limt=1`),
          400,
          'invalid_input',
          /limt: unknown query parameter; allowed: limit/,
        );
        await expectRefused(
          (client) => client.get(`${app}/v1/calls/0`),
          400,
          'invalid_input',
          /call: expected a call number from 1, got "0"/,
        );
        await expectRefused(
          (client) => client.get(`${app}/v1/calls/7`),
          404,
          'not_found',
          /Session v1 has no call 7; it has 0\./,
        );
      },
    },
    {
      id: 'http.paths',
      entry: 'HTTP API body',
      tried: 'bad percent-encoding, an unknown route, another app, `PUT` on a session',
      expected:
        '400 `bad_path`; 404 `route_not_found`; 404 `app_not_found` naming the app served; 405 with `Allow: GET, DELETE`',
      run: async () => {
        await expectRefused((client) => client.get(`${app}/%E0%A4%A`), 400, 'bad_path', /not valid percent-encoding/);
        await expectRefused(
          (client) => client.get(`${app}/v1/nothing`),
          404,
          'route_not_found',
          /No route matches GET/,
        );
        await expectRefused(
          (client) => client.get('/apps/other/users/ann/sessions'),
          404,
          'app_not_found',
          /App 'other' is not served here; this server serves 'draft_and_review'/,
        );
        const reply = await expectRefused(
          (client) => client.call('PUT', `${app}/v1`),
          405,
          'method_not_allowed',
          /PUT is not allowed/,
        );
        expect(reply.headers.get('allow')).toBe('GET, DELETE');
      },
    },
    {
      id: 'http.unknown-session',
      entry: 'HTTP API body',
      tried: 'a turn on a session that does not exist',
      expected: '404 JSON (not an event stream) with the path to create it; no session appears',
      run: async () => {
        await expectRefused(
          (client) =>
            client.run(`${app}/nope`, { message: 'hi' }).then(async (reply) => ({
              status: reply.status,
              headers: reply.headers,
              text: '',
              json: (await reply.json()) as Reply['json'],
            })),
          404,
          'not_found',
          /Session nope of user ann not found in app draft_and_review\./,
        );
        const { base } = await server();
        expect((await api(base).get(`${app}/nope`)).status).toBe(404);
      },
    },
    {
      id: 'http.internal-error',
      entry: 'HTTP API body',
      tried: 'a request that hits a bug (the runner throws a TypeError)',
      expected: "500 `internal_error` without the error's text; the error goes to `onError`",
      run: async () => {
        const { runner } = await server();
        const reported: unknown[] = [];
        const broken = { ...runner, createSession: () => Promise.reject(new TypeError('secret internals')) } as Runner;
        const { url } = await res.serve({ runner: broken, onError: (error) => reported.push(error) });
        const reply = await api(url).post(app, {});
        expect({ status: reply.status, code: reply.json.error.code }).toEqual({ status: 500, code: 'internal_error' });
        expect(reply.text).not.toContain('secret internals');
        expect(reported).toEqual([expect.objectContaining({ message: 'secret internals' })]);
      },
    },
  ],
  { afterAll: () => res.cleanup() },
);
