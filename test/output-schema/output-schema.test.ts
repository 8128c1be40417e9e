import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { Event } from '../../src/contracts/event.js';
import { createAgentTree } from '../../src/engine/agent/agent-tree.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { fromJsonSchema } from '../../src/engine/agent/output-schema.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import {
  canUseOutputSchemaWithTools,
  SET_MODEL_RESPONSE_DESCRIPTION,
  SET_MODEL_RESPONSE_INSTRUCTION,
} from '../../src/features/output-schema/output-schema.js';
import { planReActPlanner, PLAN_RE_ACT_INSTRUCTION } from '../../src/features/planners/plan-re-act.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { assembleRequest } from '../../src/presets/assemble-request.js';
import { collect, describeEvents, runnerWithSession } from '../runner/helpers.js';

// Structured output (issue 48). The cases translate ADK 2.5.0's tests/unittests/flows/llm_flows/
// test_output_schema_processor.py, tests/unittests/tools/test_set_model_response_tool.py and
// tests/unittests/utils/test_output_schema_utils.py, each named after its origin, and add agentctx's own: the answer
// checked, a mismatch asked again, Standard Schemas.

/** `PersonSchema` of ADK's tests, as pydantic 2.13.4's `model_json_schema()` writes it. */
const PERSON = {
  description: 'Test schema for structured output.',
  properties: {
    name: { description: "A person's name", title: 'Name', type: 'string' },
    age: { description: "A person's age", title: 'Age', type: 'integer' },
    city: { description: 'The city they live in', title: 'City', type: 'string' },
  },
  required: ['name', 'age', 'city'],
  title: 'PersonSchema',
  type: 'object',
};
/** The parameters ADK 2.5.0 declares `set_model_response` with for it: each field's annotation, all required. */
const PERSON_PARAMS = {
  properties: {
    name: { title: 'Name', type: 'string' },
    age: { title: 'Age', type: 'integer' },
    city: { title: 'City', type: 'string' },
  },
  required: ['name', 'age', 'city'],
  title: 'set_model_responseParams',
  type: 'object',
};
const personSchema = () => fromJsonSchema(PERSON, 'pydantic', { toolParameters: PERSON_PARAMS });

const dummyTool = functionTool({
  name: 'dummy_tool',
  description: 'A dummy tool for testing.',
  parameters: z.object({ query: z.string() }),
  execute: ({ query }) => `Searched for: ${String(query)}`,
});

async function requestFor(config: Parameters<typeof llmAgent>[0]) {
  const agent = llmAgent({ model: 'gemini-2.5-flash', ...config });
  const { request } = await assembleRequest({
    agents: createAgentTree(agent),
    agentName: agent.name,
    events: [],
    state: {},
    profile: 'adk',
  });
  return request;
}

