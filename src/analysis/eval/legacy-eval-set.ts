import type { FunctionCall, Part } from '../../contracts/content.js';
import type { EvalCase, EvalSet, Invocation, SessionInput } from '../../contracts/evaluation.js';
import { type JsonReader, joinPath } from '../../engine/util/json-reader.js';
import { readList, readRecord, readString } from './adk-fields.js';
import {
  LEGACY_CASE_FIELDS,
  LEGACY_ENTRY_FIELDS,
  LEGACY_RESPONSE_FIELDS,
  LEGACY_SESSION_FIELDS,
  LEGACY_TOOL_USE_FIELDS,
  LEGACY_TOOL_USE_IGNORED,
} from './legacy-eval-fields.js';

// The `.test.json` format from before ADK's pydantic models, converted as ADK 2.5.0 converts it
// (src/google/adk/evaluation/local_eval_sets_manager.py `convert_eval_set_to_pydantic_schema` and
// `_convert_invocation_to_pydantic_schema`, L49–173; agent_evaluator.py `_get_eval_set_from_old_format`, L308–323, and `_load_eval_set_from_file`, L275–306).
// Two forms: a list of cases `[{ name, data: [entry…], initial_session }]` (the eval sets manager's), and a bare list
// of entries `[{ query, expected_tool_use, reference }]`, one case (AgentEvaluator's; simple_test2.test.json). An entry
// is one invocation: `query` → the user's message, `reference` (default "") → the final response,
// `expected_tool_use[].tool_name/tool_input` → tool uses, `expected_intermediate_agent_responses[].author/text` →
// intermediate responses, a new random invocation id, creation timestamps of now. ADK reads these as plain dicts and
// ignores keys it does not use; here they are refused (a typo would otherwise drop an expectation unseen), except
// `mock_tool_output` (EvalConstants in evaluation_constants.py: a field of the old format the conversion drops).

export type LegacyConversion = {
  /** The file read: the eval case's id in the entries-only form, as AgentEvaluator names it. */
  source: string;
  /** The eval set's id: given, else (cases form) the file's name, else (entries form) a new id, as ADK. */
  evalSetId?: string;
  /** The entries form's `initial_session_file` contents ({ app_name, user_id, state }). */
  initialSession?: unknown;
  /** The metrics the entries form is run with, checked against it as AgentEvaluator `_validate_input` does. */
  criteria?: Readonly<Record<string, unknown>>;
  newId: () => string;
  /** Seconds since the epoch (Python's `time.time()`). */
  now: () => number;
};

// AgentEvaluator's ALLOWED_CRITERIA (agent_evaluator.py L70–75): the only metrics it runs on an entries-only file.
const ALLOWED_CRITERIA = [
  'tool_trajectory_avg_score',
  'response_evaluation_score',
  'response_match_score',
  'safety_v1',
];

/**
 * AgentEvaluator `_validate_input` (agent_evaluator.py L369–422) for an entries-only file: each metric one it allows,
 * and the first entry with the columns its metrics need (`query`, `expected_tool_use`, `reference`).
 */
function checkEntriesForCriteria(
  reader: JsonReader,
  list: readonly unknown[],
  criteria: Readonly<Record<string, unknown>>,
) {
  for (const key of Object.keys(criteria))
    if (!ALLOWED_CRITERIA.includes(key))
      reader.issue('', `Invalid criteria key: ${key}. Expected one of ${ALLOWED_CRITERIA.join(', ')}.`);
  const first = list[0];
  if (typeof first !== 'object' || first === null) {
    reader.issue('', 'The evaluation dataset is empty.');
    return;
  }
  const needs: [string, string[]][] = [
    ['tool_trajectory_avg_score', ['query', 'expected_tool_use']],
    ['response_evaluation_score', ['query']],
    ['response_match_score', ['query', 'reference']],
  ];
  for (const [metric, columns] of needs)
    if (metric in criteria && columns.some((column) => !(column in first)))
      reader.issue(
        '[0]',
        `Samples for ${metric} must include ${columns.map((column) => `'${column}'`).join(' and ')} keys.`,
      );
}

/** Whether a list is the cases form (its first item has `name` or `data`) rather than bare entries. */
export function isLegacyCaseList(list: readonly unknown[]): boolean {
  const first = list[0];
  return (
    list.length === 0 ||
    (typeof first === 'object' && first !== null && !Array.isArray(first) && ('data' in first || 'name' in first))
  );
}

/** An `EvalSet` from either legacy form; `undefined` when it has problems (reported to `reader`). */
export function convertLegacyEvalSet(
  reader: JsonReader,
  list: readonly unknown[],
  options: LegacyConversion,
): EvalSet | undefined {
  const before = reader.issues.length;
  const casesForm = isLegacyCaseList(list);
  if (!casesForm && options.criteria !== undefined) checkEntriesForCriteria(reader, list, options.criteria);
  if (casesForm && options.initialSession !== undefined)
    reader.issue('', 'an initial session file goes with a bare list of entries; this file gives each case its own');
  const evalCases = casesForm
    ? list.map((item, index) => convertCase(reader, item, joinPath('', index), options))
    : [
        convertCase(
          reader,
          { name: options.source, data: list, initial_session: options.initialSession ?? {} },
          '',
          options,
          true,
        ),
      ];
  if (reader.issues.length > before) return undefined;
  const evalSetId = options.evalSetId ?? (casesForm ? fileId(options.source) : options.newId());
  return { evalSetId, name: evalSetId, evalCases: evalCases as EvalCase[], creationTimestamp: options.now() };
}

