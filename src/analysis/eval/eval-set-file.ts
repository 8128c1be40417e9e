import type { EvalCase, EvalSet } from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { JsonReader, describeValue, joinPath } from '../../engine/util/json-reader.js';
import { adkFields, readList, readNumber, readString, withoutSchemaKey } from './adk-fields.js';
import { readEvalCase } from './eval-case-reader.js';
import { EVAL_SET } from './eval-set-fields.js';
import { convertLegacyEvalSet } from './legacy-eval-set.js';

export { formatEvalSet, writeEvalSet } from './eval-set-writer.js';

export type ReadEvalSetOptions = {
  /** The id of a legacy file's eval set; by default as ADK: the file's name (cases form) or a new id (entries form). */
  evalSetId?: string;
  /** A legacy entries-only file's initial session (AgentEvaluator's `initial_session_file`, parsed). */
  initialSession?: unknown;
  /**
   * The criteria of the test_config.json an entries-only legacy file runs with: AgentEvaluator refuses other metrics
   * than its four and a first entry without the columns they need.
   */
  criteria?: Readonly<Record<string, unknown>>;
  /** New invocation and eval set ids of a legacy file (ADK: `uuid.uuid4()`). */
  newId?: () => string;
  /** Seconds since the epoch for a legacy file's creation timestamps (ADK: `time.time()`). */
  now?: () => number;
};

/**
 * An ADK eval set file, parsed: the `EvalSet` of ADK 2.5.0 (eval_set.py, eval_case.py) in snake_case as ADK writes it
 * or camelCase, or a legacy `.test.json` list converted as ADK converts it (legacy-eval-set.ts). Throws a
 * `ValidationError` listing every problem, each with its JSON path.
 *
 * ADK's `EvalSet` is a plain pydantic model: it takes only snake_case keys and ignores unknown ones. Here its
 * camelCase keys are taken too (as for the models inside it) and unknown keys are refused, with the nearest name, but
 * for a top-level `$schema` naming the file's JSON Schema (eval-file-schemas.ts).
 */
export function readEvalSet(json: unknown, source: string, options: ReadEvalSetOptions = {}): EvalSet {
  const reader = new JsonReader();
  const set = Array.isArray(json)
    ? convertLegacyEvalSet(reader, json, {
        source,
        ...(options.evalSetId === undefined ? {} : { evalSetId: options.evalSetId }),
        ...(options.initialSession === undefined ? {} : { initialSession: options.initialSession }),
        ...(options.criteria === undefined ? {} : { criteria: options.criteria }),
        newId: options.newId ?? (() => crypto.randomUUID()),
        now: options.now ?? (() => Date.now() / 1000),
      })
    : readCurrentEvalSet(reader, json, options);
  if (set === undefined || reader.issues.length > 0)
    throw new ValidationError({
      subject: `eval set ${source}`,
      issues: reader.issues,
      hint: 'ADK 2.5.0 eval set files hold { eval_set_id, eval_cases: [...] } or a legacy .test.json list',
    });
  return set;
}

function readCurrentEvalSet(reader: JsonReader, json: unknown, options: ReadEvalSetOptions): EvalSet | undefined {
  const record = reader.object(json, '', 'an eval set ({ eval_set_id, eval_cases }) or a legacy list');
  if (record === undefined) return undefined;
  // AgentEvaluator._load_eval_set_from_file asserts it: an initial session is for the legacy format only.
  if (options.initialSession !== undefined)
    reader.issue(
      '',
      'Initial session should be specified as a part of EvalSet file. Explicit initial session is only needed, when specifying data in the older schema.',
    );
  const { values, at } = adkFields(reader, withoutSchemaKey(reader, record), '', EVAL_SET);
  const evalSetId = readString(reader, values['evalSetId'], at('evalSetId'), { required: true });
  const name = readString(reader, values['name'], at('name'), { nullable: true });
  const description = readString(reader, values['description'], at('description'), { nullable: true });
  const cases = readList(reader, values['evalCases'], at('evalCases'), { required: true }) ?? [];
  const evalCases = cases.map((item, index) => readEvalCase(reader, item, joinPath(at('evalCases'), index)));
  const creationTimestamp = readNumber(reader, values['creationTimestamp'], at('creationTimestamp')) ?? 0;
  if (evalSetId === undefined || evalCases.some((item) => item === undefined)) return undefined;
  return {
    evalSetId,
    ...(name === undefined ? {} : { name }),
    ...(description === undefined ? {} : { description }),
    evalCases: evalCases as EvalCase[],
    creationTimestamp,
  };
}

/** `readEvalSet` of a file's text: a JSON syntax error is a `ValidationError` too. */
export function parseEvalSet(text: string, source: string, options: ReadEvalSetOptions = {}): EvalSet {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ValidationError({
      subject: `eval set ${source}`,
      issues: [{ path: '', message: `not JSON: ${error instanceof Error ? error.message : describeValue(error)}` }],
      cause: error,
    });
  }
  return readEvalSet(json, source, options);
}
