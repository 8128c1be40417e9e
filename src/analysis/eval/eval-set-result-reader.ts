import type {
  EvalCaseResult,
  EvalMetric,
  EvalMetricResult,
  EvalMetricResultPerInvocation,
  EvalSetResult,
  EvalStatus,
  Invocation,
  RubricScore,
} from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { JsonReader, describeValue, joinPath } from '../../engine/util/json-reader.js';
import { adkFields, namedFields, readList, readNumber, readRecord, readString } from './adk-fields.js';
import { readInvocation } from './eval-case-reader.js';
import { readCriterion } from './eval-config.js';
import { evalStatusFromAdk } from './eval-status.js';

// An eval set's result file read back, as ADK 2.5.0's `parse_eval_set_result_json` reads one
// (_eval_set_results_manager_utils.py L50–69, commit bb56aa56): the object pydantic wrote (eval-set-result-file.ts),
// or the older double-encoded form, a JSON string holding that object. Keys snake_case or camelCase; the nulls
// pydantic writes for unset fields are absent here; keys of no field are ignored, as ADK's models ignore them.

/** The `EvalSetResult` of a result file's text; a `ValidationError` listing each problem otherwise. */
export function parseEvalSetResult(text: string, source: string): EvalSetResult {
  const reader = new JsonReader();
  let json: unknown;
  try {
    json = JSON.parse(text);
    if (typeof json === 'string') json = JSON.parse(json);
  } catch (error) {
    reader.issue('', `not JSON: ${error instanceof Error ? error.message : describeValue(error)}`);
  }
  const result = reader.issues.length === 0 ? readEvalSetResult(reader, json) : undefined;
  if (result === undefined || reader.issues.length > 0)
    throw new ValidationError({ subject: `eval set result ${source}`, issues: reader.issues });
  return result;
}

function readEvalSetResult(reader: JsonReader, json: unknown): EvalSetResult | undefined {
  const record = reader.object(json, '', 'an eval set result ({ eval_set_result_id, eval_case_results })');
  if (record === undefined) return undefined;
  const names = ['evalSetResultId', 'evalSetResultName', 'evalSetId', 'evalCaseResults', 'creationTimestamp'];
  const { values, at } = adkFields(reader, record, '', namedFields('EvalSetResult', names, 'allow'));
  const evalSetResultId = readString(reader, values['evalSetResultId'], at('evalSetResultId'), { required: true });
  const name = readString(reader, values['evalSetResultName'], at('evalSetResultName'), { nullable: true });
  const evalSetId = readString(reader, values['evalSetId'], at('evalSetId'), { required: true });
  const cases = readList(reader, values['evalCaseResults'], at('evalCaseResults')) ?? [];
  const evalCaseResults = cases.map((item, index) =>
    readCaseResult(reader, item, joinPath(at('evalCaseResults'), index)),
  );
  const creationTimestamp = readNumber(reader, values['creationTimestamp'], at('creationTimestamp')) ?? 0;
  if (evalSetResultId === undefined || evalSetId === undefined || evalCaseResults.some((item) => item === undefined))
    return undefined;
  return {
    evalSetResultId,
    ...(name === undefined ? {} : { evalSetResultName: name }),
    evalSetId,
    evalCaseResults: evalCaseResults as EvalCaseResult[],
    creationTimestamp,
  };
}

const CASE_FIELDS = [
  'evalSetFile',
  'evalSetId',
  'evalId',
  'finalEvalStatus',
  'evalMetricResults',
  'overallEvalMetricResults',
  'evalMetricResultPerInvocation',
  'sessionId',
  'sessionDetails',
  'userId',
];

