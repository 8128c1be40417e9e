import type { JsonSchema } from '../../engine/config/agent-file-schema.js';
import { orNull } from './eval-set-fields.js';

// The fields of the legacy `.test.json` lists, snake_case only (ADK reads them as plain dicts): legacy-eval-set.ts
// reads by these tables and the published schema is built from them. `$ref`s name definitions of that schema.

/** A case of the cases form: `[{ name, data, initial_session }]`. */
export const LEGACY_CASE_FIELDS: Readonly<Record<string, JsonSchema>> = {
  name: { type: 'string', description: 'The id of the eval case.' },
  data: {
    type: 'array',
    items: { $ref: '#/$defs/entry' },
    description: 'Its turns, in order.',
  },
  initial_session: {
    $ref: '#/$defs/initialSession',
    description: 'The session the case starts in; absent or {} for none.',
  },
};

/** A turn: what the user asks, and what the agent should answer and call. */
export const LEGACY_ENTRY_FIELDS: Readonly<Record<string, JsonSchema>> = {
  query: { type: 'string', description: "The user's message." },
  expected_tool_use: {
    type: 'array',
    items: { $ref: '#/$defs/toolUse' },
    description: 'The tool calls expected, in order.',
  },
  expected_intermediate_agent_responses: {
    type: 'array',
    items: { $ref: '#/$defs/intermediateResponse' },
    description: "Sub-agents' replies expected before the final answer.",
  },
  reference: { type: 'string', description: 'The final answer expected ("" by default).' },
};

/** An expected tool call. */
export const LEGACY_TOOL_USE_FIELDS: Readonly<Record<string, JsonSchema>> = {
  tool_name: { type: 'string', description: 'The name of the tool.' },
  tool_input: orNull({ type: 'object' }, 'Its arguments (null for none).'),
};

/** Keys of an expected tool call that are accepted and dropped, as ADK's conversion drops them. */
export const LEGACY_TOOL_USE_IGNORED: Readonly<Record<string, JsonSchema>> = {
  mock_tool_output: { description: 'What the tool returned when the case was recorded; not used.' },
};

/** An expected reply of a sub-agent. */
export const LEGACY_RESPONSE_FIELDS: Readonly<Record<string, JsonSchema>> = {
  author: { type: 'string', description: 'The agent that replies.' },
  text: { type: 'string', description: 'Its reply.' },
};

/** A case's session: its app, user and state. */
export const LEGACY_SESSION_FIELDS: Readonly<Record<string, JsonSchema>> = {
  app_name: { type: 'string', description: 'The app ("" by default).' },
  user_id: { type: 'string', description: 'The user ("" by default).' },
  state: { type: 'object', description: 'The state the session starts with ({} by default).' },
};
