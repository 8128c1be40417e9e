import type { EvalCase, EvalCaseResult, EvalMetric, EvalSet, Invocation } from '../contracts/evaluation.js';
import { checkMetrics, evaluateCase } from '../analysis/eval/evaluate-case.js';
import type { Model } from '../contracts/model.js';
import { invocationsFromEvents } from '../analysis/eval/invocations-from-events.js';
import type { Runner } from '../engine/runner/runner.js';

/** What `runEvalSet` runs, and how often. */
export type RunEvalSetOptions = {
  /** The agents under test, with their models and store: every case runs in a session of its own there. */
  readonly runner: Runner;
  readonly evalSet: EvalSet;
  /** The metrics each case is scored by (`metricsOfConfig` of a test_config.json, or ADK's defaults). */
  readonly metrics: readonly EvalMetric[];
  /** How many times each case runs (ADK's `num_runs`); each run is a result of its own. Default 1. */
  readonly runs?: number;
  /** Called as each run of a case ends, for a progress bar. */
  readonly onResult?: (progress: {
    readonly done: number;
    readonly total: number;
    readonly result: EvalCaseResult;
  }) => void;
  /** Session ids of this evaluation: a prefix that tells its sessions from others in the store. */
  readonly sessionPrefix?: string;
  /** The judge of LLM-judged metrics (`final_response_match_v2`), which are refused without one. */
  readonly judge?: Model;
  /** Told of a metric that could not be evaluated for a case (a judge call that failed…); it is then NOT_EVALUATED. */
  readonly onMetricError?: (evalId: string, metricName: string, error: unknown) => void;
};

/**
 * Runs an eval set through a runner, as ADK's local eval service does: each case (and each run of it) in a new session
 * started from the case's `session_input` (user and state; ADK's `test_user_id` when it has none), its user turns sent
 * one after the other, the session's events turned into invocations and scored against the case's own by every
 * metric. Every model call is recorded in the runner's store, so `agentctx inspect` opens any case's requests.
 */
export async function runEvalSet(options: RunEvalSetOptions): Promise<EvalCaseResult[]> {
  const runs = options.runs ?? 1;
  if (!(Number.isSafeInteger(runs) && runs >= 1))
    throw new RangeError(`runs must be a whole number from 1, got ${String(runs)}`);
  const { runner, evalSet } = options;
  // Before any case runs: a metric that cannot be evaluated would waste every run.
  checkMetrics(options.metrics, options.judge);
  const prefix = options.sessionPrefix ?? `eval-${evalSet.evalSetId}-${crypto.randomUUID().slice(0, 8)}`;
  const total = evalSet.evalCases.length * runs;
  const results: EvalCaseResult[] = [];
  for (let run = 1; run <= runs; run++)
    for (const [index, evalCase] of evalSet.evalCases.entries()) {
      // By the case's place in the set: eval ids may be paths, which make poor session ids.
      const sessionId = `${prefix}-case${index + 1}${runs > 1 ? `-run${run}` : ''}`;
      const { userId, actual } = await runCase(runner, evalCase, sessionId);
      const result = await evaluateCase({
        evalSetId: evalSet.evalSetId,
        evalCase,
        actual,
        metrics: options.metrics,
        sessionId,
        userId,
        ...(options.judge === undefined ? {} : { judge: options.judge }),
        onMetricError: (metricName, error) => options.onMetricError?.(evalCase.evalId, metricName, error),
      });
      results.push(result);
      options.onResult?.({ done: results.length, total, result });
    }
  return results;
}

async function runCase(
  runner: Runner,
  evalCase: EvalCase,
  sessionId: string,
): Promise<{ userId: string; actual: Invocation[] }> {
  const userId = evalCase.sessionInput?.userId || 'test_user_id';
  const state = evalCase.sessionInput?.state ?? {};
  await runner.createSession({ userId, sessionId, ...(Object.keys(state).length === 0 ? {} : { state }) });
  for (const invocation of evalCase.conversation ?? [])
    for await (const _event of runner.run({ userId, sessionId, message: invocation.userContent }));
  const session = await runner.sessions.getSession({ appName: runner.appName, userId, sessionId });
  return { userId, actual: invocationsFromEvents(session?.events ?? []) };
}

/**
 * `runEvalSet` for a test (as ADK's `AgentEvaluator.evaluate` is for pytest): resolves with the results when every
 * case passes, else throws an `Error` naming each failed case and metric, with its score and threshold.
 */
export async function assertEvalSetPasses(options: RunEvalSetOptions): Promise<EvalCaseResult[]> {
  const results = await runEvalSet(options);
  const failed = results.flatMap((result) =>
    result.finalEvalStatus !== 'FAILED'
      ? []
      : result.overallEvalMetricResults
          .filter((metric) => metric.evalStatus === 'FAILED')
          .map(
            (metric) =>
              `${result.evalId}: ${metric.metricName} ${metric.score ?? 'no score'} below its threshold ${metric.threshold ?? '?'}`,
          ),
  );
  if (failed.length > 0)
    throw new Error(
      `${failed.length} of the eval set's metrics failed:\n${failed.map((line) => `  ${line}`).join('\n')}`,
    );
  return results;
}