describe('the request (ADK 2.5.0 test_output_schema_processor.py)', () => {
  it('asks for JSON of the schema when the agent has no tools (test_basic_processor_sets_output_schema_without_tools)', async () => {
    const request = await requestFor({ name: 'test_agent', outputSchema: personSchema() });
    expect(request.config.responseSchema).toEqual(PERSON);
    expect(request.config.responseMimeType).toBe('application/json');
    expect(request.tools).toEqual([]);
    expect(request.system).toBe('You are an agent. Your internal name is "test_agent".');
  });

  it('with tools: set_model_response first, the instruction, no response schema (test_end_to_end_integration)', async () => {
    const request = await requestFor({ name: 'test_agent', outputSchema: personSchema(), tools: [dummyTool] });
    expect(request.config.responseSchema).toBeUndefined();
    expect(request.config.responseMimeType).toBeUndefined();
    expect(request.tools.map((tool) => tool.name)).toEqual(['set_model_response', 'dummy_tool']);
    expect(request.tools[0]).toEqual({
      name: 'set_model_response',
      description: SET_MODEL_RESPONSE_DESCRIPTION,
      parameters: PERSON_PARAMS,
    });
    expect(request.system).toBe(
      `You are an agent. Your internal name is "test_agent".\n\n${SET_MODEL_RESPONSE_INSTRUCTION}`,
    );
    expect(SET_MODEL_RESPONSE_INSTRUCTION).toHaveLength(297);
  });

  it('an agent with sub-agents and no tools keeps the response schema beside transfer_to_agent (test_output_schema_with_sub_agents)', async () => {
    const request = await requestFor({
      name: 'test_agent',
      outputSchema: personSchema(),
      subAgents: [llmAgent({ name: 'sub_agent', description: 'A sub agent' })],
    });
    expect(request.config.responseSchema).toEqual(PERSON);
    expect(request.tools.map((tool) => tool.name)).toEqual(['transfer_to_agent']);
  });

  it('puts the paragraph after a planner and before the transfer text, in ADK order', async () => {
    const request = await requestFor({
      name: 'test_agent',
      outputSchema: personSchema(),
      tools: [dummyTool],
      extensions: [planReActPlanner()],
      subAgents: [llmAgent({ name: 'sub_agent', description: 'A sub agent' })],
    });
    const at = (text: string) => request.system.indexOf(text);
    expect(at(PLAN_RE_ACT_INSTRUCTION)).toBeGreaterThan(0);
    expect(at(SET_MODEL_RESPONSE_INSTRUCTION)).toBeGreaterThan(at(PLAN_RE_ACT_INSTRUCTION));
    expect(at('You have a list of other agents to transfer to')).toBeGreaterThan(at(SET_MODEL_RESPONSE_INSTRUCTION));
    expect(request.tools.map((tool) => tool.name)).toEqual(['set_model_response', 'transfer_to_agent', 'dummy_tool']);
  });

  it.each([
    ['gemini-2.5-pro', '1', true],
    ['gemini-2.5-pro', '0', false],
    ['gemini-2.5-pro', undefined, false],
    ['gemini-2.5-flash', '1', true],
    ['gemini-2.5-flash', 'true', true],
    ['gemini-1.5-pro', '1', false],
    ['gemini-1.5-pro', undefined, false],
    ['google:gemini-3-pro-preview', '1', true],
    ['projects/p/locations/l/publishers/google/models/gemini-2.0-flash', '1', true],
    ['gemini-flash-early-exp3', '1', true],
    ['claude-3.7-sonnet', '1', false],
  ])(
    'can_use_output_schema_with_tools(%s) with GOOGLE_GENAI_USE_ENTERPRISE=%s is %s (test_output_schema_utils.py)',
    (model, flag, expected) => {
      const env = flag === undefined ? {} : { GOOGLE_GENAI_USE_ENTERPRISE: flag };
      expect(canUseOutputSchemaWithTools(model, env)).toBe(expected);
    },
  );

  it('the deprecated GOOGLE_GENAI_USE_VERTEXAI counts when GOOGLE_GENAI_USE_ENTERPRISE is unset', () => {
    expect(canUseOutputSchemaWithTools('gemini-2.5-pro', { GOOGLE_GENAI_USE_VERTEXAI: 'TRUE' })).toBe(true);
    expect(
      canUseOutputSchemaWithTools('gemini-2.5-pro', {
        GOOGLE_GENAI_USE_ENTERPRISE: '0',
        GOOGLE_GENAI_USE_VERTEXAI: '1',
      }),
    ).toBe(false);
  });

  it('leaves a task agent alone (its answer is collected otherwise)', async () => {
    const request = await requestFor({ name: 'test_agent', outputSchema: personSchema(), mode: 'task' });
    expect(request.config.responseSchema).toBeUndefined();
  });
});

async function run(
  agent: ReturnType<typeof llmAgent>,
  model: ReturnType<typeof createScriptedModel>,
  retries?: number,
) {
  const runner = await runnerWithSession({
    agents: agent,
    model,
    ...(retries === undefined ? {} : { outputSchemaRetries: retries }),
  });
  // Without the user's message, which the runner yields first.
  const events = (await collect(runner, { message: 'Tell me about Test User' })).slice(1);
  const session = await runner.sessions.getSession({ appName: agent.name, userId: 'u1', sessionId: 's1' });
  return { events, state: session?.state ?? {} };
}

