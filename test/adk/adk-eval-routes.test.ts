import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP, startEvalServer, type EvalServer } from './eval-server.js';

// ADK's eval routes on agentctx's ADK server, in both of ADK's families: 2.x under /dev/apps/{app}/… (where
// @google/adk-devtools 2.0.0's dev UI calls them) and 1.x under /apps/{app}/…, each in its hyphen and underscore
// spellings. Behaviour from ADK Python 2.5.0 (commit bb56aa56): src/google/adk/cli/dev_server.py L748–1140 and
// src/google/adk/evaluation/{local_eval_sets_manager.py, local_eval_set_results_manager.py, _path_validation.py}.

const METRICS = [
  { metricName: 'tool_trajectory_avg_score', threshold: 1 },
  { metricName: 'response_match_score', threshold: 0.7 },
];

type Json = Record<string, unknown>;

describe.each(['/dev/apps', '/apps'])('the eval routes under %s/{app}', (family) => {
  const P = `${family}/${APP}`;
  let server: EvalServer;
  beforeAll(async () => {
    server = await startEvalServer();
    await server.chat('u1', 's1', 'hello', 'what time is it?');
  });
  afterAll(async () => server?.close());

  it('creates eval sets (ADK’s body camelCase or snake_case, the dev UI’s extra keys ignored) and lists them', async () => {
    const created = await server.call('POST', `${P}/eval-sets`, { evalSet: { evalSetId: 'smoke' } });
    expect(created.status).toBe(200);
    expect(created.json).toEqual({
      evalSetId: 'smoke',
      name: 'smoke',
      evalCases: [],
      creationTimestamp: expect.any(Number),
    });
    const fromUi = await server.call('POST', `${P}/eval-sets`, {
      eval_set: { eval_set_id: 'ui_set', model_execution_mode: 'live', tool_execution_mode: 'live', eval_cases: [] },
    });
    expect(fromUi.status).toBe(200);
    const legacy = await server.call('POST', `${P}/eval_sets/legacy_one`);
    expect(legacy).toMatchObject({ status: 200, json: null });
    expect((await server.call('GET', `${P}/eval_sets`)).json).toEqual(['legacy_one', 'smoke', 'ui_set']);
    expect((await server.call('GET', `${P}/eval-sets`)).json).toEqual({
      evalSetIds: ['legacy_one', 'smoke', 'ui_set'],
    });
    // Written where ADK's LocalEvalSetsManager writes, as it writes it.
    const file = JSON.parse(await readFile(join(server.evalDir, APP, 'smoke.evalset.json'), 'utf8')) as Json;
    expect(file).toEqual({
      eval_set_id: 'smoke',
      name: 'smoke',
      eval_cases: [],
      creation_timestamp: expect.any(Number),
    });
  });

  it('refuses a taken id, an id ADK refuses, a path in an id and a body without one, with 400', async () => {
    const taken = await server.call('POST', `${P}/eval-sets`, { evalSet: { evalSetId: 'smoke' } });
    expect(taken).toMatchObject({ status: 400, json: { error: `EvalSet smoke already exists for app ${APP}.` } });
    const dashed = await server.call('POST', `${P}/eval_sets/bad-id`);
    expect(dashed.status).toBe(400);
    expect((dashed.json as Json)['error']).toContain(
      'Invalid Eval Set ID. Eval Set ID should have the `^[a-zA-Z0-9_]+$` format',
    );
    for (const id of ['../escape', 'a/b', 'a\\b']) {
      const refused = await server.call('POST', `${P}/eval-sets`, { evalSet: { evalSetId: id } });
      expect(refused.status).toBe(400);
    }
    expect((await server.call('GET', `${P}/eval_sets/a%2Fb`)).status).toBe(400);
    expect((await server.call('GET', `${P}/eval_sets/a%5Cb/evals`)).status).toBe(400);
    expect((await server.call('POST', `${P}/eval-sets`, { evalSet: {} })).status).toBe(400);
    expect((await server.call('POST', `${P}/eval-sets`, '[1]')).status).toBe(400);
    expect((await server.call('POST', `${P}/eval-sets`, '{not json')).status).toBe(400);
    expect(await readdir(server.evalDir)).toEqual([APP]);
  });

  it('adds a session to a set as a case: its turns the expected invocations, its user and app the session input', async () => {
    const added = await server.call('POST', `${P}/eval_sets/smoke/add_session`, {
      evalId: 'greet',
      sessionId: 's1',
      userId: 'u1',
    });
    expect(added).toMatchObject({ status: 200, json: null });
    const hyphen = await server.call('POST', `${P}/eval-sets/smoke/add-session`, {
      eval_id: 'greet_too',
      session_id: 's1',
      user_id: 'u1',
    });
    expect(hyphen.status).toBe(200);
    expect((await server.call('GET', `${P}/eval_sets/smoke/evals`)).json).toEqual(['greet', 'greet_too']);
    const evalCase = (await server.call('GET', `${P}/eval_sets/smoke/evals/greet`)).json as Json;
    expect(evalCase).toMatchObject({
      evalId: 'greet',
      sessionInput: { appName: APP, userId: 'u1', state: {} },
      creationTimestamp: expect.any(Number),
    });
    const conversation = evalCase['conversation'] as Json[];
    expect(conversation.map((turn) => (turn['userContent'] as { parts: Json[] }).parts[0]?.['text'])).toEqual([
      'hello',
      'what time is it?',
    ]);
    expect(conversation[1]).toMatchObject({
      finalResponse: { role: 'model', parts: [{ text: 'It is 12:00.' }] },
      // ADK 2.5.0 keeps a recorded turn's events (`InvocationEvents`): the call and its response.
      intermediateData: {
        invocationEvents: [
          { author: APP, content: { parts: [{ functionCall: { name: 'now', args: {} } }] } },
          { author: APP, content: { parts: [{ functionResponse: { name: 'now', response: { time: '12:00' } } }] } },
        ],
      },
    });
    expect((await server.call('GET', `${P}/eval-sets/smoke/eval-cases/greet`)).json).toEqual(evalCase);
    const set = (await server.call('GET', `${P}/eval_sets/smoke`)).json as Json;
    expect((set['evalCases'] as Json[]).map((item) => item['evalId'])).toEqual(['greet', 'greet_too']);
    expect((await server.call('GET', `${P}/eval-sets/smoke`)).json).toEqual(set);
  });

  it('refuses an eval id already there (400), a session or set not there (404) and a body without its fields (400)', async () => {
    const body = { evalId: 'greet', sessionId: 's1', userId: 'u1' };
    const again = await server.call('POST', `${P}/eval_sets/smoke/add_session`, body);
    expect(again).toMatchObject({
      status: 400,
      json: { error: 'Eval id `greet` already exists in `smoke` eval set.' },
    });
    const noSession = await server.call('POST', `${P}/eval_sets/smoke/add_session`, {
      ...body,
      evalId: 'x',
      sessionId: 'nope',
    });
    expect(noSession).toMatchObject({
      status: 404,
      json: { error: expect.stringContaining('Session not found: nope') },
    });
    const noSet = await server.call('POST', `${P}/eval_sets/missing/add_session`, { ...body, evalId: 'x' });
    expect(noSet).toMatchObject({
      status: 404,
      json: { error: expect.stringContaining('Eval set `missing` not found.') },
    });
    expect((await server.call('POST', `${P}/eval_sets/smoke/add_session`, { evalId: 'x' })).status).toBe(400);
    const listMissing = await server.call('GET', `${P}/eval_sets/missing/evals`);
    expect(listMissing).toMatchObject({
      status: 400,
      json: { error: expect.stringContaining('Eval set `missing` not found.') },
    });
    const caseMissing = await server.call('GET', `${P}/eval_sets/smoke/evals/nope`);
    expect(caseMissing).toMatchObject({ status: 404, json: { error: 'Eval set `smoke` or Eval `nope` not found.' } });
    expect((await server.call('GET', `${P}/eval_sets/missing`)).status).toBe(404);
  });

  it('replaces a case with PUT, refusing another eval id (400) and a case or set not there (404)', async () => {
    const before = (await server.call('GET', `${P}/eval_sets/smoke/evals/greet_too`)).json as Json;
    const changed = { ...before, sessionInput: { appName: APP, userId: 'u1', state: { mood: 'calm' } } };
    expect(await server.call('PUT', `${P}/eval_sets/smoke/evals/greet_too`, changed)).toMatchObject({
      status: 200,
      json: null,
    });
    expect((await server.call('GET', `${P}/eval_sets/smoke/evals/greet_too`)).json).toMatchObject({
      sessionInput: { state: { mood: 'calm' } },
    });
    const hyphen = await server.call('PUT', `${P}/eval-sets/smoke/eval-cases/greet_too`, { ...changed, evalId: '' });
    expect(hyphen.status).toBe(200);
    const other = await server.call('PUT', `${P}/eval_sets/smoke/evals/greet_too`, { ...changed, evalId: 'greet' });
    expect(other).toMatchObject({
      status: 400,
      json: { error: 'Eval id in EvalCase should match the eval id in the API route.' },
    });
    const missing = await server.call('PUT', `${P}/eval_sets/smoke/evals/nope`, { ...changed, evalId: 'nope' });
    expect(missing).toMatchObject({ status: 404, json: { error: 'Eval case `nope` not found in eval set `smoke`.' } });
    expect((await server.call('PUT', `${P}/eval_sets/missing/evals/greet_too`, before)).status).toBe(404);
    expect(
      (await server.call('PUT', `${P}/eval_sets/smoke/evals/greet_too`, { evalId: 'greet_too', conversation: 3 }))
        .status,
    ).toBe(400);
  });

  it('runs the set’s cases in sessions of their own, answers ADK’s results and writes them as ADK’s history', async () => {
    const legacy = await server.call('POST', `${P}/eval_sets/smoke/run_eval`, {
      evalIds: ['greet'],
      evalMetrics: METRICS,
    });
    expect(legacy.status).toBe(200);
    const results = legacy.json as Json[];
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({
      evalSetFile: 'smoke',
      evalSetId: 'smoke',
      evalId: 'greet',
      finalEvalStatus: 1,
      evalMetricResults: [],
      overallEvalMetricResults: [
        { metricName: 'tool_trajectory_avg_score', threshold: 1, score: 1, evalStatus: 1, details: {} },
        { metricName: 'response_match_score', threshold: 0.7, score: 1, evalStatus: 1, details: {} },
      ],
      userId: 'u1',
      sessionId: expect.stringMatching(/^___eval___session___/),
    });
    expect((results[0]?.['evalMetricResultPerInvocation'] as unknown[]).length).toBe(2);
    const current = await server.call('POST', `${P}/eval-sets/smoke/run`, { evalCaseIds: [], evalMetrics: METRICS });
    expect(
      ((current.json as Json)['runEvalResults'] as Json[]).map((result) => [
        result['evalId'],
        result['finalEvalStatus'],
      ]),
    ).toEqual([
      ['greet', 1],
      ['greet_too', 1],
    ]);
    // The sessions it ran in are hidden from the session list, as ADK hides them.
    const sessions = (await server.call('GET', `/apps/${APP}/users/u1/sessions`)).json as Json[];
    expect(sessions.map((session) => session['id'])).toEqual(['s1']);
  });

  it('lists the results by ADK’s ids and answers each as an EvalSetResult', async () => {
    const ids = (await server.call('GET', `${P}/eval_results`)).json as string[];
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(new RegExp(`^${APP}_smoke_\\d+(\\.\\d+)?$`));
    expect((await server.call('GET', `${P}/eval-results`)).json).toEqual({ evalResultIds: ids });
    const history = join(server.evalDir, APP, '.adk', 'eval_history');
    expect((await readdir(history)).sort()).toEqual(ids.map((id) => `${id}.evalset_result.json`).sort());
    for (const path of [`${P}/eval_results/${ids[0]}`, `${P}/eval-results/${ids[0]}`]) {
      const result = (await server.call('GET', path)).json as Json;
      expect(result).toMatchObject({
        evalSetResultId: ids[0],
        evalSetResultName: ids[0],
        evalSetId: 'smoke',
        creationTimestamp: expect.any(Number),
      });
      const cases = result['evalCaseResults'] as Json[];
      expect(cases[0]).toMatchObject({
        evalId: 'greet',
        finalEvalStatus: 1,
        sessionId: expect.any(String),
        userId: 'u1',
      });
    }
    // A file as older ADKs wrote it, its JSON encoded once more as a string, is read too.
    const name = ids[0] as string;
    const text = await readFile(join(history, `${name}.evalset_result.json`), 'utf8');
    await writeFile(join(history, 'older.evalset_result.json'), JSON.stringify(text));
    expect((await server.call('GET', `${P}/eval_results/older`)).json).toMatchObject({ evalSetResultId: name });
    expect((await server.call('GET', `${P}/eval_results/nope`)).status).toBe(404);
    expect((await server.call('GET', `${P}/eval_results/a%2Fb`)).status).toBe(400);
  });

  it('refuses a run of a set not there (400), without metrics (400) or with a metric agentctx cannot compute (400)', async () => {
    const noSet = await server.call('POST', `${P}/eval_sets/missing/run_eval`, { evalMetrics: METRICS });
    expect(noSet).toMatchObject({
      status: 400,
      json: { error: expect.stringContaining('Eval set `missing` not found.') },
    });
    expect((await server.call('POST', `${P}/eval_sets/smoke/run_eval`, { evalIds: [] })).status).toBe(400);
    const unknown = await server.call('POST', `${P}/eval_sets/smoke/run_eval`, {
      evalMetrics: [{ metricName: 'safety_v1', threshold: 1 }],
    });
    expect(unknown.status).toBe(400);
    expect(((await server.call('GET', `${P}/eval_results`)).json as string[]).length).toBe(3);
  });

  it('lists the metrics it computes, with ADK’s MetricInfo fields', async () => {
    const info = (await server.call('GET', `${P}/metrics-info`)).json as { metricsInfo: Json[] };
    expect(info.metricsInfo.map((metric) => metric['metricName'])).toEqual([
      'tool_trajectory_avg_score',
      'response_match_score',
    ]);
    for (const metric of info.metricsInfo)
      expect(metric).toMatchObject({
        description: expect.any(String),
        metricValueInfo: { interval: { minValue: 0, maxValue: 1 } },
      });
  });

  it('deletes cases and sets (404 when not there), writing no temporary file it leaves behind', async () => {
    expect(await server.call('DELETE', `${P}/eval_sets/smoke/evals/greet_too`)).toMatchObject({
      status: 200,
      json: null,
    });
    expect((await server.call('DELETE', `${P}/eval-sets/smoke/eval-cases/greet_too`)).status).toBe(404);
    expect((await server.call('GET', `${P}/eval_sets/smoke/evals`)).json).toEqual(['greet']);
    expect(await server.call('DELETE', `${P}/eval_sets/legacy_one`)).toMatchObject({ status: 200, json: null });
    expect((await server.call('DELETE', `${P}/eval-sets/legacy_one`)).status).toBe(404);
    expect((await server.call('GET', `${P}/eval_sets`)).json).toEqual(['smoke', 'ui_set']);
    expect((await readdir(join(server.evalDir, APP))).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('answers 404 for an app it does not serve', async () => {
    const answer = await server.call('GET', `${family}/other/eval_sets`);
    expect(answer).toMatchObject({ status: 404, json: { error: expect.stringContaining('App not found: other') } });
  });
});

describe('the eval routes of a server without an eval folder', () => {
  let server: EvalServer;
  beforeAll(async () => {
    server = await startEvalServer({ evalDir: false });
  });
  afterAll(async () => server?.close());

  it('answer 404 naming the option, so the dev UI hides its eval tab', async () => {
    for (const path of [
      '/dev/apps/clock/eval_sets',
      '/apps/clock/eval-sets',
      '/dev/apps/clock/metrics-info',
      '/dev/apps/clock/eval_results',
    ]) {
      const answer = await server.call('GET', path);
      expect(answer.status).toBe(404);
      expect((answer.json as Json)['error']).toContain('evalDir');
      expect((answer.json as Json)['error']).toContain('--eval-dir');
    }
    expect((await server.call('POST', '/dev/apps/clock/eval-sets', { evalSet: { evalSetId: 'x' } })).status).toBe(404);
  });
});

describe('the eval routes with garbage', () => {
  let server: EvalServer;
  beforeAll(async () => {
    server = await startEvalServer();
    await server.chat('u1', 's1', 'hello');
    await server.call('POST', `/dev/apps/${APP}/eval-sets`, { evalSet: { evalSetId: 'smoke' } });
    await server.call('POST', `/dev/apps/${APP}/eval_sets/smoke/add_session`, {
      evalId: 'greet',
      sessionId: 's1',
      userId: 'u1',
    });
  });
  afterAll(async () => server?.close());

  it('answer every route and method with a 4xx JSON error, never a 500', { timeout: 60_000 }, async () => {
    const { ADK_EVAL_ROUTES } = await import('../../src/server/adk/adk-eval-routes.js');
    const bodies = [
      undefined,
      'not json',
      '[]',
      'null',
      '{"evalSet": 7}',
      '{"evalSet": {"evalSetId": ".."}}',
      '{"evalId": 1, "sessionId": "s1", "userId": "u1"}',
      '{"evalMetrics": [{"metricName": 3}]}',
      '{"evalMetrics": [{"metricName": "response_match_score", "criterion": "x"}]}',
      '{"evalId": "greet", "conversation": "x"}',
    ];
    const routes = ADK_EVAL_ROUTES.filter((route) => route.path.startsWith('/dev/'));
    for (const [route, id] of routes.flatMap((each) =>
      ['smoke', 'greet', '..', 'a%2Fb', '%E0%A4%A'].map((id) => [each, id] as const),
    )) {
      const path = route.path
        .replace(':app', APP)
        .replace(':set', id === 'greet' ? 'smoke' : id)
        .replace(/:[a-z]+/g, id);
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        for (const body of method === 'GET' ? [undefined] : bodies) {
          const answer = await server.call(method, path, body);
          expect([route.path, method, body, answer.status < 500]).toEqual([route.path, method, body, true]);
          if (answer.status >= 400) expect(answer.json).toEqual({ error: expect.any(String) });
        }
      }
    }
  });
});
