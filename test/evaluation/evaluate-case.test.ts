import { describe, expect, it } from 'vitest';
import {
  VERTEX_AI_METRICS,
  addRubrics,
  checkMetrics,
  evaluateCase,
  finalEvalStatus,
  withRubrics,
} from '../../src/analysis/eval/evaluate-case.js';
import type { Content } from '../../src/contracts/content.js';
import type { EvalCase, EvalMetric, EvalStatus, Invocation, Rubric } from '../../src/contracts/evaluation.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';

// Translated test by test from Google ADK Python 2.5.0 (commit bb56aa56):
// tests/unittests/evaluation/test_local_eval_service.py, the parts of evaluation that need no model, against
// src/google/adk/evaluation/local_eval_service.py (`_evaluate_single_inference_result` L241–369,
// `_evaluate_metric_for_eval_case` L371–447, `_generate_final_eval_status` L480–499, rubrics L71–108).
// ADK's tests register fake evaluators; agentctx's evaluators are fixed, so `response_match_score` stands in for
// `fake_metric` (it needs the expected invocations, as the fake does). Not translated: the inference tests (they run
// an agent), `test_evaluate_success` and `test_evaluate_eval_case_not_found` (the service's eval-set lookup and
// results saving, outside `evaluateCase`), and `test_mcp_stdio_agent_no_runtime_error`.
// Each `it` names the test function it translates; the last block holds agentctx's own cases.

const text = (value: string, role: Content['role'] = 'model'): Content => ({ role, parts: [{ text: value }] });

const invocation = (): Invocation => ({
  invocationId: '',
  userContent: text('test user content.', 'user'),
  finalResponse: text('test final response.'),
  creationTimestamp: 0,
});

const rubric = (id: string, property: string): Rubric => ({ rubricId: id, rubricContent: { textProperty: property } });

const RESPONSE_MATCH: EvalMetric = { metricName: 'response_match_score', threshold: 0.5 };

function caseOf(fields: Partial<EvalCase>): EvalCase {
  return { evalId: 'case1', creationTimestamp: 0, ...fields };
}

const base = { evalSetId: 'test_eval_set', sessionId: 'session1', userId: 'test_user_id' };

