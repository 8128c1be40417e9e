/**
 * @module agentctx/eval
 * Evaluation as ADK 2.5.0 has it: its eval-set and config files, its metrics (`tool_trajectory_avg_score`,
 * `response_match_score` on ROUGE-1 as Google's rouge_score computes it, the LLM-judged `final_response_match_v2`,
 * `hallucinations_v1`, `rubric_based_final_response_quality_v1` and `rubric_based_tool_use_quality_v1`),
 * results in memory or written as ADK writes them. `runEvalSet` runs a set's cases through a runner and scores them;
 * `assertEvalSetPasses` is the same for a test; `evaluate` scores one metric over invocations you have;
 * `invocationsFromEvents` turns a session's events into them; each run carries what it cost (`EvalEfficiency`),
 * `aggregateRuns` takes several runs of a case together as ADK's AgentEvaluator does; `compareEvalSet` runs the
 * same cases under two variants of an agent and compares behaviour and cost, case by case. `agentctx eval` is the command line of it.
 */
export { evaluate, evaluateCase } from './analysis/eval/evaluate-case.js';
export { evalMetricsFromConfig, readEvalConfig } from './analysis/eval/eval-config.js';
export { formatEvalSet, parseEvalSet, readEvalSet } from './analysis/eval/eval-set-file.js';
export { evalSetResultOf, formatEvalSetResult } from './analysis/eval/eval-set-result-file.js';
export { invocationsFromEvents } from './analysis/eval/invocations-from-events.js';
export { rouge1 } from './analysis/eval/rouge.js';
export { assertEvalSetPasses, runEvalSet, type RunEvalSetOptions } from './presets/run-eval-set.js';
export { aggregateRuns, type AggregatedCase, type AggregatedMetric } from './analysis/eval/aggregate-runs.js';
export { compareEvalSet, type CompareEvalSetOptions, type EvalVariant } from './presets/compare-eval-set.js';
export type {
  CaseComparison,
  EvalComparison,
  RequestDifference,
  SideOutcome,
  VariantTotal,
} from './analysis/eval/compare-results.js';
export type {
  EvalCase,
  EvalCaseResult,
  EvalCaseRun,
  EvalEfficiency,
  EvalConfig,
  EvalMetric,
  EvalSet,
  EvalSetResult,
  EvalStatus,
  EvaluationResult,
  Invocation,
} from './contracts/evaluation.js';