function readCaseResult(reader: JsonReader, value: unknown, path: string): EvalCaseResult | undefined {
  const record = reader.object(value, path, 'an eval case result');
  if (record === undefined) return undefined;
  const { values, at } = adkFields(reader, record, path, namedFields('EvalCaseResult', CASE_FIELDS, 'allow'));
  const evalSetFile = readString(reader, values['evalSetFile'], at('evalSetFile'), { nullable: true });
  const evalSetId = readString(reader, values['evalSetId'], at('evalSetId'), { required: true });
  const evalId = readString(reader, values['evalId'], at('evalId'), { required: true });
  const finalEvalStatus = readStatus(reader, values['finalEvalStatus'], at('finalEvalStatus'));
  const pairs = readList(reader, values['evalMetricResults'], at('evalMetricResults'), { nullable: true });
  const evalMetricResults = pairs?.map((pair, index) =>
    readMetricPair(reader, pair, joinPath(at('evalMetricResults'), index)),
  );
  const overall = (readList(reader, values['overallEvalMetricResults'], at('overallEvalMetricResults')) ?? []).map(
    (item, index) => readMetricResult(reader, item, joinPath(at('overallEvalMetricResults'), index)),
  );
  const perInvocation = (
    readList(reader, values['evalMetricResultPerInvocation'], at('evalMetricResultPerInvocation')) ?? []
  ).map((item, index) => readPerInvocation(reader, item, joinPath(at('evalMetricResultPerInvocation'), index)));
  const sessionId = readString(reader, values['sessionId'], at('sessionId'), { required: true });
  const sessionDetails = readRecord(reader, values['sessionDetails'], at('sessionDetails'), { nullable: true });
  const userId = readString(reader, values['userId'], at('userId'), { nullable: true });
  if (
    evalSetId === undefined ||
    evalId === undefined ||
    finalEvalStatus === undefined ||
    sessionId === undefined ||
    evalMetricResults?.some((pair) => pair === undefined) ||
    overall.some((item) => item === undefined) ||
    perInvocation.some((item) => item === undefined)
  )
    return undefined;
  return {
    ...(evalSetFile === undefined ? {} : { evalSetFile }),
    evalSetId,
    evalId,
    finalEvalStatus,
    ...(evalMetricResults === undefined
      ? {}
      : { evalMetricResults: evalMetricResults as [EvalMetric, EvalMetricResult][] }),
    overallEvalMetricResults: overall as EvalMetricResult[],
    evalMetricResultPerInvocation: perInvocation as EvalMetricResultPerInvocation[],
    sessionId,
    ...(sessionDetails === undefined ? {} : { sessionDetails }),
    ...(userId === undefined ? {} : { userId }),
  };
}

function readPerInvocation(
  reader: JsonReader,
  value: unknown,
  path: string,
): EvalMetricResultPerInvocation | undefined {
  const record = reader.object(value, path, 'a per-invocation result');
  if (record === undefined) return undefined;
  const names = ['actualInvocation', 'expectedInvocation', 'evalMetricResults'];
  const { values, at } = adkFields(reader, record, path, namedFields('EvalMetricResultPerInvocation', names, 'allow'));
  const actual = readInvocation(reader, values['actualInvocation'], at('actualInvocation'));
  const expected: Invocation | undefined =
    values['expectedInvocation'] == null
      ? undefined
      : readInvocation(reader, values['expectedInvocation'], at('expectedInvocation'));
  const results = (readList(reader, values['evalMetricResults'], at('evalMetricResults')) ?? []).map((item, index) =>
    readMetricResult(reader, item, joinPath(at('evalMetricResults'), index)),
  );
  if (actual === undefined || results.some((item) => item === undefined)) return undefined;
  return {
    actualInvocation: actual,
    ...(expected === undefined ? {} : { expectedInvocation: expected }),
    evalMetricResults: results as EvalMetricResult[],
  };
}

// The deprecated `(EvalMetric, EvalMetricResult)` pairs: a two-element list in JSON.
function readMetricPair(reader: JsonReader, value: unknown, path: string): [EvalMetric, EvalMetricResult] | undefined {
  if (!Array.isArray(value) || value.length !== 2)
    return reader.issue(path, `expected [metric, result], got ${describeValue(value)}`);
  const metric = readMetric(reader, value[0], joinPath(path, 0), 'EvalMetric', []);
  const result = readMetricResult(reader, value[1], joinPath(path, 1));
  return metric === undefined || result === undefined ? undefined : [metric.metric, result];
}

const METRIC_FIELDS = ['metricName', 'threshold', 'criterion', 'customFunctionPath'];

