import type { JsonSchema } from '../../engine/config/agent-file-schema.js';

// The scripted model's file format with its JSON Schema: parse-script takes its allowed keys from these tables, and
// `agentctx schema script` publishes the schema built from them.

const count = { type: 'integer', minimum: 0 } as const;
const call: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, args: { type: 'object' }, id: { type: 'string' } },
  required: ['name'],
  additionalProperties: false,
  description: 'a tool call: { name, args?, id? }',
};

/** What a rule's `when` may state; all given conditions must hold. */
export const CONDITION_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  agent: { type: 'string', description: 'the agent making the call' },
  call: {
    type: 'integer',
    minimum: 1,
    description: 'the model\u2019s n-th call, counting every agent\u2019s calls (1 is the first)',
  },
  agentCall: { type: 'integer', minimum: 1, description: 'this agent\u2019s n-th call of the model' },
  lastUserText: {
    type: 'string',
    description: 'the user\u2019s own latest message contains this (other agents\u2019 retold turns do not count)',
  },
  lastUserMatches: {
    type: 'string',
    description: 'the user\u2019s own latest message matches this regular expression (u flag)',
  },
  systemContains: { type: 'string', description: 'the system text contains this' },
  requestContains: {
    type: 'string',
    description: 'the request\u2019s text (system, messages, tool calls and results as JSON) contains this',
  },
  requestLacks: {
    type: 'string',
    description: 'the request\u2019s text does not contain this (a fact the context dropped)',
  },
  afterToolResponse: { type: 'string', description: 'the request ends with a response of this tool' },
  toolResultContains: {
    type: 'string',
    description: 'the request ends with tool responses, one of which (as JSON) contains this',
  },
  hasTool: { type: 'string', description: 'the request declares this tool' },
  state: {
    type: 'object',
    description: 'each of these state keys holds this value (compared as JSON; null also matches an unset key)',
  },
};

/** What an answer may hold. */
export const RESPONSE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  text: { type: 'string', description: 'the answer\u2019s text' },
  thought: { type: 'string', description: 'a thought part before the text' },
  functionCall: call,
  functionCalls: { type: 'array', items: call, description: 'several tool calls, run concurrently' },
  content: { type: 'object', description: 'a whole message: { role: model, parts: [...] }' },
  usage: {
    type: 'object',
    properties: { promptTokens: count, outputTokens: count, cachedTokens: count, totalTokens: count },
    additionalProperties: false,
    description: 'recorded as the call\u2019s usage',
  },
  finishReason: { type: 'string', description: 'e.g. STOP, MAX_TOKENS' },
  error: {
    type: 'object',
    properties: { code: { type: 'string' }, message: { type: 'string' } },
    required: ['code', 'message'],
    additionalProperties: false,
    description: 'the model answers with an error',
  },
};

/** The keys of a usage count in a scripted answer. */
export const USAGE_FIELDS: readonly string[] = Object.keys(
  (RESPONSE_SCHEMAS['usage'] as { properties: object }).properties,
);

/** The JSON Schema of a script file (draft 2020-12): a list of answers, or `{ rules, responses, fallback }`. */
export function scriptFileSchema(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'agentctx scripted-model script',
    description:
      'Answers for the scripted model (scripted:<file>): in order, or by rules. docs/scripted-model.md documents them.',
    anyOf: [
      { type: 'array', items: { $ref: '#/$defs/response' } },
      {
        type: 'object',
        properties: {
          rules: { type: 'array', items: { $ref: '#/$defs/rule' } },
          responses: { type: 'array', items: { $ref: '#/$defs/response' } },
          fallback: { $ref: '#/$defs/response' },
        },
        additionalProperties: false,
      },
    ],
    $defs: {
      rule: {
        type: 'object',
        properties: {
          when: { type: 'object', properties: CONDITION_SCHEMAS, additionalProperties: false },
          respond: { $ref: '#/$defs/response' },
          times: { type: 'integer', minimum: 1, description: 'how many calls the rule may answer' },
        },
        required: ['respond'],
        additionalProperties: false,
      },
      response: { type: 'object', properties: RESPONSE_SCHEMAS, minProperties: 1, additionalProperties: false },
    },
  };
}
