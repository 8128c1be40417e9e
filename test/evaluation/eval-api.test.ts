import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  assertEvalSetPasses,
  evaluate,
  evalMetricsFromConfig,
  parseEvalSet,
  readEvalConfig,
  rouge1,
  type Invocation,
} from '../../src/eval.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { runEvalSet } from '../../src/eval.js';
import { costOfCalls, DEFAULT_PRICES } from '../../src/cost.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { withSimulatedBilling } from '../../src/testing/index.js';
import { agent } from '../fixtures/adk-eval/home-automation-agent.js';

// agentctx/eval from code (issue 50; adk-python #4534 asks for results in memory): one metric over invocations you
// have, ROUGE-1 alone, and an eval set run in a test as ADK's AgentEvaluator.evaluate runs one under pytest.

const FIXTURES = 'test/fixtures/adk-eval';
const said = (text: string, role: 'user' | 'model' = 'model') => ({ role, parts: [{ text }] });
const invocation = (answer: string): Invocation => ({
  invocationId: '',
  creationTimestamp: 0,
  userContent: said('Turn it off.', 'user'),
  finalResponse: said(answer),
});

describe('agentctx/eval', () => {
  it('scores one metric over invocations, with ADK’s result shape', async () => {
    const result = await evaluate({
      metric: { metricName: 'response_match_score', threshold: 0.8 },
      actual: [invocation('The light is off now.')],
      expected: [invocation('The light is now off.')],
    });
    expect(result.overallEvalStatus).toBe('PASSED');
    expect(result.overallScore).toBe(1);
    expect(result.perInvocationResults.map((each) => each.evalStatus)).toEqual(['PASSED']);
    expect(rouge1('The light is off now.', 'The light is now off.').fmeasure).toBe(1);
    await expect(
      evaluate({ metric: { metricName: 'final_response_match_v2', threshold: 0.5 }, actual: [], expected: [] }),
    ).rejects.toThrow(/no judge model was given/);
  });

  it('runs an eval set in a test: resolves when it passes, throws naming the failed metric', async () => {
    const evalSet = parseEvalSet(await readFile(`${FIXTURES}/simple_test.test.json`, 'utf8'), 'simple_test.test.json');
    const metrics = evalMetricsFromConfig(
      readEvalConfig(JSON.parse(await readFile(`${FIXTURES}/test_config.json`, 'utf8')), 'test_config.json'),
    );
    const runnerAnswering = (answer: string) =>
      createRunner({
        agents: agent,
        model: createScriptedModel([
          {
            functionCall: {
              name: 'set_device_info',
              args: { location: 'Bedroom', device_id: 'device_2', status: 'OFF' },
            },
          },
          { text: answer },
        ]),
      });
    const passed = await assertEvalSetPasses({
      runner: runnerAnswering('I have set the device_2 status to off.'),
      evalSet,
      metrics,
    });
    expect(passed.map((result) => result.finalEvalStatus)).toEqual(['PASSED']);
    await expect(
      assertEvalSetPasses({ runner: runnerAnswering('Done, sure thing.'), evalSet, metrics }),
    ).rejects.toThrow(
      'tests/integration/fixture/home_automation_agent/simple_test.test.json: response_match_score for home_automation_agent Failed. Expected 0.3, but got 0.0.',
    );
  });

  it('measures what each run cost, from its recorded calls: calls, tools, tokens, cache hits, USD with caching', async () => {
    const evalSet = parseEvalSet(await readFile(`${FIXTURES}/simple_test.test.json`, 'utf8'), 'simple_test.test.json');
    const sessions = createInMemorySessionStore();
    const model = withSimulatedBilling(
      createScriptedModel({
        rules: [
          {
            when: { afterToolResponse: 'set_device_info' },
            respond: { text: 'I have set the device_2 status to off.' },
          },
        ],
        fallback: {
          functionCall: {
            name: 'set_device_info',
            args: { location: 'Bedroom', device_id: 'device_2', status: 'OFF' },
          },
        },
      }),
      { provider: 'anthropic', modelId: 'claude-sonnet-4-6' },
    );
    const runner = createRunner({ agents: agent, model, sessions });
    const [first, second] = await runEvalSet({
      runner,
      evalSet,
      metrics: [{ metricName: 'response_match_score', threshold: 0.3 }],
      runs: 2,
    });
    for (const run of [first, second]) {
      const calls = await sessions.listModelCalls({
        appName: runner.appName,
        userId: 'test_user_id',
        sessionId: run?.sessionId ?? '',
      });
      const { total } = costOfCalls(calls, DEFAULT_PRICES);
      expect(run?.efficiency).toMatchObject({
        modelCalls: 2,
        toolCalls: 1,
        promptTokens: total.promptTokens,
        cachedTokens: total.tokens.cacheRead,
        outputTokens: total.tokens.output,
        usd: total.usd,
        unpricedCalls: 0,
      });
      expect(run?.efficiency.promptTokens).toBeGreaterThan(0);
      // The agents the invocation ran, from its recorded requests, as ADK's EvaluationGenerator collects them.
      const [first] = await sessions.listModelCalls({
        appName: runner.appName,
        userId: 'test_user_id',
        sessionId: run?.sessionId ?? '',
      });
      const sent = await sessions.getModelCall({
        appName: runner.appName,
        userId: 'test_user_id',
        sessionId: run?.sessionId ?? '',
        index: first?.index ?? 1,
      });
      const details = run?.evalMetricResultPerInvocation[0]?.actualInvocation.appDetails?.agentDetails;
      expect(Object.keys(details ?? {})).toEqual(['home_automation_agent']);
      expect(details?.['home_automation_agent']?.instructions).toBe(sent?.request.system);
      expect(details?.['home_automation_agent']?.toolDeclarations).toEqual([
        { function_declarations: sent?.request.tools.map((tool) => expect.objectContaining({ name: tool.name })) },
      ]);
      expect(run?.efficiency.usd).toBeGreaterThan(0);
    }
  });
});
