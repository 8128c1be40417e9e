import type { EvalCase, EvalCaseRun, EvalMetric, EvalSet } from '../contracts/evaluation.js';
import type { Event } from '../contracts/event.js';
import { DEFAULT_PRICES } from '../analysis/cost/default-prices.js';
import type { PriceTable } from '../analysis/cost/price-table.js';
import { aggregateFailureLine, aggregateRuns } from '../analysis/eval/aggregate-runs.js';
import { efficiencyOf } from '../analysis/eval/eval-efficiency.js';
import { appDetailsFromCalls } from '../analysis/eval/app-details.js';
import type { ModelCallRecord, ModelCallSummary } from '../contracts/model-call.js';
import type { SessionKey } from '../contracts/session.js';
import { checkMetrics, evaluateCase } from '../analysis/eval/evaluate-case.js';
import type { Model } from '../contracts/model.js';
import { invocationsFromEvents } from '../analysis/eval/invocations-from-events.js';
import type { Runner } from '../engine/runner/runner.js';
import { judgeTextOfContent } from '../analysis/eval/judge-text.js';

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
    readonly result: EvalCaseRun;
  }) => void;
  /** Session ids of this evaluation: a prefix that tells its sessions from others in the store. */
  readonly sessionPrefix?: string;
  /** The judge of LLM-judged metrics (`final_response_match_v2`, `hallucinations_v1`, the rubric-based ones), which are refused without one. */
  readonly judge?: Model;
  /** Told of a metric that could not be evaluated for a case (a judge call that failed…); it is then NOT_EVALUATED. */
  readonly onMetricError?: (evalId: string, metricName: string, error: unknown) => void;
  /** The prices runs are costed at (`efficiency.usd`); agentctx's table (assets/prices.json) by default. */
  readonly prices?: PriceTable;
};

/**
 * Runs an eval set through a runner, as ADK's local eval service does: each case (and each run of it) in a new session
 * started from the case's `session_input` (user and state; ADK's `test_user_id` when it has none), its user turns sent
 * one after the other, the session's events turned into invocations and scored against the case's own by every
 * metric. Every model call is recorded in the runner's store, so `agentctx inspect` opens any case's requests; each
 * result carries what its run cost (`efficiency`: model and tool calls, tokens, cache hits, USD with caching, time),
 * from those records (zero calls when the runner records none).
 */
export async function runEvalSet(options: RunEvalSetOptions): Promise<EvalCaseRun[]> {
  const runs = options.runs ?? 1;
  if (!(Number.isSafeInteger(runs) && runs >= 1))
    throw new RangeError(`runs must be a whole number from 1, got ${String(runs)}`);
  const { runner, evalSet } = options;
  // Before any case runs: a metric that cannot be evaluated would waste every run.
  checkMetrics(options.metrics, options.judge);
  const prefix = options.sessionPrefix ?? `eval-${evalSet.evalSetId}-${crypto.randomUUID().slice(0, 8)}`;
  const total = evalSet.evalCases.length * runs;
  const results: EvalCaseRun[] = [];
  for (let run = 1; run <= runs; run++)
    for (const [index, evalCase] of evalSet.evalCases.entries()) {
      // By the case's place in the set: eval ids may be paths, which make poor session ids.
      const sessionId = `${prefix}-case${index + 1}${runs > 1 ? `-run${run}` : ''}`;
      const started = Date.now();
      const { userId, events } = await runCase(runner, evalCase, sessionId);
      const wallMs = Date.now() - started;
      const calls = (await runner.calls?.listModelCalls({ appName: runner.appName, userId, sessionId })) ?? [];
      const efficiency = efficiencyOf({ calls, events, prices: options.prices ?? DEFAULT_PRICES, wallMs });
      const scored = await evaluateCase({
        evalSetId: evalSet.evalSetId,
        evalCase,
        actual: invocationsFromEvents(
          events,
          await appDetailsOf(runner, { appName: runner.appName, userId, sessionId }, calls),
        ),
        metrics: options.metrics,
        sessionId,
        userId,
        ...(options.judge === undefined ? {} : { judge: options.judge }),
        onMetricError: (metricName, error) => options.onMetricError?.(evalCase.evalId, metricName, error),
      });
      const result: EvalCaseRun = { ...scored, efficiency };
      results.push(result);
      options.onResult?.({ done: results.length, total, result });
    }
  return results;
}

// Each invocation's agents, from the first call each made in it: only those calls are read whole.
async function appDetailsOf(runner: Runner, key: SessionKey, calls: readonly ModelCallSummary[]) {
  const seen = new Set<string>();
  const records: ModelCallRecord[] = [];
  for (const call of calls) {
    const first = JSON.stringify([call.invocationId, call.agent]);
    if (call.operation === 'embeddings' || seen.has(first)) continue;
    seen.add(first);
    const record = await runner.calls?.getModelCall({ ...key, index: call.index });
    if (record !== undefined) records.push(record);
  }
  return appDetailsFromCalls(records);
}

async function runCase(
  runner: Runner,
  evalCase: EvalCase,
  sessionId: string,
): Promise<{ userId: string; events: readonly Event[] }> {
  const userId = evalCase.sessionInput?.userId || 'test_user_id';
  const state = evalCase.sessionInput?.state ?? {};
  await runner.createSession({ userId, sessionId, ...(Object.keys(state).length === 0 ? {} : { state }) });
  for (const invocation of evalCase.conversation ?? [])
    for await (const _event of runner.run({ userId, sessionId, message: invocation.userContent }));
  const session = await runner.sessions.getSession({ appName: runner.appName, userId, sessionId });
  return { userId, events: session?.events ?? [] };
}

/**
 * `runEvalSet` for a test (as ADK's `AgentEvaluator.evaluate` is for pytest): the runs of each case are taken
 * together as AgentEvaluator takes them (per metric, the mean of every run's per-invocation scores against the
 * threshold; a metric not evaluated fails too). Resolves with the results when every case passes, else throws an
 * `Error` with AgentEvaluator's line for each failed case and metric, each followed by its invocations (prompt,
 * expected and actual answer, score).
 */
export async function assertEvalSetPasses(options: RunEvalSetOptions): Promise<EvalCaseRun[]> {
  const results = await runEvalSet(options);
  const failures: string[] = [];
  for (const evalCase of aggregateRuns(results))
    for (const metric of evalCase.metrics) {
      if (metric.status === 'PASSED') continue;
      failures.push(`${evalCase.evalId}: ${aggregateFailureLine(metric, options.runner.appName)}`);
      for (const { actual, expected, result } of metric.invocations)
        failures.push(
          `    ${result.evalStatus} score ${result.score ?? 'none'}: ${oneLine(judgeTextOfContent(expected?.userContent ?? actual.userContent) ?? '')} → expected ${oneLine(judgeTextOfContent(expected?.finalResponse) ?? '')}, got ${oneLine(judgeTextOfContent(actual.finalResponse) ?? '')}`,
        );
    }
  if (failures.length > 0) throw new Error(`Following are all the test failures.\n${failures.join('\n')}`);
  return results;
}

function oneLine(text: string): string {
  const flat = JSON.stringify(text);
  return flat.length > 120 ? `${flat.slice(0, 117)}…"` : flat;
}
