import { AGENT_MODES, INCLUDE_CONTENTS } from '../agent/define-agent.js';

// The agent file's fields, each with its JSON Schema: the reader takes its allowed keys and ADK's spellings from
// these tables, and `agentctx schema` builds the published schema from them, so the two cannot drift apart.

/** A JSON Schema (draft 2020-12) fragment. */
export type JsonSchema = { readonly [keyword: string]: unknown };

/** The classes ADK's agent config files name, and the kind each is. */
export const AGENT_CLASSES = {
  LlmAgent: 'llm',
  Agent: 'llm',
  SequentialAgent: 'sequential',
  ParallelAgent: 'parallel',
  LoopAgent: 'loop',
} as const;

const text = (description: string, examples?: readonly string[]): JsonSchema => ({
  type: 'string',
  description,
  ...(examples === undefined ? {} : { examples }),
});
const flag = (description: string): JsonSchema => ({ type: 'boolean', description });

/** Fields every agent has, whatever its kind. */
const COMMON_FIELDS: Readonly<Record<string, JsonSchema>> = {
  name: text(
    'The agent\u2019s name: an identifier, unique in the tree. The root agent\u2019s name is the app name of its sessions.',
    ['support_agent'],
  ),
  description: text(
    'What the agent does, in a sentence. Other agents read it: it is in this agent\u2019s identity text, in its parent\u2019s list of transfer targets, and it is the description of an agent tool made from it.',
    ['Answers billing questions.'],
  ),
  kind: {
    enum: ['llm', 'sequential', 'parallel', 'loop'],
    description:
      'The agent\u2019s kind (default llm): a model-driven agent, or a workflow agent that runs its sub-agents in order, at once, or in a loop.',
  },
  agentClass: {
    enum: Object.keys(AGENT_CLASSES),
    description:
      'ADK\u2019s spelling of kind (agent_class): LlmAgent or Agent, SequentialAgent, ParallelAgent, LoopAgent.',
  },
  subAgents: {
    type: 'array',
    items: { $ref: '#/$defs/agentOrFile' },
    description: 'The agents below this one: inline, or { configPath: other-file.yaml } (relative to this file).',
    examples: [
      [
        { name: 'billing_agent', description: 'Answers billing questions.', instruction: 'Answer billing questions.' },
        { configPath: 'shipping_agent.yaml' },
      ],
    ],
  },
};

