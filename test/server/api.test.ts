import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runner } from '../../src/engine/runner/runner.js';
import { agentctx } from '../support/cli.js';
import { api, parseSse, pipelineRunner, PIPELINE, resources } from './helpers.js';

const res = resources();
let store = '';
let runner: Runner;
let base = '';
const app = '/apps/draft_and_review/users/ann/sessions';

beforeAll(async () => {
  store = join(await res.dir(), 'agentctx.db');
  runner = await pipelineRunner(res.sqlite(store));
  base = (await res.serve({ runner, maxBodyBytes: 4096 })).url;
});
afterAll(() => res.cleanup());

describe('HTTP API', () => {
  it('creates a session, runs a turn as an event stream, and serves the events and calls the store holds', async () => {
    const client = api(base);
    const created = await client.post(app, { sessionId: 's1', state: { topic: 'X' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(created.headers.get('location')).toBe(`${app}/s1`);
    expect(created.json).toMatchObject({
      schemaVersion: 1,
      appName: 'draft_and_review',
      userId: 'ann',
      id: 's1',
      state: { topic: 'X' },
      events: [],
      revision: 0,
    });

    const response = await client.run(`${app}/s1`, { message: 'Write about X' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const frames = parseSse(await response.text());
    expect(frames.map((frame) => frame.event)).toEqual(['event', 'event', 'event', 'done']);
    expect(frames.at(-1)?.data).toEqual({ events: 3 });
    const streamed = frames.slice(0, -1).map((frame) => frame.data as { author: string });
    expect(streamed.map((event) => event.author)).toEqual(['user', 'generator_agent', 'reviewer_agent']);

    const stored = await runner.sessions.getSession({ appName: 'draft_and_review', userId: 'ann', sessionId: 's1' });
    expect(streamed).toEqual(JSON.parse(JSON.stringify(stored?.events)));
    const events = await client.get(`${app}/s1/events`);
    expect(events.json).toEqual({ events: streamed, revision: 3 });
    // A client that read the session at revision 1 gets what it has not seen, and the revision to ask from next.
    expect((await client.get(`${app}/s1/events?afterRevision=1`)).json).toEqual({
      events: streamed.slice(1),
      revision: 3,
    });
    expect((await client.get(`${app}/s1/events?afterRevision=3`)).json).toEqual({ events: [], revision: 3 });
    const refused = await client.get(`${app}/s1/events?afterRevision=-1`);
    expect([refused.status, refused.json.error.code]).toEqual([400, 'invalid_input']);
    const session = await client.get(`${app}/s1`);
    expect(session.json).toMatchObject({
      id: 's1',
      revision: 3,
      events: streamed,
      state: { topic: 'X', draft_text: expect.stringMatching(/^Subject X/) },
    });
    expect((await client.get(`${app}/s1?limit=1`)).json.events).toEqual(streamed.slice(-1));
    expect((await client.get(`${app}/s1/events?limit=2`)).json.events).toEqual(streamed.slice(-2));
    expect((await client.get(`${app}/s1?limit=0`)).json.events).toEqual([]);

    const listed = await client.get(app);
    expect(listed.json.sessions).toEqual([expect.objectContaining({ id: 's1', revision: 3 })]);
    expect(listed.json.sessions[0]).not.toHaveProperty('events');

    const calls = await client.get(`${app}/s1/calls`);
    expect(calls.json.calls.map((call: { index: number; agent: string }) => [call.index, call.agent])).toEqual([
      [1, 'generator_agent'],
      [2, 'reviewer_agent'],
    ]);
    const call = await client.get(`${app}/s1/calls/2`);
    expect(call.status).toBe(200);
    expect(call.json).toMatchObject({
      index: 2,
      agent: 'reviewer_agent',
      usage: { promptTokens: 112, outputTokens: 27 },
      responseEventId: streamed[2] && (streamed[2] as { id?: string }).id,
    });
    // The same request and provenance `agentctx inspect --session` shows, byte for byte as JSON.
    const inspected = await agentctx(
      'inspect',
      PIPELINE,
      '--session',
      's1',
      '--user',
      'ann',
      '--store',
      store,
      '--call',
      '2',
      '--json',
      '--provenance',
    );
    expect(inspected.code).toBe(0);
    const shown = JSON.parse(inspected.stdout) as { request: unknown; provenance: unknown };
    expect(call.json.request).toEqual(shown.request);
    expect(call.json.provenance).toEqual(shown.provenance);
    expect(call.json.request.system).toMatch(
      /^Please review the following draft: Subject X was first described in 1901/,
    );

    const deleted = await client.delete(`${app}/s1`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await client.get(`${app}/s1`)).status).toBe(404);
    expect((await client.get(`${app}/s1/calls`)).status).toBe(404);
    expect((await client.delete(`${app}/s1`)).status).toBe(404);
  });

  it('takes a message as Content and a stateDelta, and a generated session id', async () => {
    const client = api(base);
    const created = await client.post(app, {});
    expect(created.status).toBe(201);
    const id = created.json.id as string;
    expect(id).not.toBe('');
    const response = await client.run(`${app}/${id}`, {
      message: { role: 'user', parts: [{ text: 'Write about Y' }] },
      stateDelta: { mood: 'calm' },
    });
    const frames = parseSse(await response.text());
    expect(frames[0]?.data).toMatchObject({
      author: 'user',
      content: { parts: [{ text: 'Write about Y' }] },
      actions: { stateDelta: { mood: 'calm' } },
    });
    expect((await client.get(`${app}/${id}`)).json.state).toMatchObject({ mood: 'calm' });
  });

  it('answers a turn on an unknown session with a JSON 404, not a stream', async () => {
    const response = await api(base).run(`${app}/nope`, { message: 'hi' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({
      error: {
        code: 'not_found',
        message: 'Session nope of user ann not found in app draft_and_review.',
        hint: 'Create it with POST /apps/draft_and_review/users/ann/sessions.',
      },
    });
  });

  it('refuses bad requests with 4xx JSON naming what is wrong', async () => {
    const client = api(base);
    await client.post(app, { sessionId: 'v1' });
    const cases: [
      Promise<{ status: number; json: { error: { code: string; message: string } } }>,
      number,
      string,
      RegExp,
    ][] = [
      [client.post(`${app}/v1/run`, '{"message": '), 400, 'bad_json', /not valid JSON/],
      [
        client.post(`${app}/v1/run`, []),
        400,
        'invalid_input',
        /expected a JSON object \(\{ message, stateDelta\? \}\), got a list/,
      ],
      [
        client.post(`${app}/v1/run`, { mesage: 'hi' }),
        400,
        'invalid_input',
        /mesage: unknown field \(did you mean 'message'\?\)/,
      ],
      [
        client.post(`${app}/v1/run`, { message: 42 }),
        400,
        'invalid_input',
        /message: expected a string or a message object, got the number 42/,
      ],
      [
        client.post(`${app}/v1/run`, { message: { role: 'model', parts: [] } }),
        400,
        'invalid_input',
        /message\.role: .*expected 'user', got 'model'/,
      ],
      [
        client.post(`${app}/v1/run`, { message: 'hi', stateDelta: [1] }),
        400,
        'invalid_input',
        /stateDelta: expected an object of state keys, got a list/,
      ],
      [client.post(app, { sessionId: 7 }), 400, 'invalid_input', /sessionId: expected a string, got the number 7/],
      [client.post(app, { sessionId: 'v1' }), 409, 'already_exists', /v1/],
      [client.post(`${app}/v1/run`, { message: 'x'.repeat(5000) }), 413, 'body_too_large', /limit of 4096 bytes/],
      [client.get(`${app}/v1?limit=-1`), 400, 'invalid_input', /limit: expected a whole number from 0, got "-1"/],
      [client.get(`${app}/v1?limt=1`), 400, 'invalid_input', /limt: unknown query parameter; allowed: limit/],
      [client.get(`${app}/v1/calls/0`), 400, 'invalid_input', /call: expected a call number from 1, got "0"/],
      [client.get(`${app}/v1/calls/7`), 404, 'not_found', /Session v1 has no call 7; it has 0\./],
      [client.get(`${app}/v1/nothing`), 404, 'route_not_found', /No route matches GET/],
      [
        client.get('/apps/other/users/ann/sessions'),
        404,
        'app_not_found',
        /App 'other' is not served here; this server serves 'draft_and_review'/,
      ],
      [client.call('PUT', `${app}/v1`), 405, 'method_not_allowed', /PUT is not allowed .* it takes GET, DELETE/],
      [client.get(`${app}/%E0%A4%A`), 400, 'bad_path', /not valid percent-encoding/],
    ];
    for (const [pending, status, code, message] of cases) {
      const result = await pending;
      expect({ status: result.status, code: result.json.error.code }).toEqual({ status, code });
      expect(result.json.error.message).toMatch(message);
      expect(JSON.stringify(result.json)).not.toMatch(/\n\s+at /);
    }
    const allowed = await client.call('PUT', `${app}/v1`);
    expect(allowed.headers.get('allow')).toBe('GET, DELETE');
    const form = await fetch(`${base}${app}/v1/run`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{"message":"hi"}',
    });
    expect(form.status).toBe(415);
    expect(((await form.json()) as { error: { code: string } }).error.code).toBe('unsupported_media_type');
  });

  it('answers 413 to a streamed (chunked) body over the limit, without cutting the connection', async () => {
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = httpRequest(
        `${base}${app}`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (response) => {
          let body = '';
          response.on('data', (chunk: Buffer) => (body += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text: body }));
        },
      );
      request.on('error', reject);
      request.write('{"state": {"a": "');
      for (let index = 0; index < 10; index++) request.write('x'.repeat(1000));
      request.end('"}}');
    });
    expect(status).toBe(413);
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'body_too_large' } });
  });

  it('refuses a Host header that is not loopback when it has no token (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(`${base}/healthz`, { headers: { host: 'evil.example:80' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(403);
    expect((await api(base).get('/healthz')).json).toMatchObject({ ok: true, conflictsRetried: 0 });
  });

  it('answers 500 without details for a bug, and reports it', async () => {
    const reported: unknown[] = [];
    const broken = { ...runner, createSession: () => Promise.reject(new TypeError('secret internals')) } as Runner;
    const { url } = await res.serve({ runner: broken, onError: (error) => reported.push(error) });
    const result = await api(url).post(app, {});
    expect(result.status).toBe(500);
    expect(result.json.error.code).toBe('internal_error');
    expect(result.text).not.toContain('secret internals');
    expect(reported).toEqual([expect.objectContaining({ message: 'secret internals' })]);
  });
});