describe('the run', () => {
  it('makes the set_model_response call the final answer (test_flow_yields_both_events_for_set_model_response)', async () => {
    const agent = llmAgent({
      name: 'test_agent',
      outputSchema: personSchema(),
      tools: [dummyTool],
      outputKey: 'person',
    });
    const model = createScriptedModel([
      { functionCall: { name: 'set_model_response', args: { name: 'Test User', age: 30, city: 'Test City' } } },
    ]);
    const { events, state } = await run(agent, model);
    expect(describeEvents(events)).toEqual([
      'test_agent: call set_model_response({"name":"Test User","age":30,"city":"Test City"})',
      'test_agent: set_model_response → {"name":"Test User","age":30,"city":"Test City"}',
      'test_agent: {"name": "Test User", "age": 30, "city": "Test City"}',
    ]);
    const final = events.at(-1) as Event;
    expect(final.content?.role).toBe('model');
    expect(final.invocationId).toBe(events[0]?.invocationId);
    expect(state['person']).toEqual({ name: 'Test User', age: 30, city: 'Test City' });
    expect(model.requests).toHaveLength(1);
  });

  it('writes non-ASCII text as it is (test_get_structured_model_response_with_non_ascii)', async () => {
    const agent = llmAgent({
      name: 'test_agent',
      outputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      tools: [dummyTool],
    });
    const model = createScriptedModel([{ functionCall: { name: 'set_model_response', args: { city: 'São Paulo' } } }]);
    const { events } = await run(agent, model);
    expect(describeEvents(events).at(-1)).toBe('test_agent: {"city": "São Paulo"}');
  });

  it('a list answer goes through the response parameter and comes back unwrapped (test_get_structured_model_response_with_wrapped_result)', async () => {
    const people = {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } } },
    };
    const agent = llmAgent({ name: 'test_agent', outputSchema: people, tools: [dummyTool], outputKey: 'people' });
    const model = createScriptedModel([
      {
        functionCall: {
          name: 'set_model_response',
          args: {
            response: [
              { name: 'Alice', age: 30 },
              { name: 'Bob', age: 25 },
            ],
          },
        },
      },
    ]);
    const { events, state } = await run(agent, model);
    expect(model.requests[0]?.tools[0]?.parameters).toEqual({
      type: 'object',
      properties: { response: people },
      required: ['response'],
    });
    expect(describeEvents(events).slice(1)).toEqual([
      'test_agent: set_model_response → {"result":[{"name":"Alice","age":30},{"name":"Bob","age":25}]}',
      'test_agent: [{"name": "Alice", "age": 30}, {"name": "Bob", "age": 25}]',
    ]);
    expect(state['people']).toEqual([
      { name: 'Alice', age: 30 },
      { name: 'Bob', age: 25 },
    ]);
  });

  it('other tools answer with their response alone (test_flow_yields_only_function_response_for_normal_tools)', async () => {
    const agent = llmAgent({ name: 'test_agent', outputSchema: personSchema(), tools: [dummyTool] });
    const model = createScriptedModel([
      { functionCall: { name: 'dummy_tool', args: { query: 'test query' } } },
      { functionCall: { name: 'set_model_response', args: { name: 'A', age: 1, city: 'B' } } },
    ]);
    const { events } = await run(agent, model);
    expect(describeEvents(events)).toEqual([
      'test_agent: call dummy_tool({"query":"test query"})',
      'test_agent: dummy_tool → {"result":"Searched for: test query"}',
      'test_agent: call set_model_response({"name":"A","age":1,"city":"B"})',
      'test_agent: set_model_response → {"name":"A","age":1,"city":"B"}',
      'test_agent: {"name": "A", "age": 1, "city": "B"}',
    ]);
  });

  it('arguments that miss the schema go back to the model as the tool’s error (test_set_model_response_tool.py: validation)', async () => {
    const agent = llmAgent({ name: 'test_agent', outputSchema: personSchema(), tools: [dummyTool] });
    const model = createScriptedModel([
      { functionCall: { name: 'set_model_response', args: { name: 'A', age: 'thirty' } } },
      { functionCall: { name: 'set_model_response', args: { name: 'A', age: 30, city: 'B' } } },
    ]);
    const { events } = await run(agent, model);
    const error = events[1]?.content?.parts[0];
    expect(error).toMatchObject({ functionResponse: { name: 'set_model_response' } });
    expect(JSON.stringify(error)).toContain("$: the required property 'city' is missing");
    expect(JSON.stringify(error)).toContain('$.age: expected an integer, got the string \\"thirty\\"');
    expect(describeEvents(events).at(-1)).toBe('test_agent: {"name": "A", "age": 30, "city": "B"}');
  });

  it('keeps a pydantic model’s answer as ADK dumps it: defaults filled in, nulls left out', async () => {
    const schema = fromJsonSchema(
      {
        properties: {
          name: { title: 'Name', type: 'string' },
          nickname: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Nickname' },
          score: { default: 5, title: 'Score', type: 'integer' },
        },
        required: ['name'],
        title: 'Rating',
        type: 'object',
      },
      'pydantic',
    );
    const agent = llmAgent({ name: 'test_agent', outputSchema: schema, outputKey: 'rating' });
    const model = createScriptedModel([{ text: '{"name": "x", "nickname": null}' }]);
    const { state } = await run(agent, model);
    expect(state['rating']).toEqual({ name: 'x', score: 5 });
  });
});

