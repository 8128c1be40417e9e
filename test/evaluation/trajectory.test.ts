import { describe, expect, it } from 'vitest';
import { readCriterion } from '../../src/analysis/eval/eval-config.js';
import { evalStatusFromAdk, evalStatusToAdk } from '../../src/analysis/eval/eval-status.js';
import {
  callsMatch,
  evaluateToolTrajectory,
  pythonEqual,
  toMatchType,
  toolTrajectoryCriterion,
} from '../../src/analysis/eval/trajectory.js';
import type { FunctionCall } from '../../src/contracts/content.js';
import type { EvalMetric, Invocation, ToolTrajectoryCriterion } from '../../src/contracts/evaluation.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import { JsonReader } from '../../src/engine/util/json-reader.js';

// Translated test by test from Google ADK Python 2.5.0 (commit bb56aa56):
// tests/unittests/evaluation/test_trajectory_evaluator.py, against src/google/adk/evaluation/trajectory_evaluator.py.
// Each `it` names the test function it translates; the last block holds agentctx's own cases.

const USER_CONTENT = { role: 'user' as const, parts: [{ text: 'User input here.' }] };

function invocation(...toolUses: FunctionCall[]): Invocation {
  return {
    invocationId: '',
    userContent: USER_CONTENT,
    intermediateData: { toolUses, toolResponses: [], intermediateResponses: [] },
    creationTimestamp: 0,
  };
}

// _make_invocation_events: the InvocationEvents form of intermediate data, one event per call.
function invocationEvents(...calls: FunctionCall[]): Invocation {
  return {
    invocationId: '',
    userContent: USER_CONTENT,
    intermediateData: {
      invocationEvents: calls.map((functionCall) => ({
        author: 'agent',
        content: { role: 'model', parts: [{ functionCall }] },
      })),
    },
    creationTimestamp: 0,
  };
}

const call = (name: string, args: Record<string, unknown> = {}): FunctionCall => ({ name, args });

// The criterion ADK builds from `ToolTrajectoryCriterion(threshold=0.5, match_type=…)` given as a config would.
function criterionOf(matchType: unknown): ToolTrajectoryCriterion {
  const reader = new JsonReader();
  const criterion = readCriterion(reader, { threshold: 0.5, match_type: matchType }, 'criterion');
  if (criterion === undefined || typeof criterion === 'number') throw new Error('not a criterion');
  return toolTrajectoryCriterion({ metricName: 'tool_trajectory_avg_score', threshold: 0.5, criterion });
}

// The calls of the IN_ORDER and ANY_ORDER tests: no arguments, `args={}`.
const [t1, t1_1, t2, t2_1, t3, t3_1, t4] = ['t1', 't1_1', 't2', 't2_1', 't3', 't3_1', 't4'].map((name) =>
  call(name),
) as [FunctionCall, FunctionCall, FunctionCall, FunctionCall, FunctionCall, FunctionCall, FunctionCall];

const exact: ToolTrajectoryCriterion = { threshold: 0.5, matchType: 'EXACT' };
const inOrder: ToolTrajectoryCriterion = { threshold: 0.5, matchType: 'IN_ORDER' };
const anyOrder: ToolTrajectoryCriterion = { threshold: 0.5, matchType: 'ANY_ORDER' };

function expectSingle(result: ReturnType<typeof evaluateToolTrajectory>, score: number): void {
  const status = score >= 0.5 ? 'PASSED' : 'FAILED';
  expect(result.overallScore).toBe(score);
  expect(result.overallEvalStatus).toBe(status);
  expect(result.perInvocationResults[0]?.score).toBe(score);
  expect(result.perInvocationResults[0]?.evalStatus).toBe(status);
}

describe('ToolTrajectoryCriterion match types', () => {
  it('test_tool_trajectory_criterion_accepts_string_match_type', () => {
    expect(criterionOf('in_order').matchType).toBe('IN_ORDER');
  });

  it.each([
    ['exact', 'EXACT'],
    ['EXACT', 'EXACT'],
    [' exact ', 'EXACT'],
    ['in order', 'IN_ORDER'],
    ['IN ORDER', 'IN_ORDER'],
    ['In OrDeR', 'IN_ORDER'],
    ['in-order', 'IN_ORDER'],
    ['IN-ORDER', 'IN_ORDER'],
    ['in_order', 'IN_ORDER'],
    ['any order', 'ANY_ORDER'],
    ['ANY ORDER', 'ANY_ORDER'],
    ['any-order', 'ANY_ORDER'],
    ['ANY-ORDER', 'ANY_ORDER'],
    ['any_order', 'ANY_ORDER'],
  ])('test_tool_trajectory_criterion_normalizes_string_match_type[%s]', (given, expected) => {
    expect(criterionOf(given).matchType).toBe(expected);
  });

  it('test_tool_trajectory_criterion_rejects_unknown_string_match_type', () => {
    expect(() => criterionOf('random string')).toThrow(ValidationError);
    expect(() => criterionOf('random string')).toThrow(/match_type: expected one of EXACT, IN_ORDER, ANY_ORDER/);
  });

  it('test_trajectory_evaluator_accepts_string_match_type_from_eval_metric_dict', () => {
    const metric: EvalMetric = {
      metricName: 'tool_trajectory_avg_score',
      threshold: 0.5,
      criterion: { threshold: 0.5, includeIntermediateResponsesInFinal: false, extra: { match_type: 'ANY_ORDER' } },
    };
    const criterion = toolTrajectoryCriterion(metric);
    const result = evaluateToolTrajectory(
      [invocation(call('test_func1'), call('test_func2'))],
      [invocation(call('test_func2'), call('test_func1'))],
      criterion,
    );
    expect(result.overallScore).toBe(1.0);
  });
});

