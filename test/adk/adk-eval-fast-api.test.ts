import { afterEach, describe, expect, it } from 'vitest';
import { APP, startEvalServer, type EvalServer } from './eval-server.js';

// Translated from Google ADK Python's tests of its eval routes in tests/unittests/cli/test_fast_api.py:
// `test_get_eval_set_result_not_found` and `test_list_metrics_info` of ADK 2.5.0 (commit bb56aa56), and
// `test_create_eval_set`, `test_list_eval_sets` and `test_run_eval` of v1.20.0 (commit 960b2067), whose routes
// (/apps/{app}/eval_sets…) 2.x moved under /dev/apps/{app}/…; agentctx serves both. ADK mocks its eval sets manager,
// results manager and agent; here they are agentctx's files and a scripted agent, so the result id is ADK's real one
// (`<app>_<set>_<time>`) rather than the mock's `<app>_<set>_eval_result`.

const servers: EvalServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function start(): Promise<EvalServer> {
  const server = await startEvalServer();
  servers.push(server);
  return server;
}

// ADK's `create_test_eval_set` fixture: a set with one case of one invocation, no final response expected.
async function withTestEvalSet(server: EvalServer): Promise<void> {
  expect((await server.call('POST', `/apps/${APP}/eval_sets/test_eval_set_id`)).status).toBe(200);
  const evalCase = {
    evalId: 'test_eval_case_id',
    conversation: [
      { invocationId: 'test_invocation_id', userContent: { role: 'user', parts: [{ text: 'test_user_content' }] } },
    ],
  };
  const set = (await server.call('GET', `/apps/${APP}/eval_sets/test_eval_set_id`)).json as { evalCases: unknown[] };
  expect(set.evalCases).toEqual([]);
  // ADK's fixture adds the case through its manager; agentctx's PUT replaces only a case that is there, so the case
  // goes in through a session, then is replaced by the fixture's own.
  await server.chat('test_user', 's0', 'hello');
  await server.call('POST', `/apps/${APP}/eval_sets/test_eval_set_id/add_session`, {
    evalId: 'test_eval_case_id',
    sessionId: 's0',
    userId: 'test_user',
  });
  expect(
    (await server.call('PUT', `/apps/${APP}/eval_sets/test_eval_set_id/evals/test_eval_case_id`, evalCase)).status,
  ).toBe(200);
}

describe("ADK's test_fast_api.py eval tests", () => {
  it('test_create_eval_set', async () => {
    const server = await start();
    expect((await server.call('POST', `/apps/${APP}/eval_sets/test_eval_set_id`)).status).toBe(200);
  });

  it('test_list_eval_sets', async () => {
    const server = await start();
    await withTestEvalSet(server);
    const response = await server.call('GET', `/apps/${APP}/eval_sets`);
    expect(response.status).toBe(200);
    expect(response.json).toEqual(['test_eval_set_id']);
  });

  it('test_get_eval_set_result_not_found', async () => {
    const server = await start();
    expect((await server.call('GET', `/apps/${APP}/eval_results/test_eval_result_id_not_found`)).status).toBe(404);
  });

  it('test_run_eval', async () => {
    const server = await start();
    await withTestEvalSet(server);
    const expected = {
      evalSetId: 'test_eval_set_id',
      evalId: 'test_eval_case_id',
      finalEvalStatus: 1,
      overallEvalMetricResults: [
        { metricName: 'tool_trajectory_avg_score', threshold: 0.5, score: 1, evalStatus: 1, details: {} },
      ],
    };
    const response = await server.call('POST', `/apps/${APP}/eval_sets/test_eval_set_id/run_eval`, {
      eval_ids: ['test_eval_case_id'],
      eval_metrics: [{ metric_name: 'tool_trajectory_avg_score', threshold: 0.5 }],
    });
    expect(response.status).toBe(200);
    const data = response.json as unknown[];
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject(expected);
    const ids = (await server.call('GET', `/apps/${APP}/eval_results`)).json as string[];
    expect(ids).toEqual([expect.stringMatching(new RegExp(`^${APP}_test_eval_set_id_`))]);
    const saved = await server.call('GET', `/apps/${APP}/eval_results/${ids[0]}`);
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ evalSetId: 'test_eval_set_id', evalSetResultId: ids[0] });
    const cases = (saved.json as { evalCaseResults: unknown[] }).evalCaseResults;
    expect(cases).toHaveLength(1);
    expect(cases[0]).toMatchObject(expected);
  });

  it('test_list_metrics_info', async () => {
    const server = await start();
    const response = await server.call('GET', `/dev/apps/${APP}/metrics-info`);
    expect(response.status).toBe(200);
    const data = response.json as { metricsInfo: Record<string, unknown>[] };
    expect(Array.isArray(data.metricsInfo)).toBe(true);
    expect(data.metricsInfo.length).toBeGreaterThan(0);
    for (const metric of data.metricsInfo) {
      expect(metric).toHaveProperty('metricName');
      expect(metric).toHaveProperty('description');
      expect(metric).toHaveProperty('metricValueInfo');
    }
  });
});