describe('HTTP API with a token', () => {
  it('needs the bearer token on every request', async () => {
    const { url } = await res.serve({ runner, token: 's3cret' });
    const anonymous = await api(url).get('/healthz');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
    expect(anonymous.json.error).toMatchObject({
      code: 'unauthorized',
      message: expect.stringMatching(/no Authorization header/),
    });
    expect((await api(url, { authorization: 'Bearer wrong' }).get(app)).status).toBe(401);
    expect((await api(url, { authorization: 'Bearer s3cret-and-more' }).get(app)).status).toBe(401);
    expect((await api(url, { authorization: 'Basic s3cret' }).get(app)).status).toBe(401);
    expect((await api(url).get('/no/such/route')).status).toBe(401);
    const authorized = api(url, { authorization: 'Bearer s3cret' });
    expect((await authorized.get('/healthz')).json).toMatchObject({ ok: true, conflictsRetried: 0 });
    expect((await authorized.get(app)).status).toBe(200);
  });

  it('listens beyond loopback only with a token', async () => {
    const { createServer } = await import('../../src/server/index.js');
    await expect(createServer({ runner }).listen(0, '0.0.0.0')).rejects.toThrow(
      /without a token would let anyone who can reach it run the agent/,
    );
    expect(() => createServer({ runner, token: ' ' })).toThrow(/token is empty/);
  });
});
