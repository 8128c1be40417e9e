import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import type { EvalMetric } from '../../contracts/evaluation.js';
import { evalSetResultOf } from '../../analysis/eval/eval-set-result-file.js';
import { RESPONSE_MATCH_SCORE } from '../../analysis/eval/response-match.js';
import { TOOL_TRAJECTORY_AVG_SCORE } from '../../analysis/eval/trajectory.js';
import { FINAL_RESPONSE_MATCH_V2 } from '../../analysis/eval/final-response-match-v2.js';
import { HALLUCINATIONS_V1 } from '../../analysis/eval/hallucinations-v1.js';
import { runEvalSet } from '../../presets/run-eval-set.js';
import type { AdkContext, AdkHandler } from './adk-context.js';
import { readRunEvalBody } from './adk-eval-input.js';
import { evalSetResultJson, runEvalResultJson } from './adk-eval-json.js';
import { evalPlace, pathEvalSet } from './adk-eval-sets.js';
import { EVAL_SESSION_ID_PREFIX } from './eval-files.js';

// ADK's run, result and metric routes (dev_server.py L1000–1140, commit bb56aa56).

/** `POST …/eval_sets/{id}/run_eval` → the run's case results, a list (ADK's older form). */
export const runEvalLegacy: AdkHandler = async (context) => ({ status: 200, body: await runEval(context) });

/** `POST …/eval-sets/{id}/run` → `{ runEvalResults }`. */
export const runEvalSetRoute: AdkHandler = async (context) => ({
  status: 200,
  body: { runEvalResults: await runEval(context) },
});

/**
 * Runs the cases named (every case when none is; ids not in the set are passed over, as ADK's eval service does) with
 * the metrics asked for, each in a new session of the app's runner, then writes the results as one `EvalSetResult`
 * (ADK's id: `<app>_<set>_<time>`). 400 for a set not there or a metric agentctx cannot compute, before anything runs.
 */
async function runEval(context: AdkContext): Promise<Record<string, unknown>[]> {
  const body = readRunEvalBody(await context.body());
  const { runner, files, appName } = evalPlace(context);
  const set = await pathEvalSet(context, 400);
  const wanted = new Set(body.evalCaseIds);
  const evalCases = wanted.size === 0 ? set.evalCases : set.evalCases.filter((item) => wanted.has(item.evalId));
  const results = await runEvalSet({
    runner,
    evalSet: { ...set, evalCases },
    metrics: body.evalMetrics.map(withJudgeCriterion),
    sessionPrefix: `${EVAL_SESSION_ID_PREFIX}${crypto.randomUUID()}`,
    ...(context.judge === undefined ? {} : { judge: context.judge }),
    onMetricError: (_evalId, _metricName, error) => context.reportError(error),
  });
  // ADK's eval service writes a result only for a run that evaluated a case.
  if (results.length > 0)
    await files.saveResult(
      appName,
      evalSetResultOf({ appName, evalSetId: set.evalSetId, evalCaseResults: results, timestamp: Date.now() / 1000 }),
    );
  return results.map(runEvalResultJson);
}

/**
 * The dev UI's metric picker sends a threshold and no criterion, which ADK's LLM judges cannot start without (they
 * raise, and the metric is NOT_EVALUATED): a judged metric given that way is judged with the judge's default options
 * at that threshold (docs/adk-compatibility.md).
 */
function withJudgeCriterion(metric: EvalMetric): EvalMetric {
  if (metric.criterion !== undefined || metric.threshold === undefined) return metric;
  if (metric.metricName !== FINAL_RESPONSE_MATCH_V2 && metric.metricName !== HALLUCINATIONS_V1) return metric;
  return { ...metric, criterion: { threshold: metric.threshold, includeIntermediateResponsesInFinal: false } };
}

/** `GET …/eval_results` → the ids of the app's results (ADK's older form, a list). */
export const listEvalResultIds: AdkHandler = async (context) => {
  const { files, appName } = evalPlace(context);
  return { status: 200, body: await files.listResults(appName) };
};

/** `GET …/eval-results` → `{ evalResultIds }`. */
export const listEvalResults: AdkHandler = async (context) => {
  const { files, appName } = evalPlace(context);
  return { status: 200, body: { evalResultIds: await files.listResults(appName) } };
};

/** `GET …/eval_results/{id}` and `…/eval-results/{id}` → the `EvalSetResult`; 404 when there is none. */
export const getEvalResult: AdkHandler = async (context) => {
  const { files, appName } = evalPlace(context);
  const id = context.params['result'] ?? '';
  const result = await files.getResult(appName, id);
  if (result === undefined)
    throw new NotFoundError({
      resource: 'eval set result',
      id,
      message: `Eval set result \`${id}\` not found.`,
      hint: 'GET …/eval_results lists the app’s results.',
    });
  return { status: 200, body: evalSetResultJson(result) };
};

/** ADK's `MetricInfo` of a metric agentctx computes without a judge model, in agentctx's words. */
const METRICS_INFO = [
  {
    metricName: TOOL_TRAJECTORY_AVG_SCORE,
    description:
      'The share of invocations whose tool calls (names and arguments) match the expected ones; 1.0 when every invocation matches.',
    metricValueInfo: { interval: { minValue: 0, openAtMin: false, maxValue: 1, openAtMax: false } },
  },
  {
    metricName: RESPONSE_MATCH_SCORE,
    description:
      'How close the final answers are to the expected ones, as the ROUGE-1 F-measure of their words; 1.0 for the same words.',
    metricValueInfo: { interval: { minValue: 0, openAtMin: false, maxValue: 1, openAtMax: false } },
  },
];

/** The LLM-judged metrics a run can compute when the server has a judge (the rubric-based ones need rubrics, which
 * the dev UI's picker cannot give, so they are not offered; a run may still ask for them). */
const JUDGED_METRICS_INFO = [
  {
    metricName: FINAL_RESPONSE_MATCH_V2,
    description:
      'The share of final answers an LLM judge finds valid against the expected ones (majority of its samples); 1.0 when every answer is.',
    metricValueInfo: { interval: { minValue: 0, openAtMin: false, maxValue: 1, openAtMax: false } },
  },
  {
    metricName: HALLUCINATIONS_V1,
    description:
      'The share of the sentences of the answers an LLM judge finds supported by what the agent had (instructions, tools, tool results); 1.0 when all are.',
    metricValueInfo: { interval: { minValue: 0, openAtMin: false, maxValue: 1, openAtMax: false } },
  },
];

/**
 * `GET …/metrics-info` → `{ metricsInfo }`: the metrics a run here can compute, for the dev UI's metric picker; the
 * LLM-judged ones only when the server has a judge model (`judge`, `serve --judge`).
 */
export const listMetricsInfo: AdkHandler = async (context) => {
  evalPlace(context);
  return {
    status: 200,
    body: { metricsInfo: context.judge === undefined ? METRICS_INFO : [...METRICS_INFO, ...JUDGED_METRICS_INFO] },
  };
};
