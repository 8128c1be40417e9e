import type {
  EvalCase,
  EvalCaseResult,
  EvalMetric,
  EvalMetricResult,
  EvalMetricResultPerInvocation,
  EvalStatus,
  EvaluationResult,
  Invocation,
  PerInvocationResult,
  Rubric,
  RubricScore,
} from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Model } from '../../contracts/model.js';
import { FINAL_RESPONSE_MATCH_V2, evaluateFinalResponseMatchV2 } from './final-response-match-v2.js';
import { HALLUCINATIONS_V1, evaluateHallucinationsV1 } from './hallucinations-v1.js';
import { RESPONSE_MATCH_SCORE, evaluateResponseMatch } from './response-match.js';
import {
  RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1,
  evaluateRubricBasedFinalResponseQualityV1,
} from './rubric-based-final-response-quality-v1.js';
import {
  RUBRIC_BASED_TOOL_USE_QUALITY_V1,
  evaluateRubricBasedToolUseQualityV1,
} from './rubric-based-tool-use-quality-v1.js';
import { TOOL_TRAJECTORY_AVG_SCORE, evaluateToolTrajectory, toolTrajectoryCriterion } from './trajectory.js';

// One eval case's inference result, evaluated as ADK 2.5.0's `LocalEvalService._evaluate_single_inference_result`
// does it (src/google/adk/evaluation/local_eval_service.py L241–369, with `_evaluate_metric_for_eval_case` L371–447,
// `_generate_final_eval_status` L480–499 and the rubric copying L71–108), commit bb56aa56.
// One difference on purpose: a metric agentctx has no evaluator for is refused before anything is evaluated, where
// ADK's registry lookup fails inside the metric's `try` and the metric silently becomes NOT_EVALUATED.

/** The metrics an LLM judges: they need `judge`. */
export const JUDGED_METRICS: readonly string[] = [
  FINAL_RESPONSE_MATCH_V2,
  HALLUCINATIONS_V1,
  RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1,
  RUBRIC_BASED_TOOL_USE_QUALITY_V1,
];

/** The metrics `evaluateCase` computes; the judged ones with a judge model only. */
export const SUPPORTED_METRICS: readonly string[] = [
  TOOL_TRAJECTORY_AVG_SCORE,
  RESPONSE_MATCH_SCORE,
  ...JUDGED_METRICS,
];

/**
 * ADK's metrics that its evaluators hand to Google's Vertex AI evaluation service (vertex_ai_eval_facade.py, used by
 * safety_evaluator.py, response_evaluator.py for `response_evaluation_score`, and the three multi_turn_*_evaluator.py):
 * the service scores them with its own models and rubrics, so they cannot be computed offline or by another judge.
 * By name, what to use instead.
 */
export const VERTEX_AI_METRICS: Readonly<Record<string, string>> = {
  safety_v1: `${RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1} with safety rubrics`,
  response_evaluation_score: `${RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1} (coherence rubrics) or ${FINAL_RESPONSE_MATCH_V2}`,
  multi_turn_task_success_v1: `${RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1} on each invocation`,
  multi_turn_trajectory_quality_v1: `${TOOL_TRAJECTORY_AVG_SCORE} or ${RUBRIC_BASED_TOOL_USE_QUALITY_V1}`,
  multi_turn_tool_use_quality_v1: RUBRIC_BASED_TOOL_USE_QUALITY_V1,
};

export type EvaluateCaseInput = {
  evalSetId: string;
  evalCase: EvalCase;
  /** What the agent did, one invocation per user turn; `undefined` when inference failed (ADK's `inferences=None`). */
  actual: readonly Invocation[] | undefined;
  metrics: readonly EvalMetric[];
  sessionId: string;
  userId: string;
  /**
   * Told of a metric that failed to evaluate (a missing expected conversation, a criterion the metric cannot read):
   * as in ADK, that metric is NOT_EVALUATED and the others go on; ADK logs the error.
   */
  onMetricError?: (metricName: string, error: unknown) => void;
  /**
   * The judge of LLM-judged metrics, used whatever model their criterion's `judge_model_options` name (that name is
   * kept in the results, as written).
   */
  judge?: Model;
  /** Aborts the judge's calls. */
  signal?: AbortSignal;
};

