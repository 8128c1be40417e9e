import type { JsonSchema } from '../../engine/config/agent-file-schema.js';
import type { AdkModel } from './adk-fields.js';

// The models of an ADK 2.5.0 eval set file (eval_set.py, eval_case.py, eval_rubrics.py, app_details.py,
// conversation_scenarios.py) as tables: eval-case-reader.ts and eval-set-file.ts read their fields from them, and the
// published schema (eval-file-schemas.ts) is built from them. Field names are camelCase; a file may spell each in
// snake_case too. Genai messages (`Content`) are described in genai-content-schema.ts.

/** A reference to another definition of the published schema. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });

/** A field that takes null as well (ADK's `Optional[…]`), described. */
export function orNull(schema: JsonSchema, description: string): JsonSchema {
  const type = schema['type'];
  if (typeof type === 'string') return { ...schema, type: [type, 'null'], description };
  return { anyOf: [schema, { type: 'null' }], description };
}

const timestamp = (what: string): JsonSchema => ({
  type: 'number',
  description: `When ${what} was created, in seconds since the epoch (0 by default).`,
});

const rubrics = (scope: string): JsonSchema =>
  orNull(
    { type: 'array', items: ref('Rubric') },
    `Rubrics that rubric-based metrics judge ${scope} against; null or absent for none.`,
  );

export const EVAL_SET: AdkModel = {
  name: 'EvalSet',
  description: 'An ADK eval set: the cases an agent is evaluated on.',
  extras: 'forbid',
  required: ['evalSetId', 'evalCases'],
  fields: {
    evalSetId: { type: 'string', description: 'The id of the eval set.' },
    name: orNull({ type: 'string' }, 'A name for people to read.'),
    description: orNull({ type: 'string' }, 'What the eval set checks.'),
    evalCases: { type: 'array', items: ref('EvalCase'), description: 'The cases, each evaluated on its own.' },
    creationTimestamp: timestamp('the eval set'),
  },
};

export const EVAL_CASE: AdkModel = {
  name: 'EvalCase',
  description:
    'One case: a fixed conversation, or a scenario a simulated user follows (exactly one of the two). Other keys are kept with the case, as ADK keeps them.',
  extras: 'allow',
  required: ['evalId'],
  exactlyOneOf: ['conversation', 'conversationScenario'],
  fields: {
    evalId: { type: 'string', description: 'The id of the case, unique in its eval set.' },
    conversation: orNull(
      { type: 'array', items: ref('Invocation') },
      'The turns of the conversation, each a user message with the answer and tool calls expected of the agent.',
    ),
    conversationScenario: orNull(
      ref('ConversationScenario'),
      'Instead of a conversation: what a simulated user asks for and how.',
    ),
    sessionInput: orNull(ref('SessionInput'), 'The session the case starts from: app, user and state.'),
    creationTimestamp: timestamp('the case'),
    rubrics: rubrics('every invocation of the case'),
    finalSessionState: orNull(
      { type: 'object' },
      'The session state expected when the conversation ends ({} by default).',
    ),
  },
};

export const INVOCATION: AdkModel = {
  name: 'Invocation',
  description: "One turn: the user's message and what the agent is expected to do with it.",
  extras: 'forbid',
  required: ['userContent'],
  fields: {
    invocationId: { type: 'string', description: 'The id of the turn ("" by default).' },
    userContent: { ...ref('Content'), description: "The user's message." },
    finalResponse: orNull(ref('Content'), "The agent's expected final answer."),
    intermediateData: orNull(
      { anyOf: [ref('InvocationEvents'), ref('IntermediateData')] },
      'What the agent is expected to do on the way: tool calls, tool responses and sub-agents’ replies, or the events it records.',
    ),
    creationTimestamp: timestamp('the turn'),
    rubrics: rubrics('this invocation only'),
    appDetails: orNull(ref('AppDetails'), 'The agents of the app that answered, with their instructions and tools.'),
  },
};

export const INTERMEDIATE_DATA: AdkModel = {
  name: 'IntermediateData',
  description: 'The steps of a turn before its final answer, as lists.',
  extras: 'forbid',
  fields: {
    toolUses: {
      type: 'array',
      items: ref('FunctionCall'),
      description: 'The tool calls, in the order they are made; tool_trajectory_avg_score compares them.',
    },
    toolResponses: {
      type: 'array',
      items: ref('FunctionResponse'),
      description: 'The tool responses, in the order they come.',
    },
    intermediateResponses: {
      type: 'array',
      items: {
        type: 'array',
        prefixItems: [
          { type: 'string', description: 'The agent that replied (usually a sub-agent).' },
          { type: 'array', items: ref('Part'), description: 'The parts of its reply.' },
        ],
        minItems: 2,
        items: false,
      },
      description: 'Replies of sub-agents before the final answer, each [author, parts].',
    },
  },
};