/** An `EvalMetric` (the metrics of a run request too): a name, and a threshold or criterion as ADK takes them. */
export function readEvalMetric(reader: JsonReader, value: unknown, path: string): EvalMetric | undefined {
  return readMetric(reader, value, path, 'EvalMetric', [])?.metric;
}

function readMetric(
  reader: JsonReader,
  value: unknown,
  path: string,
  model: string,
  more: readonly string[],
): { metric: EvalMetric; values: Record<string, unknown>; at: (name: string) => string } | undefined {
  const record = reader.object(value, path, 'a metric ({ metric_name, threshold })');
  if (record === undefined) return undefined;
  const { values, at } = adkFields(reader, record, path, namedFields(model, [...METRIC_FIELDS, ...more], 'allow'));
  const metricName = readString(reader, values['metricName'], at('metricName'), { required: true });
  const threshold = readNumber(reader, values['threshold'], at('threshold'), { nullable: true });
  const criterion =
    values['criterion'] == null ? undefined : readCriterion(reader, values['criterion'], at('criterion'));
  const customFunctionPath = readString(reader, values['customFunctionPath'], at('customFunctionPath'), {
    nullable: true,
  });
  if (metricName === undefined) return undefined;
  const metric: EvalMetric = {
    metricName,
    ...(threshold === undefined ? {} : { threshold }),
    // A bare number where a criterion goes is its threshold.
    ...(criterion === undefined
      ? {}
      : {
          criterion:
            typeof criterion === 'number'
              ? { threshold: criterion, includeIntermediateResponsesInFinal: false }
              : criterion,
        }),
    ...(customFunctionPath === undefined ? {} : { customFunctionPath }),
  };
  return { metric, values, at };
}

function readMetricResult(reader: JsonReader, value: unknown, path: string): EvalMetricResult | undefined {
  const read = readMetric(reader, value, path, 'EvalMetricResult', ['score', 'evalStatus', 'details']);
  if (read === undefined) return undefined;
  const { metric, values, at } = read;
  const score = readNumber(reader, values['score'], at('score'), { nullable: true });
  const evalStatus = readStatus(reader, values['evalStatus'], at('evalStatus'));
  const details = readRecord(reader, values['details'], at('details'), { nullable: true });
  const scores = details?.['rubric_scores'] ?? details?.['rubricScores'];
  const rubricScores = readList(reader, scores, joinPath(at('details'), 'rubric_scores'), { nullable: true })?.map(
    (item, index) => readRubricScore(reader, item, joinPath(joinPath(at('details'), 'rubric_scores'), index)),
  );
  if (evalStatus === undefined || rubricScores?.some((item) => item === undefined)) return undefined;
  return {
    ...metric,
    ...(score === undefined ? {} : { score }),
    evalStatus,
    details: rubricScores === undefined ? {} : { rubricScores: rubricScores as RubricScore[] },
  };
}

function readRubricScore(reader: JsonReader, value: unknown, path: string): RubricScore | undefined {
  const record = reader.object(value, path, 'a rubric score');
  if (record === undefined) return undefined;
  const { values, at } = adkFields(
    reader,
    record,
    path,
    namedFields('RubricScore', ['rubricId', 'rationale', 'score'], 'allow'),
  );
  const rubricId = readString(reader, values['rubricId'], at('rubricId'), { required: true });
  const rationale = readString(reader, values['rationale'], at('rationale'), { nullable: true });
  const score = readNumber(reader, values['score'], at('score'), { nullable: true });
  if (rubricId === undefined) return undefined;
  return { rubricId, ...(rationale === undefined ? {} : { rationale }), ...(score === undefined ? {} : { score }) };
}

// ADK writes statuses as numbers; the names are taken too.
function readStatus(reader: JsonReader, value: unknown, path: string): EvalStatus | undefined {
  const status =
    evalStatusFromAdk(value) ??
    (value === 'PASSED' || value === 'FAILED' || value === 'NOT_EVALUATED' ? value : undefined);
  return (
    status ??
    reader.issue(path, `expected an eval status (1 PASSED, 2 FAILED, 3 NOT_EVALUATED), got ${describeValue(value)}`)
  );
}