/**
 * The case's result: per metric, its overall result and one per invocation; the case PASSED when no metric FAILED
 * and at least one PASSED, NOT_EVALUATED when none was evaluated. Expected invocations are the case's
 * `conversation`. Throws a `ValidationError` for a metric it has no evaluator for, for as many actual invocations
 * as there are expected ones when they differ (and the case has no conversation scenario), and for a rubric of the
 * case or of an expected invocation whose id the actual invocation already has; and for an LLM-judged metric without a
 * judge.
 */
export async function evaluateCase(input: EvaluateCaseInput): Promise<EvalCaseResult> {
  const { evalSetId, evalCase, metrics, sessionId, userId } = input;
  checkMetrics(metrics, input.judge);
  // ADK fills the deprecated `eval_set_file` with the eval set id (L293, L354).
  const base = { evalSetFile: evalSetId, evalSetId, evalId: evalCase.evalId, sessionId, userId };
  // L282–304: no inferences, a failed case with no metric results.
  if (input.actual === undefined)
    return { ...base, finalEvalStatus: 'FAILED', overallEvalMetricResults: [], evalMetricResultPerInvocation: [] };
  const expected = evalCase.conversation;
  if (evalCase.conversationScenario === undefined && input.actual.length !== (expected ?? []).length)
    throw new ValidationError({
      subject: `eval case ${evalCase.evalId}`,
      issues: [
        {
          path: 'conversation',
          message: `Inferences should match conversations in eval case. Found ${input.actual.length} inferences ${(expected ?? []).length} conversations in eval cases.`,
        },
      ],
    });
  const actual = withRubrics(evalCase, input.actual);
  const perInvocation: EvalMetricResultPerInvocation[] = actual.map((actualInvocation, index) => {
    const expectedInvocation = expected !== undefined && expected.length > 0 ? expected[index] : undefined;
    return {
      actualInvocation,
      ...(expectedInvocation === undefined ? {} : { expectedInvocation }),
      evalMetricResults: [],
    };
  });
  const overall: EvalMetricResult[] = [];
  for (const metric of metrics) {
    let result: EvaluationResult;
    try {
      result = await evaluateMetric(metric, actual, expected, input);
    } catch (error) {
      // L388–405: a failing metric must not stop the others.
      input.onMetricError?.(metric.metricName, error);
      result = { overallEvalStatus: 'NOT_EVALUATED', perInvocationResults: [] };
    }
    overall.push(metricResult(metric, result.overallScore, result.overallEvalStatus, result.overallRubricScores));
    const evaluated = result.overallEvalStatus !== 'NOT_EVALUATED';
    if (evaluated && result.perInvocationResults.length !== perInvocation.length)
      throw new ValidationError({
        subject: `metric ${metric.metricName}`,
        issues: [
          {
            path: '',
            message: `Eval metric should return results for each invocation. Found ${result.perInvocationResults.length} results for ${perInvocation.length} invocations.`,
          },
        ],
      });
    perInvocation.forEach((entry, index) => {
      // Not evaluated: every invocation NOT_EVALUATED without a score (`PerInvocationResult`'s defaults).
      const one: Pick<PerInvocationResult, 'score' | 'evalStatus' | 'rubricScores'> = evaluated
        ? (result.perInvocationResults[index] as PerInvocationResult)
        : { evalStatus: 'NOT_EVALUATED' };
      entry.evalMetricResults.push(metricResult(metric, one.score, one.evalStatus, one.rubricScores));
    });
  }
  return {
    ...base,
    finalEvalStatus: finalEvalStatus(overall.map((result) => result.evalStatus)),
    overallEvalMetricResults: overall,
    evalMetricResultPerInvocation: perInvocation,
  };
}