describe('TrajectoryEvaluator, EXACT', () => {
  it('test_evaluate_invocations_equal_tool_calls', () => {
    const same = invocation(call('test_func', { arg1: 'val1' }));
    const result = evaluateToolTrajectory([same], [same], exact);
    expect(result.perInvocationResults).toHaveLength(1);
    expectSingle(result, 1.0);
  });

  it('test_evaluate_invocations_different_tool_call_names', () => {
    const result = evaluateToolTrajectory(
      [invocation(call('test_func1', { arg1: 'val1' }))],
      [invocation(call('test_func2', { arg1: 'val1' }))],
      exact,
    );
    expectSingle(result, 0.0);
  });

  it('test_evaluate_invocations_different_tool_call_args', () => {
    const result = evaluateToolTrajectory(
      [invocation(call('test_func', { arg1: 'val1' }))],
      [invocation(call('test_func', { arg1: 'val2' }))],
      exact,
    );
    expectSingle(result, 0.0);
  });

  it('test_evaluate_invocations_different_number_of_tool_calls', () => {
    const one = call('test_func', { arg1: 'val1' });
    const result = evaluateToolTrajectory([invocation(one)], [invocation(one, one)], exact);
    expectSingle(result, 0.0);
  });

  it('test_evaluate_invocations_no_tool_calls', () => {
    const none = invocation();
    expectSingle(evaluateToolTrajectory([none], [none], exact), 1.0);
  });

  it('test_evaluate_invocations_multiple_invocations', () => {
    const t1 = call('test_func1', { arg1: 'val1' });
    const t2 = call('test_func2', { arg1: 'val1' });
    const result = evaluateToolTrajectory([invocation(t1), invocation(t1)], [invocation(t1), invocation(t2)], exact);
    expect(result.overallScore).toBe(0.5);
    expect(result.overallEvalStatus).toBe('PASSED');
    expect(result.perInvocationResults.map((entry) => [entry.score, entry.evalStatus])).toEqual([
      [1.0, 'PASSED'],
      [0.0, 'FAILED'],
    ]);
  });
});

describe('TrajectoryEvaluator, IN_ORDER', () => {
  it('test_evaluate_invocations_in_order_match_with_extra_tool_calls', () => {
    const result = evaluateToolTrajectory(
      [invocation(t1, t1_1, t2, t2_1, t3, t3_1)],
      [invocation(t1, t2, t3)],
      inOrder,
    );
    expectSingle(result, 1.0);
  });

  it('test_evaluate_invocations_in_order_match_fails_with_missing_tool_call', () => {
    const result = evaluateToolTrajectory([invocation(t1, t1_1, t2, t2_1, t3_1)], [invocation(t1, t2, t4)], inOrder);
    expectSingle(result, 0.0);
  });

  it('test_evaluate_invocations_in_order_match_fails_with_wrong_order', () => {
    const result = evaluateToolTrajectory([invocation(t1, t3, t2)], [invocation(t1, t2, t3)], inOrder);
    expectSingle(result, 0.0);
  });
});

describe('TrajectoryEvaluator, ANY_ORDER', () => {
  it('test_evaluate_invocations_any_order_match_with_extra_tool_calls_different_order', () => {
    const result = evaluateToolTrajectory(
      [invocation(t2, t2_1, t1, t1_1, t3, t3_1)],
      [invocation(t1, t2, t3)],
      anyOrder,
    );
    expectSingle(result, 1.0);
  });

  it('test_evaluate_invocations_any_order_match_fails_with_missing_tool_call', () => {
    const result = evaluateToolTrajectory([invocation(t1, t1_1, t2, t2_1, t3_1)], [invocation(t1, t2, t4)], anyOrder);
    expectSingle(result, 0.0);
  });

  it('test_evaluate_invocations_any_order_match_with_duplicates', () => {
    const result = evaluateToolTrajectory([invocation(t1, t2, t3, t1)], [invocation(t1, t2, t1)], anyOrder);
    expectSingle(result, 1.0);
  });

  it('test_evaluate_invocations_any_order_match_fails_with_duplicates_missing', () => {
    const result = evaluateToolTrajectory([invocation(t1, t2, t3)], [invocation(t1, t2, t1)], anyOrder);
    expectSingle(result, 0.0);
  });
});

