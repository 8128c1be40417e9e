import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { APP, startEvalServer, type EvalServer } from './eval-server.js';

// The ADK eval routes with a judge model (`createAdkServer({ judge })`, `serve --protocol adk --judge`): the
// LLM-judged metrics are offered in metrics-info and a run computes them; without a judge they are refused (400).

type Json = Record<string, unknown>;
const P = `/dev/apps/${APP}`;
const JUDGED = [{ metricName: 'final_response_match_v2', threshold: 0.5 }];

describe('ADK eval routes with a judge model', () => {
  let judged: EvalServer;
  let plain: EvalServer;

  beforeAll(async () => {
    const judge = createScriptedModel({ fallback: { text: '```json\n{"is_the_agent_response_valid": "valid"}\n```' } });
    judged = await startEvalServer({ judge });
    plain = await startEvalServer();
    for (const server of [judged, plain]) {
      await server.chat('u1', 's1', 'what time is it?');
      expect((await server.call('POST', `${P}/eval_sets/judged`)).status).toBe(200);
      const added = await server.call('POST', `${P}/eval_sets/judged/add_session`, {
        evalId: 'clock',
        sessionId: 's1',
        userId: 'u1',
      });
      expect(added.status).toBe(200);
    }
  });

  afterAll(async () => {
    await judged?.close();
    await plain?.close();
  });

  it('offers the judged metrics and computes them with the judge', async () => {
    const info = (await judged.call('GET', `${P}/metrics-info`)).json as { metricsInfo: Json[] };
    expect(info.metricsInfo.map((metric) => metric['metricName'])).toEqual([
      'tool_trajectory_avg_score',
      'response_match_score',
      'final_response_match_v2',
      'hallucinations_v1',
    ]);
    const run = await judged.call('POST', `${P}/eval-sets/judged/run`, { evalCaseIds: [], evalMetrics: JUDGED });
    expect(run.status).toBe(200);
    const [result] = (run.json as { runEvalResults: Json[] }).runEvalResults;
    expect(result).toMatchObject({
      evalId: 'clock',
      finalEvalStatus: 1,
      overallEvalMetricResults: [{ metricName: 'final_response_match_v2', score: 1, evalStatus: 1 }],
    });
  });

  it('refuses them without a judge, and does not offer them', async () => {
    const info = (await plain.call('GET', `${P}/metrics-info`)).json as { metricsInfo: Json[] };
    expect(info.metricsInfo.map((metric) => metric['metricName'])).toEqual([
      'tool_trajectory_avg_score',
      'response_match_score',
    ]);
    const run = await plain.call('POST', `${P}/eval-sets/judged/run`, { evalCaseIds: [], evalMetrics: JUDGED });
    expect(run.status).toBe(400);
    expect(String((run.json as Json)['error'])).toMatch(/judge/);
  });
});
