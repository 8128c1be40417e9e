import { afterEach, describe, expect, it } from 'vitest';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import type { AgentctxServer } from '../../src/server/index.js';
import { weatherRunner } from './weather-app.js';

// ADK's API server protocol over agentctx runners, driven the way ADK's dev UI and clients drive it.

const servers: AgentctxServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(options: { token?: string } = {}) {
  const server = createAdkServer({
    runners: [weatherRunner(createInMemorySessionStore())],
    version: 'test',
    onError: (error) => {
      throw error;
    },
    ...options,
  });
  servers.push(server);
  const { url } = await server.listen(0);
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const type = response.headers.get('content-type');
    return {
      status: response.status,
      type,
      text,
      json: text === '' || !(type ?? '').startsWith('application/json') ? undefined : (JSON.parse(text) as unknown),
    };
  };
  return { url, call };
}

const SESSIONS = '/apps/weather_agent/users/u1/sessions';
type AdkEvent = {
  id: string;
  author: string;
  invocationId: string;
  timestamp: number;
  content?: { parts: Record<string, unknown>[] };
  actions: Record<string, unknown>;
  partial?: boolean;
  longRunningToolIds: unknown[];
};

function sseEvents(text: string): unknown[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.startsWith('data: '))
    .map((chunk) => JSON.parse(chunk.slice('data: '.length)) as unknown);
}

