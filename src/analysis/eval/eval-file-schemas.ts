import type { JsonSchema } from '../../engine/config/agent-file-schema.js';
import {
  BASE_CRITERION,
  CODE_CONFIG,
  CRITERION_OPTIONS,
  CUSTOM_METRIC_CONFIG,
  EVAL_CONFIG,
  JUDGE_MODEL_OPTIONS,
  USER_SIMULATOR_CONFIG,
} from './eval-config-fields.js';
import { EVAL_SET_MODELS, RUBRIC, RUBRIC_CONTENT } from './eval-set-fields.js';
import { genaiDefinitions } from './genai-content-schema.js';
import {
  LEGACY_CASE_FIELDS,
  LEGACY_ENTRY_FIELDS,
  LEGACY_RESPONSE_FIELDS,
  LEGACY_SESSION_FIELDS,
  LEGACY_TOOL_USE_FIELDS,
  LEGACY_TOOL_USE_IGNORED,
} from './legacy-eval-fields.js';
import { modelDefinitions, spelledObjectSchema } from './spelled-object-schema.js';

// The published JSON Schemas (draft 2020-12) of ADK's eval files, built from the tables their readers take their
// fields from: a file a schema accepts has no field the reader refuses. `agentctx schema evalset|eval-test|eval-config`
// prints them; assets/schema/ ships them for editors.

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

// The key an editor finds a JSON file's schema by; ADK ignores it, as every key its EvalSet and EvalConfig do not know.
const SCHEMA_KEY: JsonSchema = {
  type: 'string',
  description:
    'The JSON Schema of this file, for editors: a path or URL of eval-set.schema.json or eval-config.schema.json.',
};

// A file's top-level object: its definition inlined, with the `$schema` key beside its fields.
function fileRoot(definition: JsonSchema): JsonSchema {
  const properties = definition['properties'] as Record<string, JsonSchema>;
  return { ...definition, properties: { $schema: SCHEMA_KEY, ...properties } };
}

/** The JSON Schema of an ADK eval set file (`.evalset.json`), in snake_case as ADK writes it or camelCase. */
export function evalSetFileSchema(): JsonSchema {
  const { EvalSet, ...definitions } = modelDefinitions(EVAL_SET_MODELS);
  return {
    $schema: DRAFT,
    title: 'ADK eval set file',
    ...fileRoot(EvalSet as JsonSchema),
    description:
      'An ADK 2.5.0 EvalSet (.evalset.json), as agentctx eval runs it: its cases, each a conversation with the answers and tool calls expected. Keys in snake_case, as ADK writes them, or camelCase. docs/evaluation.md describes the command.',
    $defs: { ...definitions, ...genaiDefinitions() },
  };
}

// An object of snake_case keys only (the legacy format's, read as plain dicts).
function legacyObject(
  description: string,
  fields: Readonly<Record<string, JsonSchema>>,
  required: readonly string[],
): JsonSchema {
  return { type: 'object', description, properties: fields, required, additionalProperties: false };
}

/** The JSON Schema of a legacy ADK test file (`.test.json`): a list of cases, or a list of one case's turns. */
export function legacyEvalFileSchema(): JsonSchema {
  return {
    $schema: DRAFT,
    title: 'ADK legacy eval test file',
    description:
      'The .test.json lists of ADK before its EvalSet, converted as ADK converts them: a list of cases ({ name, data, initial_session }), or the turns of one case with the session in a file of its own. A list has no place for $schema: map the file to this schema in the editor’s settings.',
    anyOf: [
      { type: 'array', items: { $ref: '#/$defs/case' }, description: 'A list of cases.' },
      {
        type: 'array',
        minItems: 1,
        items: { $ref: '#/$defs/entry' },
        description: 'The turns of one case, named after the file.',
      },
    ],
    $defs: {
      case: legacyObject('An eval case.', LEGACY_CASE_FIELDS, ['name', 'data']),
      entry: legacyObject('A turn: what the user asks, the tool calls and answer expected.', LEGACY_ENTRY_FIELDS, [
        'query',
      ]),
      toolUse: legacyObject('A tool call expected.', { ...LEGACY_TOOL_USE_FIELDS, ...LEGACY_TOOL_USE_IGNORED }, [
        'tool_name',
        'tool_input',
      ]),
      intermediateResponse: legacyObject('A reply of a sub-agent expected.', LEGACY_RESPONSE_FIELDS, [
        'author',
        'text',
      ]),
      initialSession: legacyObject('The session a case starts in.', LEGACY_SESSION_FIELDS, []),
    },
  };
}

/** The JSON Schema of an ADK eval config (`test_config.json`), in snake_case or camelCase. */
export function evalConfigFileSchema(): JsonSchema {
  const criterion = spelledObjectSchema({
    ...BASE_CRITERION,
    fields: { ...BASE_CRITERION.fields, ...CRITERION_OPTIONS },
  });
  const { EvalConfig, ...definitions } = modelDefinitions([
    EVAL_CONFIG,
    JUDGE_MODEL_OPTIONS,
    CUSTOM_METRIC_CONFIG,
    CODE_CONFIG,
    RUBRIC,
    RUBRIC_CONTENT,
  ]);
  return {
    $schema: DRAFT,
    title: 'ADK eval config file',
    ...fileRoot(EvalConfig as JsonSchema),
    description:
      'An ADK 2.5.0 EvalConfig (test_config.json): the metrics agentctx eval scores each case with, and the threshold each must reach. Keys in snake_case or camelCase.',
    $defs: {
      Criterion: {
        anyOf: [{ type: 'number', description: 'The threshold alone.' }, criterion],
        description: 'A threshold, or a criterion with its threshold and the options of its metric.',
      },
      ...definitions,
      UserSimulatorConfig: USER_SIMULATOR_CONFIG,
    },
    examples: [
      {
        criteria: {
          tool_trajectory_avg_score: { threshold: 1.0, match_type: 'IN_ORDER' },
          response_match_score: 0.8,
        },
      },
    ],
  };
}