describe('the answer checked (agentctx)', () => {
  const schema = {
    type: 'object',
    properties: { city: { type: 'string' }, population: { type: 'integer', minimum: 0 } },
    required: ['city', 'population'],
    additionalProperties: false,
  };

  it('takes JSON in a Markdown fence, as ADK’s validate_schema does', async () => {
    const agent = llmAgent({ name: 'test_agent', outputSchema: schema, outputKey: 'answer' });
    const model = createScriptedModel([{ text: '```json\n{"city": "Oslo", "population": 709000}\n```' }]);
    const { state } = await run(agent, model);
    expect(state['answer']).toEqual({ city: 'Oslo', population: 709000 });
  });

  it('asks once more, saying what was wrong, and keeps the corrected answer', async () => {
    const agent = llmAgent({ name: 'test_agent', outputSchema: schema, outputKey: 'answer' });
    const model = createScriptedModel([
      { text: '{"city": "Oslo", "population": -1, "country": "Norway"}' },
      { text: '{"city": "Oslo", "population": 709000}' },
    ]);
    const { events, state } = await run(agent, model);
    expect(describeEvents(events)).toEqual([
      'test_agent: {"city": "Oslo", "population": -1, "country": "Norway"}',
      "user: Your answer does not match the required output schema:\n- $.population: -1 is less than 0\n- $: the property 'country' is not allowed\nAnswer again with JSON that matches the schema exactly.",
      'test_agent: {"city": "Oslo", "population": 709000}',
    ]);
    expect(state['answer']).toEqual({ city: 'Oslo', population: 709000 });
    expect(model.requests[1]?.messages.at(-1)?.content[0]).toMatchObject({
      text: expect.stringContaining('-1 is less than 0'),
    });
  });

  it('ends the turn with output_schema_mismatch when no retry is left', async () => {
    const agent = llmAgent({ name: 'test_agent', outputSchema: schema, outputKey: 'answer' });
    const model = createScriptedModel([{ text: 'Oslo, about 700,000 people' }]);
    const { events, state } = await run(agent, model, 0);
    expect(describeEvents(events)).toEqual([
      'test_agent: Oslo, about 700,000 people',
      'test_agent ERROR output_schema_mismatch',
    ]);
    expect(events.at(-1)?.errorMessage).toMatch(
      /^The answer of agent 'test_agent' does not match its output schema: \$: the answer is not JSON/,
    );
    expect(state['answer']).toBeUndefined();
  });

  it('takes a zod schema: the model is told its JSON Schema, zod checks the answer', async () => {
    const City = z.object({ city: z.string(), population: z.number().int().describe('people living there') });
    const agent = llmAgent({ name: 'test_agent', outputSchema: City, outputKey: 'answer' });
    expect(agent.outputSchema?.jsonSchema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string' },
        population: {
          type: 'integer',
          description: 'people living there',
          minimum: Number.MIN_SAFE_INTEGER,
          maximum: Number.MAX_SAFE_INTEGER,
        },
      },
      required: ['city', 'population'],
      additionalProperties: false,
    });
    const model = createScriptedModel([{ text: '{"city": 1}' }, { text: '{"city": "Oslo", "population": 709000}' }]);
    const { events, state } = await run(agent, model);
    expect(describeEvents(events)[1]).toMatch(
      /^user: Your answer does not match the required output schema:\n- \$\.city: /,
    );
    expect(state['answer']).toEqual({ city: 'Oslo', population: 709000 });
  });

  it('refuses a Standard Schema that cannot say its JSON Schema, and a schema that is not an object', () => {
    const opaque = { '~standard': { version: 1 as const, vendor: 'acme', validate: (value: unknown) => ({ value }) } };
    expect(() => llmAgent({ name: 'a', outputSchema: opaque })).toThrow(
      /outputSchema: this acme schema cannot say what it is as JSON Schema/,
    );
    expect(() => llmAgent({ name: 'a', outputSchema: 'PersonSchema' as never })).toThrow(
      /outputSchema: expected a JSON Schema object/,
    );
  });

  it('refuses outputSchemaRetries that is not a whole number', async () => {
    await expect(runnerWithSession({ agents: llmAgent({ name: 'a' }), outputSchemaRetries: -1 })).rejects.toThrow(
      /outputSchemaRetries must be a whole number/,
    );
  });
});