export const INVOCATION_EVENTS: AdkModel = {
  name: 'InvocationEvents',
  description: 'The steps of a turn before its final answer, as the events it records.',
  extras: 'forbid',
  required: ['invocationEvents'],
  fields: {
    invocationEvents: {
      type: 'array',
      items: ref('InvocationEvent'),
      description: 'The events, in order; their function calls and responses are the turn’s tool calls.',
    },
  },
};

export const INVOCATION_EVENT: AdkModel = {
  name: 'InvocationEvent',
  description: 'An event of a turn: who wrote it and its message.',
  extras: 'forbid',
  required: ['author'],
  fields: {
    author: { type: 'string', description: 'The agent (or user) that wrote the event.' },
    content: orNull(ref('Content'), 'Its message: text, function calls or function responses.'),
  },
};

export const SESSION_INPUT: AdkModel = {
  name: 'SessionInput',
  description: 'The session a case starts in. Other keys are kept, as ADK keeps them.',
  extras: 'allow',
  required: ['appName', 'userId'],
  fields: {
    appName: { type: 'string', description: 'The app the session belongs to.' },
    userId: { type: 'string', description: 'The user the session belongs to.' },
    state: { type: 'object', description: 'The state the session starts with ({} by default).' },
  },
};

export const CONVERSATION_SCENARIO: AdkModel = {
  name: 'ConversationScenario',
  description: 'A conversation that a simulated user holds with the agent instead of a fixed one.',
  extras: 'forbid',
  required: ['startingPrompt', 'conversationPlan'],
  fields: {
    startingPrompt: { type: 'string', description: "The simulated user's first message." },
    conversationPlan: { type: 'string', description: 'What the simulated user is after and how it goes about it.' },
    userPersona: orNull(
      { type: ['string', 'object'] },
      'Who the simulated user is: the name of a persona, or a persona object.',
    ),
  },
};

export const RUBRIC: AdkModel = {
  name: 'Rubric',
  description: 'A property an answer should have, judged by a rubric-based metric.',
  extras: 'forbid',
  required: ['rubricId', 'rubricContent'],
  fields: {
    rubricId: { type: 'string', description: 'The id of the rubric.' },
    rubricContent: { ...ref('RubricContent'), description: 'What the rubric asks for.' },
    description: orNull({ type: 'string' }, 'Notes on the rubric for people.'),
    type: orNull({ type: 'string' }, 'A free-form kind for grouping rubrics.'),
  },
};

export const RUBRIC_CONTENT: AdkModel = {
  name: 'RubricContent',
  description: 'The property a rubric asks for.',
  extras: 'forbid',
  fields: {
    textProperty: orNull({ type: 'string' }, 'The property, in words the judge model reads.'),
  },
};

export const APP_DETAILS: AdkModel = {
  name: 'AppDetails',
  description: 'The agents of the app that answered a turn.',
  extras: 'forbid',
  fields: {
    agentDetails: {
      type: 'object',
      additionalProperties: ref('AgentDetails'),
      description: 'Each agent by its name.',
    },
  },
};

export const AGENT_DETAILS: AdkModel = {
  name: 'AgentDetails',
  description: 'An agent of the app: its instruction and tools as the model saw them.',
  extras: 'forbid',
  required: ['name'],
  fields: {
    name: { type: 'string', description: 'The name of the agent.' },
    instructions: { type: 'string', description: 'Its instruction ("" by default).' },
    toolDeclarations: {
      type: 'array',
      description: 'Its tools, as genai Tool objects (function declarations and others).',
    },
  },
};

/** Every model of an eval set file, each a definition of its schema. */
export const EVAL_SET_MODELS: readonly AdkModel[] = [
  EVAL_SET,
  EVAL_CASE,
  INVOCATION,
  INTERMEDIATE_DATA,
  INVOCATION_EVENTS,
  INVOCATION_EVENT,
  SESSION_INPUT,
  CONVERSATION_SCENARIO,
  RUBRIC,
  RUBRIC_CONTENT,
  APP_DETAILS,
  AGENT_DETAILS,
];