/** The fields of an LLM agent (`kind: llm`, the default), besides those the features add. */
export const LLM_FIELD_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ...COMMON_FIELDS,
  model: text('The model, as agentctx run --model takes it; inherited from the nearest ancestor that names one.', [
    'gemini-2.5-flash',
    'anthropic:claude-sonnet-4-6',
    'scripted:script.yaml',
  ]),
  instruction: text(
    'The agent\u2019s instruction, a template: {key} and {key?} read session state (app:, user:, temp: scopes), {artifact.name} an artifact. First in the system text.',
    ['You help customers of {app:company}. Be brief.'],
  ),
  globalInstruction: text(
    'An instruction for every agent of the tree (only the root\u2019s counts), before each agent\u2019s own; a template like instruction. ADK deprecates it for GlobalInstructionPlugin.',
    ['Today is {temp:today?}. Never share internal ids.'],
  ),
  staticInstruction: {
    anyOf: [
      { type: 'string' },
      {
        type: 'array',
        items: {
          anyOf: [
            { type: 'string' },
            { type: 'object', description: 'a content part, e.g. { text } or { inlineData: { mimeType, data } }' },
          ],
        },
      },
    ],
    description:
      'Text (or parts) that goes into the system text exactly as written, never templated, so braces are safe. With it, instruction moves into the contents, as in ADK.',
    examples: ['Answer in JSON: {"answer": "…", "sources": ["…"]}'],
  },
  disallowTransferToParent: flag('true: the agent may not hand the conversation back to its parent.'),
  disallowTransferToPeers: flag('true: the agent may not hand the conversation to its siblings.'),
  includeContents: {
    enum: INCLUDE_CONTENTS,
    description: 'default: the conversation history goes into the request; none: only the current turn.',
  },
  mode: {
    enum: AGENT_MODES,
    description:
      'ADK 2.0\u2019s agent mode: chat (default); task and single_turn agents are never transfer targets and get no transfer text; single_turn agents get no identity text.',
  },
  tools: {
    type: 'array',
    items: {
      anyOf: [
        {
          type: 'string',
          description:
            'the name of a tool this file can offer (Read, Edit with workspace; load_skill with skills.loadTool)',
        },
        {
          type: 'object',
          properties: { name: { type: 'string' } },
          required: ['name'],
          additionalProperties: false,
          description: 'the same, in ADK\u2019s spelling: { name: Read }',
        },
        {
          type: 'object',
          properties: {
            name: { const: 'AgentTool' },
            args: {
              type: 'object',
              properties: {
                agent: { $ref: '#/$defs/agentOrFile' },
                skip_summarization: {
                  type: 'boolean',
                  description: 'true: the agent\u2019s answer ends the caller\u2019s turn',
                },
                skipSummarization: { type: 'boolean', description: 'the same' },
              },
              required: ['agent'],
              additionalProperties: false,
            },
          },
          required: ['name', 'args'],
          additionalProperties: false,
          description: 'another agent offered as a tool (ADK\u2019s AgentTool): inline, or { config_path: file.yaml }',
        },
        {
          type: 'object',
          properties: {
            name: { enum: ['McpToolset', 'MCPToolset'] },
            args: {
              type: 'object',
              properties: {
                stdio_server_params: { $ref: '#/$defs/mcpStdioServer' },
                stdio_connection_params: {
                  type: 'object',
                  properties: {
                    server_params: { $ref: '#/$defs/mcpStdioServer' },
                    timeout: { type: 'number', exclusiveMinimum: 0, description: 'seconds one call may take' },
                  },
                  required: ['server_params'],
                  additionalProperties: false,
                },
                streamable_http_connection_params: {
                  type: 'object',
                  properties: {
                    url: { type: 'string' },
                    headers: { type: 'object', additionalProperties: { type: 'string' } },
                    timeout: { type: 'number', exclusiveMinimum: 0, description: 'seconds one call may take' },
                    sse_read_timeout: { type: 'number' },
                    terminate_on_close: { type: 'boolean' },
                  },
                  required: ['url'],
                  additionalProperties: false,
                },
                tool_filter: { type: 'array', items: { type: 'string' } },
                tool_name_prefix: { type: 'string' },
              },
              additionalProperties: false,
            },
          },
          required: ['name', 'args'],
          additionalProperties: false,
          description: 'an MCP server\u2019s tools, as ADK\u2019s McpToolset config spells it (or use the mcp key)',
        },
        {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'the tool\u2019s name' },
            description: { type: 'string', description: 'what it does, for the model' },
            parameters: { type: 'object', description: 'a JSON Schema for its arguments' },
          },
          required: ['name', 'description'],
          additionalProperties: false,
          description:
            'a declared tool: its definition reaches the request; a run needs its implementation (declare the agent in a JavaScript or TypeScript module)',
        },
      ],
    },
    description: 'The tools offered to the model, in order.',
    examples: [
      [
        {
          name: 'find_invoice',
          description: 'Finds an invoice by its number.',
          parameters: { type: 'object', properties: { number: { type: 'string' } }, required: ['number'] },
        },
      ],
    ],
  },
  outputKey: text('The session state key the agent\u2019s final answer is written to.', ['draft_text']),
  outputSchema: {
    description:
      'The shape of the agent\u2019s answer (ADK\u2019s output_schema): the dotted name of a pydantic class in the agent\u2019s Python (pkg.module.MySchema), or a JSON Schema. Without tools the model is asked for JSON of it; with tools it answers through set_model_response.',
    anyOf: [
      { type: 'string', pattern: '^[A-Za-z_]\\w*(\\.[A-Za-z_]\\w*)+$' },
      { type: 'object', description: 'A JSON Schema (agentctx\u2019s extension)' },
    ],
    examples: [
      'my_agent.schemas.PersonInfo',
      { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    ],
  },
  inputSchema: {
    description:
      'The arguments the agent takes when another agent calls it as a tool (ADK\u2019s input_schema): a pydantic class in the agent\u2019s Python (pkg.module.MyInput), or a JSON Schema of an object.',
    anyOf: [
      { type: 'string', pattern: '^[A-Za-z_]\\w*(\\.[A-Za-z_]\\w*)+$' },
      { type: 'object', description: 'A JSON Schema of an object (agentctx\u2019s extension)' },
    ],
  },
  generateConfig: {
    type: 'object',
    properties: {
      temperature: { type: 'number', minimum: 0 },
      topP: { type: 'number', minimum: 0 },
      topK: { type: 'integer', minimum: 1 },
      maxOutputTokens: { type: 'integer', minimum: 1 },
      stopSequences: { type: 'array', items: { type: 'string' } },
      responseMimeType: { type: 'string', description: 'text/plain, or application/json for a JSON answer' },
      toolConfig: {
        type: 'object',
        properties: {
          functionCallingConfig: {
            type: 'object',
            properties: {
              mode: { enum: ['AUTO', 'NONE', 'ANY'] },
              allowedFunctionNames: { type: 'array', items: { type: 'string' }, maxItems: 1 },
            },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
        description:
          'Which tools the model may call: AUTO, NONE, or ANY (at least one; with one allowed name, that tool)',
      },
      thinkingConfig: {
        type: 'object',
        properties: {
          thinkingBudget: { type: 'integer', minimum: -1 },
          thinkingLevel: { enum: ['MINIMAL', 'LOW', 'MEDIUM', 'HIGH'] },
          includeThoughts: { type: 'boolean' },
        },
        additionalProperties: false,
        description:
          'How much the model thinks (a token budget, -1 for dynamic, or a level) and whether its thoughts come back',
      },
      safetySettings: {
        type: 'array',
        items: {
          type: 'object',
          properties: { category: { type: 'string' }, threshold: { type: 'string' } },
          required: ['category', 'threshold'],
          additionalProperties: false,
        },
      },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      seed: { type: 'integer' },
      presencePenalty: { type: 'number' },
      frequencyPenalty: { type: 'number' },
      candidateCount: { type: 'integer', minimum: 1 },
      mediaResolution: { enum: ['MEDIA_RESOLUTION_LOW', 'MEDIA_RESOLUTION_MEDIUM', 'MEDIA_RESOLUTION_HIGH'] },
    },
    additionalProperties: false,
    description:
      'Generation settings sent with each request (ADK\u2019s generate_content_config, in Gemini\u2019s form; snake_case keys accepted at every level). docs/providers.md says what each provider takes.',
    examples: [{ temperature: 0.2, maxOutputTokens: 1024 }],
  },
};

/** The fields of a workflow agent (`sequential`, `parallel`, `loop`). */
export const WORKFLOW_FIELD_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  ...COMMON_FIELDS,
  maxIterations: {
    type: 'integer',
    minimum: 1,
    description: 'A loop agent\u2019s bound on its rounds (none: until a sub-agent escalates).',
    examples: [3],
  },
};

/** Where another file holds the agent: `{ configPath: file }`, relative to the file naming it. */
export const REFERENCE_FIELD_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  configPath: {
    ...text('Another agent file (.yaml, .yml or .json), relative to this one; the agent it defines stands here.', [
      'billing_agent.yaml',
    ]),
    pattern: '\\.(?:[yY][aA]?[mM][lL]|[jJ][sS][oO][nN])$',
  },
};

/** The generation settings' keys. */
export const GENERATE_CONFIG_FIELDS: readonly string[] = Object.keys(
  (LLM_FIELD_SCHEMAS['generateConfig'] as { properties: object }).properties,
);

/** ADK's agent config files spell fields in snake_case: each is read as the field it names. */
export const ADK_SPELLINGS: Readonly<Record<string, string>> = {
  agent_class: 'agentClass',
  global_instruction: 'globalInstruction',
  static_instruction: 'staticInstruction',
  sub_agents: 'subAgents',
  disallow_transfer_to_parent: 'disallowTransferToParent',
  disallow_transfer_to_peers: 'disallowTransferToPeers',
  include_contents: 'includeContents',
  output_key: 'outputKey',
  output_schema: 'outputSchema',
  input_schema: 'inputSchema',
  generate_content_config: 'generateConfig',
  generateContentConfig: 'generateConfig',
  max_iterations: 'maxIterations',
  config_path: 'configPath',
};

/** A feature key's snake_case spelling (`listingBudget` → `listing_budget`). */
export function snakeCase(key: string): string {
  return key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}
