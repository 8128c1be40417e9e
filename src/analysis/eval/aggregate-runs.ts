import type { EvalCaseResult, EvalMetricResult, EvalStatus, Invocation } from '../../contracts/evaluation.js';
import { pythonFloatRepr } from './pydantic-json.js';
import { pythonMean } from './python-mean.js';

/** One metric of one eval case over all its runs, as ADK's `AgentEvaluator` judges it. */
export type AggregatedMetric = {
  metricName: string;
  /** The threshold of the metric's first result (ADK reads it there). */
  threshold: number | undefined;
  /** The mean of every run's per-invocation scores that were evaluated; absent when none was. */
  score: number | undefined;
  /** PASSED when the mean reaches the threshold, FAILED below it, NOT_EVALUATED without a score. */
  status: EvalStatus;
  /** Every run's every invocation, in run order: what ADK prints in its table of a failed metric. */
  invocations: {
    actual: Invocation;
    expected: Invocation | undefined;
    result: EvalMetricResult;
  }[];
};

/** One eval case over all its runs. */
export type AggregatedCase = { evalId: string; runs: number; metrics: AggregatedMetric[] };

/**
 * The runs of each eval case taken together, as ADK 2.5.0's `AgentEvaluator.evaluate_eval_set` takes them with
 * `num_runs` (agent_evaluator.py L620–709, commit bb56aa56): per case (in the order cases first appear) and per metric
 * (in the order metrics first appear), the mean of the per-invocation scores of every run; the metric passes when that
 * mean reaches the metric's threshold. A metric that is not PASSED — FAILED, or NOT_EVALUATED — fails the case.
 */
export function aggregateRuns(results: readonly EvalCaseResult[]): AggregatedCase[] {
  const cases = new Map<string, { runs: number; metrics: Map<string, AggregatedMetric['invocations']> }>();
  for (const result of results) {
    let entry = cases.get(result.evalId);
    if (entry === undefined) cases.set(result.evalId, (entry = { runs: 0, metrics: new Map() }));
    entry.runs += 1;
    for (const perInvocation of result.evalMetricResultPerInvocation)
      for (const metric of perInvocation.evalMetricResults) {
        let rows = entry.metrics.get(metric.metricName);
        if (rows === undefined) entry.metrics.set(metric.metricName, (rows = []));
        rows.push({
          actual: perInvocation.actualInvocation,
          expected: perInvocation.expectedInvocation,
          result: metric,
        });
      }
  }
  return [...cases].map(([evalId, { runs, metrics }]) => ({
    evalId,
    runs,
    metrics: [...metrics].map(([metricName, invocations]) => aggregate(metricName, invocations)),
  }));
}

function aggregate(metricName: string, invocations: AggregatedMetric['invocations']): AggregatedMetric {
  const threshold = invocations[0]?.result.threshold;
  const scores = invocations.flatMap(({ result }) => (result.score === undefined ? [] : [result.score]));
  const score = scores.length === 0 ? undefined : pythonMean(scores);
  // Python's `overall_score >= threshold`; a missing threshold (which ADK's config never leaves) cannot be reached.
  const status: EvalStatus =
    score === undefined ? 'NOT_EVALUATED' : threshold !== undefined && score >= threshold ? 'PASSED' : 'FAILED';
  return { metricName, threshold, score, status, invocations };
}

/**
 * ADK's line for a metric that did not pass (agent_evaluator.py L703–706): the score as Python prints a float
 * (`None` when not evaluated).
 */
export function aggregateFailureLine(metric: AggregatedMetric, agentName: string): string {
  return `${metric.metricName} for ${agentName} Failed. Expected ${pythonFloat(metric.threshold)}, but got ${pythonFloat(metric.score)}.`;
}

function pythonFloat(value: number | undefined): string {
  return value === undefined ? 'None' : pythonFloatRepr(value);
}