describe('runner.output (the typed answer)', () => {
  const City = z.object({ city: z.string(), population: z.number().int() });

  it('returns the answer, typed by the schema given', async () => {
    const agent = llmAgent({ name: 'test_agent', outputSchema: City });
    const runner = await runnerWithSession({
      agents: agent,
      model: createScriptedModel([{ text: '{"city": "Oslo", "population": 709000}' }]),
    });
    const answer = await runner.output({ userId: 'u1', sessionId: 's1', message: 'Biggest city of Norway?' }, City);
    expectTypeOf(answer).toEqualTypeOf<{ city: string; population: number }>();
    expect(answer).toEqual({ city: 'Oslo', population: 709000 });
  });

  it('checks against the answering agent’s own schema when given none, and throws what is wrong', async () => {
    const agent = llmAgent({ name: 'test_agent', outputSchema: City });
    const runner = await runnerWithSession({
      agents: agent,
      model: createScriptedModel([{ text: '{"city": "Oslo"}' }]),
      outputSchemaRetries: 0,
    });
    await expect(runner.output({ userId: 'u1', sessionId: 's1', message: 'Biggest city?' })).rejects.toThrow(
      /Invalid run \(agent 'test_agent'\): The answer of agent 'test_agent' does not match its output schema: \$\.population: /,
    );
  });

  it('throws when the answering agent has no schema and none is given, or the run failed', async () => {
    const plain = await runnerWithSession({
      agents: llmAgent({ name: 'plain' }),
      model: createScriptedModel([{ text: '{}' }]),
    });
    await expect(plain.output({ userId: 'u1', sessionId: 's1', message: 'hi' })).rejects.toThrow(
      /agent 'plain' answered last and has no outputSchema/,
    );
    const failing = await runnerWithSession({
      agents: llmAgent({ name: 'failing' }),
      model: createScriptedModel([{ error: { code: 'RESOURCE_EXHAUSTED', message: 'quota' } }]),
    });
    await expect(failing.output({ userId: 'u1', sessionId: 's1', message: 'hi' }, City)).rejects.toThrow(/ended with/);
  });
});