describe("ADK's API server protocol", () => {
  it('lists the apps and says its version', async () => {
    const { call } = await start();
    expect((await call('GET', '/list-apps?relative_path=./')).json).toEqual(['weather_agent']);
    expect((await call('GET', '/version')).json).toEqual({ version: 'test' });
  });

  it('creates sessions with and without a body or an id, refuses an id in use with 409, lists them as a bare list', async () => {
    const { call } = await start();
    const fresh = await call('POST', SESSIONS);
    expect(fresh.status).toBe(200);
    expect(fresh.json).toMatchObject({ appName: 'weather_agent', userId: 'u1', state: {}, events: [] });
    const named = await call('POST', `${SESSIONS}/s1`, { state: { unit: 'c' } });
    expect(named.json).toEqual({
      id: 's1',
      appName: 'weather_agent',
      userId: 'u1',
      state: { unit: 'c' },
      events: [],
      lastUpdateTime: expect.any(Number) as number,
    });
    const again = await call('POST', `${SESSIONS}/s1`, {});
    expect(again.status).toBe(409);
    expect(again.json).toEqual({ error: expect.stringMatching(/^Session already exists: s1/) as string });
    const list = await call('GET', SESSIONS);
    expect(Array.isArray(list.json)).toBe(true);
    expect((list.json as { id: string; events: unknown[] }[]).map((session) => [session.id, session.events])).toEqual(
      expect.arrayContaining([
        ['s1', []],
        [(fresh.json as { id: string }).id, []],
      ]),
    );
  });

  it('runs a turn as one list of events, in ADK’s event shape, with the tool’s state and artifact deltas', async () => {
    const { call } = await start();
    await call('POST', `${SESSIONS}/s1`, {});
    const run = await call('POST', '/run', {
      appName: 'weather_agent',
      userId: 'u1',
      sessionId: 's1',
      newMessage: { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
    });
    expect(run.status).toBe(200);
    const events = run.json as AdkEvent[];
    expect(events.map((event) => event.author)).toEqual(['weather_agent', 'weather_agent', 'weather_agent']);
    expect(events[0]?.content?.parts[0]).toMatchObject({
      functionCall: { name: 'get_weather', args: { city: 'Paris' } },
    });
    expect(events[1]?.actions).toEqual({
      stateDelta: { last_city: 'Paris' },
      artifactDelta: { 'report.txt': 0 },
      requestedAuthConfigs: {},
      requestedToolConfirmations: {},
    });
    expect(events[2]?.content?.parts).toEqual([{ text: 'It is sunny in Paris.' }]);
    for (const event of events) {
      expect(event.longRunningToolIds).toEqual([]);
      expect(event.timestamp).toBeLessThan(1e10);
      expect(Object.values(event).includes(null as never)).toBe(false);
    }
    // The stored session has the user's message first, and the state the tool wrote.
    const session = (await call('GET', `${SESSIONS}/s1`)).json as {
      state: Record<string, unknown>;
      events: AdkEvent[];
    };
    expect(session.state).toEqual({ last_city: 'Paris' });
    expect(session.events.map((event) => event.author)).toEqual([
      'user',
      'weather_agent',
      'weather_agent',
      'weather_agent',
    ]);
  });

  it('streams a turn as data: lines only, with partial events when asked, and takes snake_case fields', async () => {
    const { call } = await start();
    await call('POST', `${SESSIONS}/s1`, {});
    const quiet = await call('POST', '/run_sse', {
      app_name: 'weather_agent',
      user_id: 'u1',
      session_id: 's1',
      new_message: { role: 'user', parts: [{ text: 'Weather?' }] },
    });
    expect(quiet.type).toMatch(/^text\/event-stream/);
    expect(quiet.text).not.toMatch(/^event:/m);
    const first = sseEvents(quiet.text) as AdkEvent[];
    expect(first.some((event) => event.partial === true)).toBe(false);
    expect(first.at(-1)?.content?.parts).toEqual([{ text: 'It is sunny in Paris.' }]);
    const streamed = sseEvents(
      (
        await call('POST', '/run_sse', {
          appName: 'weather_agent',
          userId: 'u1',
          sessionId: 's1',
          newMessage: { role: 'user', parts: [{ text: 'The forecast?' }] },
          streaming: true,
        })
      ).text,
    ) as AdkEvent[];
    expect(streamed.some((event) => event.partial === true)).toBe(true);
    // The transfer: a call, its response with transferToAgent, then the forecaster's answer.
    const complete = streamed.filter((event) => event.partial !== true);
    expect(complete.map((event) => event.author)).toEqual(['weather_agent', 'weather_agent', 'forecaster']);
    expect(complete[1]?.actions['transferToAgent']).toBe('forecaster');
  });

  it('applies a state PATCH as an event by the user with the delta, in its own invocation', async () => {
    const { call } = await start();
    await call('POST', `${SESSIONS}/s1`, { state: { unit: 'c' } });
    const patched = await call('PATCH', `${SESSIONS}/s1`, { stateDelta: { unit: 'f', 'user:name': 'Ann' } });
    expect(patched.status).toBe(200);
    const session = patched.json as { state: Record<string, unknown>; events: AdkEvent[] };
    expect(session.state).toEqual({ unit: 'f', 'user:name': 'Ann' });
    expect(session.events).toHaveLength(1);
    expect(session.events[0]).toMatchObject({
      author: 'user',
      invocationId: expect.stringMatching(/^p-[0-9a-f-]{36}$/) as string,
      actions: { stateDelta: { unit: 'f', 'user:name': 'Ann' } },
    });
    expect((await call('PATCH', `${SESSIONS}/nope`, { stateDelta: {} })).status).toBe(404);
    expect((await call('PATCH', `${SESSIONS}/s1`, { state: {} })).json).toEqual({
      error: expect.stringContaining('state: unknown field') as string,
    });
  });

  it('serves artifacts: names, the latest as a Part, versions, one version, delete', async () => {
    const { call } = await start();
    await call('POST', `${SESSIONS}/s1`, {});
    await call('POST', '/run', {
      appName: 'weather_agent',
      userId: 'u1',
      sessionId: 's1',
      newMessage: { role: 'user', parts: [{ text: 'Weather?' }] },
    });
    const artifacts = `${SESSIONS}/s1/artifacts`;
    expect((await call('GET', artifacts)).json).toEqual(['report.txt']);
    expect((await call('GET', `${artifacts}/report.txt`)).json).toEqual({ text: 'Sunny in Paris.' });
    expect((await call('GET', `${artifacts}/report.txt/versions`)).json).toEqual([0]);
    expect((await call('GET', `${artifacts}/report.txt/versions/0`)).json).toEqual({ text: 'Sunny in Paris.' });
    expect((await call('GET', `${artifacts}/report.txt/versions/7`)).json).toEqual({
      error: expect.stringMatching(/^Artifact not found: report.txt/) as string,
    });
    const deleted = await call('DELETE', `${artifacts}/report.txt`);
    expect([deleted.status, deleted.json]).toEqual([200, null]);
    expect((await call('GET', artifacts)).json).toEqual([]);
  });

  it('answers the trace routes from the recorded calls: spans with the exact request agentctx sent', async () => {
    const { call } = await start();
    await call('POST', `${SESSIONS}/s1`, {});
    const events = (
      await call('POST', '/run', {
        appName: 'weather_agent',
        userId: 'u1',
        sessionId: 's1',
        newMessage: { role: 'user', parts: [{ text: 'Weather?' }] },
      })
    ).json as AdkEvent[];
    const spans = (await call('GET', '/dev/apps/weather_agent/debug/trace/session/s1')).json as {
      name: string;
      span_id: string;
      parent_span_id: string | null;
      attributes: Record<string, unknown>;
    }[];
    expect(spans.map((span) => span.name)).toEqual([
      'invocation',
      'invoke_agent weather_agent',
      'call_llm',
      'call_llm',
    ]);
    expect(spans[1]?.parent_span_id).toBe(spans[0]?.span_id);
    expect(spans[2]?.parent_span_id).toBe(spans[1]?.span_id);
    expect(spans[1]?.attributes['gen_ai.conversation.id']).toBe('s1');
    const llm = spans[2]?.attributes as Record<string, unknown>;
    expect(llm['gcp.vertex.agent.event_id']).toBe(events[0]?.id);
    expect(llm['gcp.vertex.agent.invocation_id']).toBe(events[0]?.invocationId);
    const request = JSON.parse(String(llm['gcp.vertex.agent.llm_request'])) as {
      contents: unknown[];
      config: { systemInstruction: string; tools: { functionDeclarations: { name: string }[] }[] };
    };
    expect(request.config.systemInstruction).toContain('Answer weather questions with get_weather.');
    expect(request.config.tools[0]?.functionDeclarations.map((tool) => tool.name)).toEqual([
      'transfer_to_agent',
      'get_weather',
    ]);
    expect(request.contents).toEqual([{ role: 'user', parts: [{ text: 'Weather?' }] }]);
    for (const span of spans) expect(Object.values(span.attributes).includes(null)).toBe(false);
    const byEvent = (await call('GET', `/debug/trace/${events[2]?.id ?? ''}`)).json as Record<string, unknown>;
    expect(byEvent['gcp.vertex.agent.event_id']).toBe(events[2]?.id);
    expect(byEvent['span_id']).toBe(spans[3]?.span_id);
    expect((await call('GET', '/debug/trace/nope')).status).toBe(404);
    expect((await call('GET', '/debug/trace/session/unknown')).json).toEqual([]);
  });

  it('describes the agent tree for the dev UI’s graph', async () => {
    const { call } = await start();
    expect((await call('GET', '/dev/apps/weather_agent/build_graph')).json).toEqual({
      name: 'weather_agent',
      root_agent: {
        name: 'weather_agent',
        type: 'agent',
        description: 'Answers questions about the weather.',
        tools: [{ name: 'get_weather', type: 'tool' }],
        sub_agents: [{ name: 'forecaster', type: 'agent', description: 'Gives forecasts.' }],
      },
    });
    const image = (await call('GET', '/dev/apps/weather_agent/build_graph_image?dark_mode=false')).json as {
      dotSrc: string;
      '': { dotSrc: string };
    };
    expect(image[''].dotSrc).toBe(image.dotSrc);
    expect(image.dotSrc).toContain('"weather_agent" -> "forecaster";');
  });

  it('answers what a client can get wrong with a 4xx and ADK’s { error } body', async () => {
    const { call } = await start();
    const cases: [string, string, unknown, number][] = [
      ['GET', '/apps/nope/users/u1/sessions', undefined, 404],
      ['GET', `${SESSIONS}/missing`, undefined, 404],
      [
        'POST',
        '/run',
        {
          appName: 'weather_agent',
          userId: 'u1',
          sessionId: 'missing',
          newMessage: { role: 'user', parts: [{ text: 'hi' }] },
        },
        404,
      ],
      [
        'POST',
        '/run_sse',
        { appName: 'nope', userId: 'u1', sessionId: 's', newMessage: { role: 'user', parts: [{ text: 'hi' }] } },
        404,
      ],
      ['POST', '/run', { appName: 'weather_agent', userId: 'u1', sessionId: 's', newMessage: 'hi' }, 400],
      ['POST', '/run', { appName: 'weather_agent', app_name: 'weather_agent', userId: 'u1', sessionId: 's' }, 400],
      ['POST', '/run', { userId: 'u1', sessionId: 's', extra: 1 }, 400],
      ['PUT', `${SESSIONS}/s1`, {}, 405],
      ['GET', '/nowhere', undefined, 404],
    ];
    for (const [method, path, body, status] of cases) {
      const answer = await call(method, path, body);
      expect([method, path, answer.status]).toEqual([method, path, status]);
      expect(answer.json).toEqual({ error: expect.any(String) as string });
    }
    expect(
      (
        (await call('POST', '/run', { appName: 'weather_agent', app_name: 'x', userId: 'u1', sessionId: 's' }))
          .json as { error: string }
      ).error,
    ).toContain('app_name: given twice, as appName and as app_name');
  });

  it('answers every route and method with garbage with a 4xx JSON error, never a 500', async () => {
    const { url } = await start();
    const { ADK_ROUTES } = await import('../../src/server/adk/adk-routes.js');
    const bodies: (string | undefined)[] = [
      undefined,
      '',
      'not json',
      '[]',
      'null',
      '{"appName": 7}',
      '{"stateDelta": []}',
      '{"newMessage": {"role": "model", "parts": "x"}}',
      `${'['.repeat(2000)}${']'.repeat(2000)}`,
    ];
    await fetch(`${url}${SESSIONS}/s1`, { method: 'POST' });
    const cases: { route: string; path: string; method: string; body: string | undefined }[] = [];
    for (const [route, id] of ADK_ROUTES.flatMap((each) =>
      ['s1', 'report.txt', '%E0%A4%A'].map((id) => [each, id] as const),
    )) {
      const path = route.path
        .replace(/:app/g, 'weather_agent')
        .replace(/:user/g, 'u1')
        .replace(/:[a-z]+/g, id);
      for (const method of ['GET', 'POST', 'PATCH', 'DELETE', 'PUT'])
        for (const body of method === 'GET' ? [undefined] : bodies)
          cases.push({ route: route.path, path, method, body });
    }
    // Thousands of requests: eight at a time, each checked as it comes back.
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const { route, path, method, body } = cases[next++] as (typeof cases)[number];
        const response = await fetch(`${url}${path}`, {
          method,
          ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body }),
        });
        const text = await response.text();
        if (response.status >= 500) failures.push(`${method} ${route} ${JSON.stringify(body)}: ${response.status}`);
        else if (response.status >= 400 && !isErrorBody(text))
          failures.push(`${method} ${route} ${JSON.stringify(body)}: ${text.slice(0, 80)}`);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(cases.length).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  }, 120_000);

  it('keeps agentctx’s access rules: a token when one is set', async () => {
    const { call } = await start({ token: 'secret' });
    expect((await call('GET', '/list-apps')).status).toBe(401);
    expect((await call('GET', '/list-apps', undefined, { authorization: 'Bearer secret' })).json).toEqual([
      'weather_agent',
    ]);
  });
});

// ADK's error body: `{ "error": message }` and nothing else.
function isErrorBody(text: string): boolean {
  try {
    const json = JSON.parse(text) as unknown;
    return (
      typeof json === 'object' &&
      json !== null &&
      Object.keys(json).length === 1 &&
      typeof (json as { error?: unknown }).error === 'string'
    );
  } catch {
    return false;
  }
}
