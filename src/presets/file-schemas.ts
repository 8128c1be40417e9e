import {
  ADK_SPELLINGS,
  LLM_FIELD_SCHEMAS,
  REFERENCE_FIELD_SCHEMAS,
  snakeCase,
  WORKFLOW_FIELD_SCHEMAS,
  type JsonSchema,
} from '../engine/config/agent-file-schema.js';
import { PYTHON_VERSIONS } from '../engine/profile/profiles.js';
import { fieldKeys } from './agent-file-keys.js';
import { agentFileFields } from './agent-files.js';
import { CASE_FIELD_SCHEMAS } from './case-file-schema.js';

// The published JSON Schemas of agent files and case files (draft 2020-12), built from the tables the readers take
// their fields from. `agentctx schema agent|case` prints them; assets/schema/ ships them for editors.

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

/** Every field an agent may have: an LLM agent's, a workflow agent's, and the features' (skills, memory, …). */
export function agentFieldSchemas(): Record<string, JsonSchema> {
  const features = Object.fromEntries(
    agentFileFields(undefined).flatMap((field) =>
      fieldKeys(field).map((key) => [key, field.schema[key] as JsonSchema]),
    ),
  );
  const generateConfig = LLM_FIELD_SCHEMAS['generateConfig'] as JsonSchema;
  return {
    ...LLM_FIELD_SCHEMAS,
    generateConfig: withNestedSpellings(generateConfig),
    ...WORKFLOW_FIELD_SCHEMAS,
    ...features,
  };
}

/** An object schema whose properties, at every level, take their snake_case spelling too (as `generateConfig` is read). */
function withNestedSpellings(schema: JsonSchema): JsonSchema {
  const properties = schema['properties'] as Record<string, JsonSchema> | undefined;
  if (properties === undefined) return schema;
  const spelled: Record<string, JsonSchema> = {};
  for (const [key, property] of Object.entries(properties)) spelled[key] = withNestedSpellings(property);
  for (const [key, property] of Object.entries(properties))
    if (snakeCase(key) !== key)
      spelled[snakeCase(key)] ??= { ...withNestedSpellings(property), description: `ADK's spelling of ${key}.` };
  return { ...schema, properties: spelled };
}

/** The fields with ADK's snake_case spellings beside them, each described as the field it stands for. */
function withAdkSpellings(fields: Record<string, JsonSchema>): Record<string, JsonSchema> {
  const spelled: Record<string, JsonSchema> = { ...fields };
  const spellings = {
    ...ADK_SPELLINGS,
    ...Object.fromEntries(Object.keys(fields).map((key) => [snakeCase(key), key])),
  };
  for (const [alias, key] of Object.entries(spellings)) {
    const schema = fields[key];
    if (alias !== key && schema !== undefined && spelled[alias] === undefined)
      spelled[alias] = { ...schema, description: `ADK's spelling of ${key}.` };
  }
  return spelled;
}

function definitions(): Record<string, JsonSchema> {
  const reference = withAdkSpellings({ ...REFERENCE_FIELD_SCHEMAS });
  const agent: JsonSchema = {
    type: 'object',
    description:
      'An agent: an LLM agent (the default), or a workflow agent (kind sequential, parallel or loop) with sub-agents.',
    properties: withAdkSpellings(agentFieldSchemas()),
    required: ['name'],
    additionalProperties: false,
  };
  return {
    agent,
    rootAgent: {
      ...agent,
      description: `${agent['description'] as string} The root of a file may also name the profile the tree runs under.`,
      properties: { ...(agent['properties'] as Record<string, JsonSchema>), profile: { $ref: '#/$defs/profile' } },
    },
    profile: {
      description:
        'The conventions the agents run under: agentctx (default) or adk (ADK Python’s, byte for byte), or { name, python } to name the Python whose str() and repr() values are written as (its Unicode database decides which characters repr escapes).',
      anyOf: [
        { enum: ['agentctx', 'adk'] },
        {
          type: 'object',
          properties: {
            name: { enum: ['agentctx', 'adk'] },
            python: { enum: [...PYTHON_VERSIONS], description: 'A string: quote it in YAML (3.10 is the number 3.1).' },
          },
          required: ['name'],
          additionalProperties: false,
        },
      ],
    },
    reference: {
      type: 'object',
      properties: reference,
      minProperties: 1,
      maxProperties: 1,
      additionalProperties: false,
      description: 'An agent defined in another file.',
    },
    agentOrFile: { anyOf: [{ $ref: '#/$defs/reference' }, { $ref: '#/$defs/agent' }] },
    mcpStdioServer: {
      type: 'object',
      description: 'An MCP server started as a child process (ADK\u2019s StdioServerParameters).',
      properties: {
        command: { type: 'string' },
        args: { type: 'array', items: { type: 'string' } },
        env: { type: 'object', additionalProperties: { type: 'string' } },
        cwd: { type: 'string' },
      },
      required: ['command'],
      additionalProperties: false,
    },
  };
}

/** The JSON Schema of an agent file: the file `agentctx run` takes, and every other command too. */
export function agentFileSchema(): JsonSchema {
  return {
    $schema: DRAFT,
    title: 'agentctx agent file',
    description:
      'An agent tree in declarative form (YAML or JSON), as agentctx run, serve, inspect, diff, check and compact take it. docs/agent-file.md documents every field.',
    $ref: '#/$defs/rootAgent',
    $defs: definitions(),
    examples: [EXAMPLE_AGENT],
  };
}

/** A complete agent file, for editors and docs: a coordinator with a sub-agent, state placeholders and a declared tool. */
const EXAMPLE_AGENT = {
  name: 'help_desk',
  description: 'Routes customer questions.',
  model: 'gemini-2.5-flash',
  instruction: 'You answer customers of {app:company?}. Be brief and friendly.',
  subAgents: [
    {
      name: 'billing_agent',
      description: 'Answers billing questions.',
      instruction: 'Answer billing questions for {user:name?}. Look invoices up before answering.',
      tools: [
        {
          name: 'find_invoice',
          description: 'Finds an invoice by its number.',
          parameters: { type: 'object', properties: { number: { type: 'string' } }, required: ['number'] },
        },
      ],
      outputKey: 'billing_answer',
    },
  ],
  generateConfig: { temperature: 0.2, maxOutputTokens: 1024 },
};

/** The JSON Schema of a case file: an agent (inline or a path) and the session it is asked in. */
export function caseFileSchema(): JsonSchema {
  const fields: Record<string, JsonSchema> = { ...CASE_FIELD_SCHEMAS };
  const compaction = fields['eventsCompactionConfig'] as { properties: Record<string, JsonSchema> };
  fields['eventsCompactionConfig'] = {
    ...compaction,
    properties: withAdkSpellings(compaction.properties),
    additionalProperties: false,
  };
  return {
    $schema: DRAFT,
    title: 'agentctx case file',
    description:
      'A request to assemble without running anything: an agent tree, who is asked, and the session as it stands (agentctx inspect, diff, check, compact).',
    type: 'object',
    properties: fields,
    required: ['agent'],
    additionalProperties: false,
    $defs: definitions(),
  };
}