describe('TrajectoryEvaluator, no invocations and InvocationEvents', () => {
  it('test_evaluate_invocations_no_invocations', () => {
    const result = evaluateToolTrajectory([], [], exact);
    expect(result.overallScore).toBeUndefined();
    expect(result.overallEvalStatus).toBe('NOT_EVALUATED');
    expect(result.perInvocationResults).toEqual([]);
  });

  it('test_evaluate_invocations_invocation_events_format_exact_match', () => {
    // Regression #5410 in ADK: the call id ('toolu_01') is not compared.
    const actual = invocationEvents({ id: 'toolu_01', name: 'execute_sql', args: { query: 'SELECT 1' } });
    const expected = invocationEvents({ name: 'execute_sql', args: { query: 'SELECT 1' } });
    const result = evaluateToolTrajectory([actual], [expected], exact);
    expect(result.overallScore).toBe(1.0);
    expect(result.overallEvalStatus).toBe('PASSED');
  });

  it('test_evaluate_invocations_invocation_events_format_mismatch', () => {
    const result = evaluateToolTrajectory(
      [invocationEvents(call('tool_a', { x: '1' }))],
      [invocationEvents(call('tool_b', { x: '1' }))],
      exact,
    );
    expect(result.overallScore).toBe(0.0);
    expect(result.overallEvalStatus).toBe('FAILED');
  });
});

describe('agentctx: what trajectory_evaluator.py does that its tests do not pin', () => {
  it('refuses lists of different lengths and missing expected invocations (evaluator.py _validate_invocation_lengths)', () => {
    expect(() => evaluateToolTrajectory([invocation()], [], exact)).toThrow(/must have the same length; got 1 and 0/);
    expect(() => evaluateToolTrajectory([invocation()], undefined, exact)).toThrow(/expected_invocations is needed/);
  });

  it('takes a metric without a criterion as its threshold with EXACT, and the int values of MatchType', () => {
    expect(toolTrajectoryCriterion({ metricName: 'tool_trajectory_avg_score', threshold: 0.7 })).toEqual({
      threshold: 0.7,
      matchType: 'EXACT',
    });
    expect([0, 1, 2, 3].map(toMatchType)).toEqual(['EXACT', 'IN_ORDER', 'ANY_ORDER', undefined]);
    expect(criterionOf(undefined).matchType).toBe('EXACT');
  });

  it('compares arguments as Python dicts: key order free, None unequal to {}, True equal to 1', () => {
    expect(pythonEqual({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1.0 })).toBe(true);
    expect(pythonEqual(undefined, {})).toBe(false);
    expect(pythonEqual({ flag: true }, { flag: 1 })).toBe(true);
    expect(pythonEqual({ n: '1' }, { n: 1 })).toBe(false);
    expect(callsMatch([{ name: 'f' }], [{ name: 'f', args: {} }], 'EXACT')).toBe(false);
  });

  it('IN_ORDER and ANY_ORDER pass an empty expectation; EXACT only an empty actual', () => {
    expect(callsMatch([call('x')], [], 'IN_ORDER')).toBe(true);
    expect(callsMatch([call('x')], [], 'ANY_ORDER')).toBe(true);
    expect(callsMatch([call('x')], [], 'EXACT')).toBe(false);
    expect(callsMatch([], [call('x')], 'IN_ORDER')).toBe(false);
  });

  it('sums the scores in order and divides once, so the overall score is the float ADK computes', () => {
    const t = call('t');
    const result = evaluateToolTrajectory(
      [invocation(t), invocation(), invocation()],
      [invocation(t), invocation(t), invocation(t)],
      { threshold: 1 / 3, matchType: 'EXACT' },
    );
    expect(result.overallScore).toBe(1 / 3);
    expect(result.overallEvalStatus).toBe('PASSED');
  });
});

describe('agentctx: EvalStatus as ADK writes it', () => {
  it('maps PASSED, FAILED, NOT_EVALUATED to the int values 1, 2, 3 of eval_metrics.py EvalStatus, and back', () => {
    expect((['PASSED', 'FAILED', 'NOT_EVALUATED'] as const).map(evalStatusToAdk)).toEqual([1, 2, 3]);
    expect([1, 2, 3, 0, '1'].map(evalStatusFromAdk)).toEqual([
      'PASSED',
      'FAILED',
      'NOT_EVALUATED',
      undefined,
      undefined,
    ]);
  });
});
