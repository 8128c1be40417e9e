import type {
  BaseCriterion,
  EvalCaseResult,
  EvalMetric,
  EvalMetricResult,
  EvalMetricResultPerInvocation,
  EvalSetResult,
  Invocation,
  Rubric,
  RubricScore,
} from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { evalStatusToAdk } from './eval-status.js';
import { genaiContentJson, genaiFunctionCallJson, genaiFunctionResponseJson, genaiPartJson } from './genai-dump.js';
import { type PyJson, pyFloat, pydanticJson, pythonFloatRepr } from './pydantic-json.js';

// An eval set's results as ADK 2.5.0 names and writes them (commit bb56aa56):
// `create_eval_set_result` (src/google/adk/evaluation/_eval_set_results_manager_utils.py L31–47) makes the id
// `<app>_<eval set id>_<time.time()>` and the name that id with `/` as `_`; `LocalEvalSetResultsManager
// .save_eval_set_result` (local_eval_set_results_manager.py L43–66) writes `<agents dir>/<app>/.adk/eval_history/
// <name>.evalset_result.json` with `model_dump_json(indent=2)`: snake_case keys in field order, every field written,
// unset ones as `null`, statuses as their numbers (PASSED 1, FAILED 2, NOT_EVALUATED 3). The JSON is an object;
// older ADKs wrote it again as a JSON string (double-encoded), which ADK 2.5.0 still reads
// (`parse_eval_set_result_json`, _eval_set_results_manager_utils.py L50–69) but no longer writes.

/** The folder of result files under an app's folder (`_ADK_EVAL_HISTORY_DIR`). */
export const EVAL_HISTORY_DIR = '.adk/eval_history';
/** How a result file's name ends (`_EVAL_SET_RESULT_FILE_EXTENSION`). */
export const EVAL_SET_RESULT_FILE_EXTENSION = '.evalset_result.json';

/**
 * An eval set's result, made as `create_eval_set_result` makes it at `timestamp` (seconds since the epoch, ADK's
 * `time.time()`). The app name and eval set id are checked first as `validate_path_segment` checks them
 * (_path_validation.py): not empty, no NUL, no `/` or `\`, not `.` or `..`.
 */
export function evalSetResultOf(input: {
  appName: string;
  evalSetId: string;
  evalCaseResults: readonly EvalCaseResult[];
  timestamp: number;
}): EvalSetResult {
  checkPathSegment(input.appName, 'app_name');
  checkPathSegment(input.evalSetId, 'eval_set_id');
  const evalSetResultId = `${input.appName}_${input.evalSetId}_${pythonFloatRepr(input.timestamp)}`;
  return {
    evalSetResultId,
    evalSetResultName: evalSetResultId.replaceAll('/', '_'),
    evalSetId: input.evalSetId,
    evalCaseResults: [...input.evalCaseResults],
    creationTimestamp: input.timestamp,
  };
}

/** The result file's name: its result name (its id when it has none) and `.evalset_result.json`. */
export function evalSetResultFileName(result: EvalSetResult): string {
  return (result.evalSetResultName ?? result.evalSetResultId) + EVAL_SET_RESULT_FILE_EXTENSION;
}

/** Where ADK writes the file, relative to the agents folder: `<app>/.adk/eval_history/<file name>`. */
export function evalSetResultPath(appName: string, result: EvalSetResult): string {
  checkPathSegment(appName, 'app_name');
  return `${appName}/${EVAL_HISTORY_DIR}/${evalSetResultFileName(result)}`;
}

/** The file's text, as `eval_set_result.model_dump_json(indent=2)`. */
export function formatEvalSetResult(result: EvalSetResult): string {
  return pydanticJson({
    eval_set_result_id: result.evalSetResultId,
    eval_set_result_name: result.evalSetResultName ?? null,
    eval_set_id: result.evalSetId,
    eval_case_results: result.evalCaseResults.map(caseJson),
    creation_timestamp: pyFloat(result.creationTimestamp),
  });
}

// `EvalCaseResult`, its deprecated fields included (pydantic writes them): ADK's evaluation puts the eval set id in
// `eval_set_file` (local_eval_service.py L293, L354) and leaves `eval_metric_results` unset; a tuple is a JSON list.
function caseJson(result: EvalCaseResult): PyJson {
  return {
    eval_set_file: result.evalSetFile ?? null,
    eval_set_id: result.evalSetId,
    eval_id: result.evalId,
    final_eval_status: evalStatusToAdk(result.finalEvalStatus),
    eval_metric_results:
      result.evalMetricResults?.map(([metric, metricResult]) => [metricJson(metric), metricResultJson(metricResult)]) ??
      null,
    overall_eval_metric_results: result.overallEvalMetricResults.map(metricResultJson),
    eval_metric_result_per_invocation: result.evalMetricResultPerInvocation.map(perInvocationJson),
    session_id: result.sessionId,
    session_details: (result.sessionDetails ?? null) as PyJson,
    user_id: result.userId ?? null,
  };
}