// The file's name without its folder and `.evalset.json` / `.test.json` / `.json`, as LocalEvalSetsManager names it.
function fileId(source: string): string {
  const name = source.split(/[\\/]/).pop() ?? source;
  return name.replace(/(\.evalset|\.test)?\.json$/, '');
}

function convertCase(
  reader: JsonReader,
  value: unknown,
  path: string,
  options: LegacyConversion,
  entriesOnly = false,
): EvalCase | undefined {
  const record = reader.object(value, path, 'an eval case ({ name, data, initial_session })');
  if (record === undefined) return undefined;
  if (!entriesOnly) reader.keys(record, path, Object.keys(LEGACY_CASE_FIELDS));
  const name = readString(reader, record['name'], joinPath(path, 'name'), { required: true });
  const dataPath = entriesOnly ? '' : joinPath(path, 'data');
  const data = readList(reader, record['data'], dataPath, { required: true }) ?? [];
  const conversation = data.map((entry, index) => convertEntry(reader, entry, joinPath(dataPath, index), options));
  const sessionPath = entriesOnly ? 'initial session' : joinPath(path, 'initial_session');
  const sessionInput = convertSession(reader, record['initial_session'], sessionPath);
  if (name === undefined || conversation.some((invocation) => invocation === undefined)) return undefined;
  return {
    evalId: name,
    conversation: conversation as Invocation[],
    ...(sessionInput === undefined ? {} : { sessionInput }),
    creationTimestamp: options.now(),
    finalSessionState: {},
  };
}

// `initial_session`: absent or empty is no session input; otherwise app name and user id default to "", state to {}.
function convertSession(reader: JsonReader, value: unknown, path: string): SessionInput | undefined {
  if (value === undefined) return undefined;
  const record = reader.object(value, path, 'an initial session ({ app_name, user_id, state })');
  if (record === undefined || Object.keys(record).length === 0) return undefined;
  reader.keys(record, path, Object.keys(LEGACY_SESSION_FIELDS));
  const appName = readString(reader, record['app_name'], joinPath(path, 'app_name')) ?? '';
  const userId = readString(reader, record['user_id'], joinPath(path, 'user_id')) ?? '';
  const state = record['state'] === undefined ? {} : readRecord(reader, record['state'], joinPath(path, 'state'));
  return state === undefined ? undefined : { appName, userId, state };
}

function convertEntry(
  reader: JsonReader,
  value: unknown,
  path: string,
  options: LegacyConversion,
): Invocation | undefined {
  const record = reader.object(value, path, 'an entry ({ query, expected_tool_use, reference })');
  if (record === undefined) return undefined;
  reader.keys(record, path, Object.keys(LEGACY_ENTRY_FIELDS));
  const before = reader.issues.length;
  const query = readString(reader, record['query'], joinPath(path, 'query'), { required: true });
  const reference = readString(reader, record['reference'], joinPath(path, 'reference')) ?? '';
  const toolsPath = joinPath(path, 'expected_tool_use');
  const toolUses: FunctionCall[] = [];
  (readList(reader, record['expected_tool_use'], toolsPath) ?? []).forEach((item, index) => {
    const at = joinPath(toolsPath, index);
    const tool = reader.object(item, at, 'a tool use ({ tool_name, tool_input })');
    if (tool === undefined) return;
    reader.keys(tool, at, Object.keys(LEGACY_TOOL_USE_FIELDS), Object.keys(LEGACY_TOOL_USE_IGNORED));
    const name = readString(reader, tool['tool_name'], joinPath(at, 'tool_name'), { required: true });
    // FunctionCall(args=tool_input): a dict, or None.
    const args =
      tool['tool_input'] === null
        ? undefined
        : readRecord(reader, tool['tool_input'], joinPath(at, 'tool_input'), { required: true });
    if (name !== undefined) toolUses.push(args === undefined ? { name } : { name, args });
  });
  const responsesPath = joinPath(path, 'expected_intermediate_agent_responses');
  const intermediateResponses: [string, Part[]][] = [];
  (readList(reader, record['expected_intermediate_agent_responses'], responsesPath) ?? []).forEach((item, index) => {
    const at = joinPath(responsesPath, index);
    const response = reader.object(item, at, 'a response ({ author, text })');
    if (response === undefined) return;
    reader.keys(response, at, Object.keys(LEGACY_RESPONSE_FIELDS));
    const author = readString(reader, response['author'], joinPath(at, 'author'), { required: true });
    const text = readString(reader, response['text'], joinPath(at, 'text'), { required: true });
    if (author !== undefined && text !== undefined) intermediateResponses.push([author, [{ text }]]);
  });
  if (reader.issues.length > before || query === undefined) return undefined;
  return {
    invocationId: options.newId(),
    userContent: { role: 'user', parts: [{ text: query }] },
    finalResponse: { role: 'model', parts: [{ text: reference }] },
    intermediateData: { toolUses, toolResponses: [], intermediateResponses },
    creationTimestamp: options.now(),
  };
}
