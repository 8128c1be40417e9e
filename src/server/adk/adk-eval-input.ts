import type { EvalCase, EvalMetric } from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { adkFields, namedFields, readList, readString } from '../../analysis/eval/adk-fields.js';
import { readEvalCase } from '../../analysis/eval/eval-case-reader.js';
import { readEvalMetric } from '../../analysis/eval/eval-set-result-reader.js';
import { JsonReader, joinPath } from '../../engine/util/json-reader.js';

// Request bodies of ADK's eval routes (dev_server.py's request models, commit bb56aa56), camelCase or snake_case.
// ADK's request models ignore keys they do not have, and the dev UI sends some (a new eval set's
// `model_execution_mode`), so unknown keys are ignored here too; a field given both ways is refused.

/** `POST …/eval-sets` (`CreateEvalSetRequest`): the new set's id, from `{ evalSet: { evalSetId } }`. */
export function readCreateEvalSetBody(value: unknown): { evalSetId: string } {
  const reader = new JsonReader();
  const record = reader.object(value, '', 'a JSON object ({ evalSet: { evalSetId } })');
  let evalSetId: string | undefined;
  if (record !== undefined) {
    const { values, at } = adkFields(reader, record, '', namedFields('CreateEvalSetRequest', ['evalSet'], 'allow'));
    const set =
      values['evalSet'] === undefined
        ? reader.issue(at('evalSet'), 'is required: the eval set ({ evalSetId })')
        : reader.object(values['evalSet'], at('evalSet'), 'an eval set ({ evalSetId })');
    if (set !== undefined) {
      const inner = adkFields(reader, set, at('evalSet'), namedFields('EvalSet', ['evalSetId'], 'allow'));
      evalSetId = readString(reader, inner.values['evalSetId'], inner.at('evalSetId'), { required: true });
    }
  }
  return { evalSetId: checked(reader, evalSetId) };
}

/** `POST …/add_session` (`AddSessionToEvalSetRequest`): the new case's id and the session to make it of. */
export type AddSessionBody = { evalId: string; sessionId: string; userId: string };

export function readAddSessionBody(value: unknown): AddSessionBody {
  const reader = new JsonReader();
  const record = reader.object(value, '', 'a JSON object ({ evalId, sessionId, userId })');
  let body: Partial<AddSessionBody> = {};
  if (record !== undefined) {
    const names = ['evalId', 'sessionId', 'userId'] as const;
    const { values, at } = adkFields(reader, record, '', namedFields('AddSessionToEvalSetRequest', names, 'allow'));
    body = Object.fromEntries(
      names.map((name) => [name, readString(reader, values[name], at(name), { required: true })]),
    ) as Partial<AddSessionBody>;
  }
  if (reader.issues.length > 0) throw invalid(reader);
  return body as AddSessionBody;
}

/** `POST …/run_eval` (`RunEvalRequest`): the cases to run (all when none are named) and the metrics. */
export type RunEvalBody = { evalCaseIds: string[]; evalMetrics: EvalMetric[] };

export function readRunEvalBody(value: unknown): RunEvalBody {
  const reader = new JsonReader();
  const record = reader.object(value, '', 'a JSON object ({ evalCaseIds, evalMetrics })');
  const body: RunEvalBody = { evalCaseIds: [], evalMetrics: [] };
  if (record !== undefined) {
    const names = ['evalIds', 'evalCaseIds', 'evalMetrics'];
    const { values, at } = adkFields(reader, record, '', namedFields('RunEvalRequest', names, 'allow'));
    const ids = (name: string) =>
      (readList(reader, values[name], at(name)) ?? []).flatMap((item, index) => {
        const id = readString(reader, item, joinPath(at(name), index), { required: true });
        return id === undefined ? [] : [id];
      });
    // ADK runs `eval_case_ids or eval_ids`: the deprecated name counts only when the new one names none.
    const caseIds = ids('evalCaseIds');
    body.evalCaseIds = caseIds.length > 0 ? caseIds : ids('evalIds');
    const metrics =
      values['evalMetrics'] === undefined
        ? reader.issue(at('evalMetrics'), 'is required: the metrics to score by ([{ metricName, threshold }])')
        : readList(reader, values['evalMetrics'], at('evalMetrics'));
    body.evalMetrics = (metrics ?? []).flatMap((item, index) => {
      const metric = readEvalMetric(reader, item, joinPath(at('evalMetrics'), index));
      return metric === undefined ? [] : [metric];
    });
  }
  if (reader.issues.length > 0) throw invalid(reader);
  return body;
}

/** `PUT …/evals/{case}`: a whole `EvalCase`, as the eval set file holds one. */
export function readEvalCaseBody(value: unknown): EvalCase {
  const reader = new JsonReader();
  const evalCase = readEvalCase(reader, value, '');
  return checked(reader, evalCase);
}

function checked<T>(reader: JsonReader, value: T | undefined): T {
  if (value === undefined || reader.issues.length > 0) throw invalid(reader);
  return value;
}

function invalid(reader: JsonReader): ValidationError {
  return new ValidationError({ subject: 'request body', issues: reader.issues });
}