function perInvocationJson(entry: EvalMetricResultPerInvocation): PyJson {
  return {
    actual_invocation: invocationJson(entry.actualInvocation),
    expected_invocation: entry.expectedInvocation === undefined ? null : invocationJson(entry.expectedInvocation),
    eval_metric_results: entry.evalMetricResults.map(metricResultJson),
  };
}

function metricJson(metric: EvalMetric): { [key: string]: PyJson } {
  return {
    metric_name: metric.metricName,
    threshold: pyFloat(metric.threshold),
    criterion: metric.criterion === undefined ? null : criterionJson(metric.criterion),
    custom_function_path: metric.customFunctionPath ?? null,
  };
}

// `EvalMetricResult`: the `EvalMetric` fields, then its own.
function metricResultJson(result: EvalMetricResult): PyJson {
  return {
    ...metricJson(result),
    score: pyFloat(result.score),
    eval_status: evalStatusToAdk(result.evalStatus),
    details: { rubric_scores: result.details.rubricScores?.map(rubricScoreJson) ?? null },
  };
}

// `BaseCriterion` allows extra fields: pydantic writes them after the declared ones, as they were given.
function criterionJson(criterion: BaseCriterion): PyJson {
  const json: { [key: string]: PyJson } = {
    threshold: pyFloat(criterion.threshold),
    include_intermediate_responses_in_final: criterion.includeIntermediateResponsesInFinal,
  };
  for (const [key, value] of Object.entries(criterion.extra ?? {})) json[key] = value as PyJson;
  return json;
}

function invocationJson(invocation: Invocation): PyJson {
  const data = invocation.intermediateData;
  let intermediate: PyJson = null;
  if (data !== undefined && 'invocationEvents' in data)
    intermediate = {
      invocation_events: data.invocationEvents.map((event) => ({
        author: event.author,
        content: genaiContentJson(event.content),
      })),
    };
  else if (data !== undefined)
    intermediate = {
      tool_uses: data.toolUses.map(genaiFunctionCallJson),
      tool_responses: data.toolResponses.map(genaiFunctionResponseJson),
      intermediate_responses: data.intermediateResponses.map(([author, parts]) => [author, parts.map(genaiPartJson)]),
    };
  const app = invocation.appDetails;
  return {
    invocation_id: invocation.invocationId,
    user_content: genaiContentJson(invocation.userContent),
    final_response: genaiContentJson(invocation.finalResponse),
    intermediate_data: intermediate,
    creation_timestamp: pyFloat(invocation.creationTimestamp),
    rubrics: invocation.rubrics?.map(rubricJson) ?? null,
    app_details:
      app === undefined
        ? null
        : {
            agent_details: Object.fromEntries(
              Object.entries(app.agentDetails).map(([key, details]) => [
                key,
                {
                  name: details.name,
                  instructions: details.instructions,
                  tool_declarations: details.toolDeclarations as PyJson[],
                },
              ]),
            ),
          },
  };
}

function rubricJson(rubric: Rubric): PyJson {
  return {
    rubric_id: rubric.rubricId,
    rubric_content: { text_property: rubric.rubricContent.textProperty ?? null },
    description: rubric.description ?? null,
    type: rubric.type ?? null,
  };
}

function rubricScoreJson(score: RubricScore): PyJson {
  return { rubric_id: score.rubricId, rationale: score.rationale ?? null, score: pyFloat(score.score) };
}

/** `validate_path_segment` (_path_validation.py), ADK's messages: a `ValidationError` for a name unfit for a path. */
export function checkPathSegment(value: string, field: string): void {
  const python = `'${value}'`;
  const message =
    value === ''
      ? `${field} must not be empty.`
      : value.includes('\u0000')
        ? `${field} must not contain null bytes.`
        : value.includes('/') || value.includes('\\')
          ? `${field} ${python} must not contain path separators.`
          : value === '.' || value === '..'
            ? `${field} ${python} must not contain traversal segments.`
            : undefined;
  if (message !== undefined) throw new ValidationError({ subject: field, issues: [{ path: '', message }] });
}
