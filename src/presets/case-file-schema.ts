import type { JsonSchema } from '../engine/config/agent-file-schema.js';

// The case file's fields with their JSON Schema: the reader takes its allowed keys from this table, and the
// published schema is built from it.

const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });

export const CASE_FIELD_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  agent: {
    anyOf: [
      { type: 'string', description: 'the path of an agent file, relative to this file' },
      { $ref: '#/$defs/rootAgent' },
    ],
    description: 'The agent tree: inline, in the agent-file format, or the path of an agent file.',
  },
  currentAgent: { type: 'string', description: 'The agent being asked (default: the root).' },
  state: {
    type: 'object',
    description: 'The session state: unprefixed keys, and app:, user:, temp: keys.',
    examples: [{ 'app:company': 'Acme', 'user:name': 'Ann', topic: 'fares' }],
  },
  artifacts: {
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Artifact name → text, for {artifact.name}; without it, {artifact.…} fails as in ADK.',
  },
  events: {
    type: 'array',
    items: {
      type: 'object',
      description:
        'an event in its JSON form: { author, content: { role, parts }, actions?, invocationId?, branch? }; id and timestamp may be left out',
    },
    description: 'The session\u2019s history, oldest first. Events without id and timestamp get e1, e2, … and 1, 2, ….',
    examples: [[{ author: 'user', content: { role: 'user', parts: [{ text: 'Hello' }] } }]],
  },
  profile: {
    $ref: '#/$defs/profile',
    description:
      'agentctx or adk: ADK\u2019s conventions byte for byte (Python\u2019s str() for values, summaries as ADK shows them), or { name, python }; the agent file\u2019s own when absent, else agentctx.',
  },
  adkCompatibility: { type: 'boolean', description: 'The older spelling of profile: adk (true) or agentctx (false).' },
  valueFormat: {
    enum: ['default', 'python'],
    description:
      'How state values are written into templates, over the profile\u2019s: default (JavaScript, JSON for objects) or python (ADK\u2019s str()).',
  },
  escapes: { type: 'boolean', description: 'true: \\{ and \\} in templates are literal braces.' },
  branch: {
    type: 'string',
    description: 'The branch of the agent being asked (parallel agents\u2019 branches see only their own events).',
  },
  appName: { type: 'string', description: 'The app of the session (default agentctx).' },
  userId: { type: 'string', description: 'The user of the session (default user).' },
  sessionId: { type: 'string', description: 'The session\u2019s id (default session).' },
  eventsCompactionConfig: {
    type: 'object',
    properties: {
      compactionInterval: count('sliding window: summarize after this many new invocations'),
      overlapSize: count('sliding window: invocations a summary repeats from the one before'),
      tokenThreshold: count('token trigger: compact before a call whose prompt reaches this many tokens'),
      eventRetentionSize: count('token trigger: raw events kept after the summary'),
    },
    description:
      'When the session\u2019s history would be compacted (see agentctx compact --help); ADK\u2019s snake_case keys accepted.',
  },
  plugins: {
    type: 'array',
    items: {
      type: 'object',
      properties: { globalInstruction: { type: 'string' }, name: { type: 'string' } },
      required: ['globalInstruction'],
      additionalProperties: false,
    },
    description: 'Plugins the case runs with: { globalInstruction: <text> } is ADK\u2019s GlobalInstructionPlugin.',
  },
};