/**
 * A case's status from its metrics' (`_generate_final_eval_status`): NOT_EVALUATED ones are skipped, the first
 * FAILED decides, else PASSED if any passed, else NOT_EVALUATED.
 */
export function finalEvalStatus(statuses: readonly EvalStatus[]): EvalStatus {
  let status: EvalStatus = 'NOT_EVALUATED';
  for (const one of statuses) {
    if (one === 'FAILED') return 'FAILED';
    if (one === 'PASSED') status = 'PASSED';
  }
  return status;
}

/**
 * The actual invocations with the case's rubrics, then each expected invocation's own rubrics on the actual one
 * paired with it (`_copy_eval_case_rubrics_to_actual_invocations`, `_copy_invocation_rubrics_to_actual_invocations`):
 * what LLM judges read. ADK changes the inference result in place; here they are copies.
 */
export function withRubrics(evalCase: EvalCase, actual: readonly Invocation[]): Invocation[] {
  const copies = actual.map((invocation) => ({ ...invocation }));
  if (evalCase.rubrics !== undefined && evalCase.rubrics.length > 0)
    for (const invocation of copies) addRubrics(invocation, evalCase.rubrics);
  const expected = evalCase.conversation ?? [];
  copies.forEach((invocation, index) => {
    const rubrics = expected[index]?.rubrics;
    if (rubrics !== undefined && rubrics.length > 0) addRubrics(invocation, rubrics);
  });
  return copies;
}

/** `_add_rubrics_to_invocation`: appends, refusing an id the invocation already has. */
export function addRubrics(invocation: Invocation, rubrics: readonly Rubric[]): void {
  const list = [...(invocation.rubrics ?? [])];
  const ids = new Set(list.map((rubric) => rubric.rubricId));
  for (const rubric of rubrics) {
    if (ids.has(rubric.rubricId))
      throw new ValidationError({
        subject: 'rubrics',
        issues: [{ path: rubric.rubricId, message: `Rubric with rubric_id '${rubric.rubricId}' already exists.` }],
      });
    list.push(rubric);
    ids.add(rubric.rubricId);
  }
  invocation.rubrics = list;
}

/**
 * One metric over a conversation (ADK's `Evaluator.evaluate_invocations` of the metric's evaluator): the actual
 * invocations against the expected ones, per invocation and overall. The metric names its criterion and threshold;
 * an LLM-judged one needs `judge`.
 */
export async function evaluate(input: {
  readonly metric: EvalMetric;
  readonly actual: readonly Invocation[];
  readonly expected?: readonly Invocation[] | undefined;
  readonly judge?: Model | undefined;
  readonly signal?: AbortSignal | undefined;
}): Promise<EvaluationResult> {
  checkMetrics([input.metric], input.judge);
  return evaluateMetric(input.metric, input.actual, input.expected, {
    ...(input.judge === undefined ? {} : { judge: input.judge }),
    ...(input.signal === undefined ? {} : { signal: input.signal }),
  });
}