describe('LocalEvalService evaluation', () => {
  it('test_evaluate_single_inference_result', async () => {
    const actual = [invocation(), invocation(), invocation()];
    const evalCase = caseOf({ conversation: [invocation(), invocation(), invocation()] });
    const result = await evaluateCase({ ...base, evalCase, actual, metrics: [RESPONSE_MATCH] });
    expect(result.evalId).toBe('case1');
    expect(result.sessionId).toBe('session1');
    expect(result.overallEvalMetricResults).toHaveLength(1);
    expect(result.overallEvalMetricResults[0]?.metricName).toBe('response_match_score');
    expect(result.overallEvalMetricResults[0]?.score).toBe(1);
    expect(result.evalMetricResultPerInvocation).toHaveLength(3);
    result.evalMetricResultPerInvocation.forEach((entry, index) => {
      expect(entry.actualInvocation).toEqual(actual[index]);
      expect(entry.expectedInvocation).toEqual(evalCase.conversation?.[index]);
      expect(entry.evalMetricResults).toHaveLength(1);
      expect(entry.evalMetricResults[0]).toMatchObject({
        metricName: 'response_match_score',
        score: 1,
        evalStatus: 'PASSED',
      });
    });
  });

  it('test_evaluate_single_inference_result_failed_without_inferences', async () => {
    const result = await evaluateCase({
      ...base,
      evalCase: caseOf({ conversation: [] }),
      actual: undefined,
      metrics: [RESPONSE_MATCH],
    });
    expect(result.evalId).toBe('case1');
    expect(result.sessionId).toBe('session1');
    expect(result.finalEvalStatus).toBe('FAILED');
    expect(result.overallEvalMetricResults).toEqual([]);
    expect(result.evalMetricResultPerInvocation).toEqual([]);
  });

  it('test_evaluate_single_inference_result_for_conversation_scenario_with_unsupported_metric', async () => {
    // Also the shape `test_evaluate_single_inference_result_for_conversation_scenario` checks (no expected
    // invocation on any entry); its single-sided fake metric has no agentctx counterpart yet.
    const errors: string[] = [];
    const result = await evaluateCase({
      ...base,
      evalCase: caseOf({ conversationScenario: { startingPrompt: 'hi', conversationPlan: 'ask' } }),
      actual: [invocation(), invocation(), invocation()],
      metrics: [RESPONSE_MATCH],
      onMetricError: (name, error) => errors.push(`${name}: ${(error as Error).message}`),
    });
    expect(result.evalId).toBe('case1');
    expect(result.finalEvalStatus).toBe('NOT_EVALUATED');
    expect(result.overallEvalMetricResults).toHaveLength(1);
    expect(result.overallEvalMetricResults[0]?.metricName).toBe('response_match_score');
    expect(result.overallEvalMetricResults[0]?.score).toBeUndefined();
    expect(result.evalMetricResultPerInvocation).toHaveLength(3);
    for (const entry of result.evalMetricResultPerInvocation) {
      expect(entry.expectedInvocation).toBeUndefined();
      expect(entry.evalMetricResults).toEqual([
        { metricName: 'response_match_score', threshold: 0.5, evalStatus: 'NOT_EVALUATED', details: {} },
      ]);
    }
    expect(errors).toEqual([
      'response_match_score: Invalid invocations: expected: expected_invocations is required for this metric.',
    ]);
  });

  it('test_generate_final_eval_status_doesn_t_throw_on', () => {
    for (const status of ['PASSED', 'FAILED', 'NOT_EVALUATED'] as EvalStatus[])
      expect(() => finalEvalStatus([status])).not.toThrow();
  });

  it('test_add_rubrics_to_invocation_initializes_rubrics_list', () => {
    const target: Invocation = { invocationId: '', userContent: { role: 'user', parts: [] }, creationTimestamp: 0 };
    addRubrics(target, [rubric('r1', 'p1')]);
    expect(target.rubrics).toEqual([rubric('r1', 'p1')]);
  });

  it('test_add_rubrics_to_invocation_adds_to_existing_list', () => {
    const target: Invocation = {
      invocationId: '',
      userContent: { role: 'user', parts: [] },
      creationTimestamp: 0,
      rubrics: [rubric('r1', 'p1')],
    };
    addRubrics(target, [rubric('r2', 'p2')]);
    expect(target.rubrics).toEqual([rubric('r1', 'p1'), rubric('r2', 'p2')]);
  });

  it('test_add_rubrics_to_invocation_errors_on_duplicate_id', () => {
    const target: Invocation = {
      invocationId: '',
      userContent: { role: 'user', parts: [] },
      creationTimestamp: 0,
      rubrics: [rubric('r1', 'p1')],
    };
    expect(() => addRubrics(target, [rubric('r1', 'p2')])).toThrow(ValidationError);
    expect(() => addRubrics(target, [rubric('r1', 'p2')])).toThrow("Rubric with rubric_id 'r1' already exists.");
  });

  it('test_copy_eval_case_rubrics_to_actual_invocations', () => {
    const at = (value: string): Invocation => ({
      invocationId: '',
      userContent: text(value, 'user'),
      creationTimestamp: 0,
    });
    const evalCase = caseOf({
      conversation: [at('expected invocation 1.'), at('expected invocation 2.')],
      rubrics: [rubric('r1', 'p1')],
    });
    const copies = withRubrics(evalCase, [at('actual invocation 1.'), at('actual invocation 2.')]);
    expect(copies[0]?.rubrics).toEqual([rubric('r1', 'p1')]);
    expect(copies[1]?.rubrics).toEqual([rubric('r1', 'p1')]);
  });

  it('test_copy_invocation_rubrics_to_actual_invocations', () => {
    const at = (value: string, rubrics?: Rubric[]): Invocation => ({
      invocationId: '',
      userContent: text(value, 'user'),
      creationTimestamp: 0,
      ...(rubrics === undefined ? {} : { rubrics }),
    });
    const evalCase = caseOf({
      conversation: [
        at('expected invocation 1.', [rubric('r1', 'p1')]),
        at('expected invocation 2.', [rubric('r2', 'p2')]),
      ],
    });
    const copies = withRubrics(evalCase, [at('actual invocation 1.'), at('actual invocation 2.')]);
    expect(copies[0]?.rubrics).toEqual([rubric('r1', 'p1')]);
    expect(copies[1]?.rubrics).toEqual([rubric('r2', 'p2')]);
  });
});