// The metric's evaluator, as ADK's registry picks it (metric_evaluator_registry.py); each reads its own criterion.
async function evaluateMetric(
  metric: EvalMetric,
  actual: readonly Invocation[],
  expected: readonly Invocation[] | undefined,
  { judge, signal }: Pick<EvaluateCaseInput, 'judge' | 'signal'>,
): Promise<EvaluationResult> {
  // `checkMetrics` made sure a judged metric has its judge.
  if (metric.metricName === FINAL_RESPONSE_MATCH_V2)
    return evaluateFinalResponseMatchV2(metric, judge as Model, actual, expected, signal);
  if (metric.metricName === HALLUCINATIONS_V1)
    return evaluateHallucinationsV1(metric, judge as Model, actual, expected, signal);
  if (metric.metricName === RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1)
    return evaluateRubricBasedFinalResponseQualityV1(metric, judge as Model, actual, expected, signal);
  if (metric.metricName === RUBRIC_BASED_TOOL_USE_QUALITY_V1)
    return evaluateRubricBasedToolUseQualityV1(metric, judge as Model, actual, expected, signal);
  if (metric.metricName === TOOL_TRAJECTORY_AVG_SCORE)
    return evaluateToolTrajectory(actual, expected, toolTrajectoryCriterion(metric));
  // `RougeEvaluator` judges against the metric's `threshold` (final_response_match_v1.py L69, L80); without one,
  // Python's `score >= None` fails, so the metric is not evaluated.
  if (metric.threshold === undefined)
    throw new ValidationError({
      subject: `metric ${metric.metricName}`,
      issues: [{ path: 'threshold', message: 'is required by this metric' }],
    });
  return evaluateResponseMatch(actual, expected, metric.threshold);
}

// `EvalMetricResult(score=…, eval_status=…, details=…, **eval_metric.model_dump())`.
function metricResult(
  metric: EvalMetric,
  score: number | undefined,
  evalStatus: EvalStatus,
  rubricScores: RubricScore[] | undefined,
): EvalMetricResult {
  return {
    ...metric,
    ...(score === undefined ? {} : { score }),
    evalStatus,
    details: rubricScores === undefined ? {} : { rubricScores },
  };
}

/**
 * Refuses, before anything is evaluated, a metric of Vertex AI's evaluation service (saying so, and what to use
 * instead), a metric `evaluateCase` has no evaluator for, and an LLM-judged one without a judge (where ADK would call
 * the model its criterion names, agentctx calls only the judge it is given).
 */
export function checkMetrics(metrics: readonly EvalMetric[], judge: Model | undefined): void {
  checkOffline(metrics);
  checkSupported(metrics);
  const judged = metrics.filter((metric) => JUDGED_METRICS.includes(metric.metricName));
  if (judge === undefined && judged.length > 0)
    throw new ValidationError({
      subject: 'eval metrics',
      issues: judged.map((metric) => ({
        path: metric.metricName,
        message: 'is judged by an LLM, and no judge model was given',
      })),
      hint: 'Pass one: agentctx eval --judge <model> (runEvalSet and evaluateCase take `judge`).',
    });
}

function checkOffline(metrics: readonly EvalMetric[]): void {
  const issues = metrics.flatMap((metric, index) => {
    const instead = Object.hasOwn(VERTEX_AI_METRICS, metric.metricName)
      ? VERTEX_AI_METRICS[metric.metricName]
      : undefined;
    return instead === undefined
      ? []
      : [
          {
            path: `metrics[${index}]`,
            message: `'${metric.metricName}' is scored by Google's Vertex AI evaluation service (a GCP project's Gen AI evaluation API), which agentctx does not call; use ${instead} instead`,
          },
        ];
  });
  if (issues.length > 0)
    throw new ValidationError({
      subject: 'eval metrics',
      issues,
      hint: 'Vertex AI metrics need Google Cloud; agentctx evaluates offline or with the judge model it is given (--judge).',
    });
}

function checkSupported(metrics: readonly EvalMetric[]): void {
  const issues = metrics.flatMap((metric, index) =>
    SUPPORTED_METRICS.includes(metric.metricName)
      ? []
      : [
          {
            path: `metrics[${index}]`,
            message: `no evaluator for metric '${metric.metricName}'; supported: ${SUPPORTED_METRICS.join(', ')}`,
          },
        ],
  );
  if (issues.length > 0)
    throw new ValidationError({
      subject: 'eval metrics',
      issues,
      hint: 'Other LLM-judged metrics (rubric_based_multi_turn_trajectory_quality_v1, per_turn_user_simulator_quality_v1) and custom metrics are not evaluated yet',
    });
}