describe('agentctx: the rest of evaluating a case', () => {
  const call = (name: string): Invocation => ({
    ...invocation(),
    intermediateData: { toolUses: [{ name, args: {} }], toolResponses: [], intermediateResponses: [] },
  });
  const trajectory: EvalMetric = {
    metricName: 'tool_trajectory_avg_score',
    threshold: 1,
    criterion: { threshold: 1, includeIntermediateResponsesInFinal: false, extra: { match_type: 'IN_ORDER' } },
  };

  it('refuses a metric it has no evaluator for, naming it and the supported ones, before evaluating any', async () => {
    const run = () =>
      evaluateCase({
        ...base,
        evalCase: caseOf({ conversation: [invocation()] }),
        actual: [invocation()],
        metrics: [RESPONSE_MATCH, { metricName: 'per_turn_user_simulator_quality_v1', threshold: 0.5 }],
      });
    await expect(run()).rejects.toThrow(ValidationError);
    await expect(run()).rejects.toThrow(
      "metrics[1]: no evaluator for metric 'per_turn_user_simulator_quality_v1'; supported: tool_trajectory_avg_score, response_match_score, final_response_match_v2, hallucinations_v1, rubric_based_final_response_quality_v1, rubric_based_tool_use_quality_v1",
    );
  });

  it('refuses Vertex AI’s metrics (safety_v1 …) by name, saying why and what to use instead, judge or not', async () => {
    for (const judge of [undefined, createScriptedModel([])]) {
      const run = () =>
        evaluateCase({
          ...base,
          evalCase: caseOf({ conversation: [invocation()] }),
          actual: [invocation()],
          metrics: [RESPONSE_MATCH, { metricName: 'safety_v1', threshold: 0.8 }],
          ...(judge === undefined ? {} : { judge }),
        });
      await expect(run()).rejects.toThrow(ValidationError);
      await expect(run()).rejects.toMatchObject({
        message:
          "Invalid eval metrics: metrics[1]: 'safety_v1' is scored by Google's Vertex AI evaluation service (a GCP project's Gen AI evaluation API), which agentctx does not call; use rubric_based_final_response_quality_v1 with safety rubrics instead",
        hint: expect.stringContaining('Vertex AI metrics need Google Cloud'),
      });
    }
    for (const metricName of Object.keys(VERTEX_AI_METRICS))
      expect(() => checkMetrics([{ metricName, threshold: 0.5 }], undefined)).toThrow('Vertex AI evaluation service');
    expect(Object.keys(VERTEX_AI_METRICS)).toEqual([
      'safety_v1',
      'response_evaluation_score',
      'multi_turn_task_success_v1',
      'multi_turn_trajectory_quality_v1',
      'multi_turn_tool_use_quality_v1',
    ]);
  });

  it('refuses as many inferences as conversations when they differ (ADK’s ValueError, L305–312)', async () => {
    await expect(
      evaluateCase({ ...base, evalCase: caseOf({ conversation: [invocation()] }), actual: [], metrics: [] }),
    ).rejects.toThrow(
      'Inferences should match conversations in eval case. Found 0 inferences 1 conversations in eval cases.',
    );
  });

  it('each metric per invocation and overall, its fields copied; the first FAILED decides the case', async () => {
    const result = await evaluateCase({
      ...base,
      evalCase: caseOf({ conversation: [call('a'), call('b')] }),
      actual: [call('a'), call('c')],
      metrics: [RESPONSE_MATCH, trajectory],
    });
    expect(result.finalEvalStatus).toBe('FAILED');
    expect(result.userId).toBe('test_user_id');
    expect(
      result.overallEvalMetricResults.map((metric) => [metric.metricName, metric.score, metric.evalStatus]),
    ).toEqual([
      ['response_match_score', 1, 'PASSED'],
      ['tool_trajectory_avg_score', 0.5, 'FAILED'],
    ]);
    expect(result.overallEvalMetricResults[1]?.criterion).toEqual(trajectory.criterion);
    expect(result.evalMetricResultPerInvocation[1]?.evalMetricResults.map((metric) => metric.evalStatus)).toEqual([
      'PASSED',
      'FAILED',
    ]);
  });

  it('a metric that cannot read its criterion is NOT_EVALUATED and the others go on (ADK catches, L388–405)', async () => {
    const broken: EvalMetric = {
      metricName: 'tool_trajectory_avg_score',
      criterion: { threshold: 1, includeIntermediateResponsesInFinal: false, extra: { match_type: 'SOMETIMES' } },
    };
    const failed: string[] = [];
    const result = await evaluateCase({
      ...base,
      evalCase: caseOf({ conversation: [invocation()] }),
      actual: [invocation()],
      metrics: [broken, RESPONSE_MATCH],
      onMetricError: (name) => failed.push(name),
    });
    expect(failed).toEqual(['tool_trajectory_avg_score']);
    expect(result.overallEvalMetricResults.map((metric) => metric.evalStatus)).toEqual(['NOT_EVALUATED', 'PASSED']);
    expect(result.finalEvalStatus).toBe('PASSED');
  });

  it('the final status: NOT_EVALUATED skipped, PASSED if any passed, NOT_EVALUATED for none', () => {
    expect(finalEvalStatus([])).toBe('NOT_EVALUATED');
    expect(finalEvalStatus(['NOT_EVALUATED', 'PASSED', 'NOT_EVALUATED'])).toBe('PASSED');
    expect(finalEvalStatus(['PASSED', 'FAILED', 'PASSED'])).toBe('FAILED');
  });

  it('rubrics are copied, not written into the caller’s invocations', async () => {
    const actual = [invocation()];
    const result = await evaluateCase({
      ...base,
      evalCase: caseOf({ conversation: [invocation()], rubrics: [rubric('r1', 'p1')] }),
      actual,
      metrics: [RESPONSE_MATCH],
    });
    expect(actual[0]?.rubrics).toBeUndefined();
    expect(result.evalMetricResultPerInvocation[0]?.actualInvocation.rubrics).toEqual([rubric('r1', 'p1')]);
  });
});
