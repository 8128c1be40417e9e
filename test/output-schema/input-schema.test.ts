import { describe, expect, it } from 'vitest';
import { llmAgent, sequentialAgent } from '../../src/engine/agent/define-agent.js';
import { fromJsonSchema } from '../../src/engine/agent/output-schema.js';
import { agentTool } from '../../src/engine/tools/agent-tool.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { collect, describeEvents, runnerWithSession } from '../runner/helpers.js';

// An agent's inputSchema, and its outputSchema when another agent calls it as a tool (issue 48). The cases translate
// ADK 2.5.0's tests/unittests/tools/test_agent_tool.py (test_custom_schema,
// test_agent_tool_with_input_schema_uses_json_schema_feature, test_agent_tool_description_with_input_schema).

/** `CustomInput(BaseModel): custom_input: str` and `CustomOutput`, as pydantic 2.13.4 writes them. */
const CUSTOM_INPUT = {
  properties: { custom_input: { title: 'Custom Input', type: 'string' } },
  required: ['custom_input'],
  title: 'CustomInput',
  type: 'object',
};
const CUSTOM_OUTPUT = {
  properties: { custom_output: { title: 'Custom Output', type: 'string' } },
  required: ['custom_output'],
  title: 'CustomOutput',
  type: 'object',
};

describe('an agent called as a tool, with schemas', () => {
  it('is declared with its input schema and its own description (test_agent_tool_with_input_schema_uses_json_schema_feature)', () => {
    const tool = agentTool(
      llmAgent({
        name: 'tool_agent',
        description: 'A tool agent for testing.',
        inputSchema: fromJsonSchema(
          { ...CUSTOM_INPUT, description: 'This is the Pydantic model docstring.' },
          'pydantic',
        ),
        outputSchema: fromJsonSchema(CUSTOM_OUTPUT, 'pydantic'),
      }),
    );
    expect({ name: tool.name, description: tool.description }).toEqual({
      name: 'tool_agent',
      description: 'A tool agent for testing.',
    });
    expect(tool.parameters).toEqual({ ...CUSTOM_INPUT, description: 'This is the Pydantic model docstring.' });
  });

  it('runs with the arguments as JSON and answers with the parsed value (test_custom_schema)', async () => {
    const toolAgent = llmAgent({
      name: 'tool_agent',
      inputSchema: fromJsonSchema(CUSTOM_INPUT, 'pydantic'),
      outputSchema: fromJsonSchema(CUSTOM_OUTPUT, 'pydantic'),
      outputKey: 'tool_output',
    });
    const model = createScriptedModel([
      { functionCall: { name: 'tool_agent', args: { custom_input: 'test1' } } },
      { text: '{"custom_output": "response1"}' },
      { text: 'response2' },
    ]);
    const runner = await runnerWithSession({
      agents: llmAgent({ name: 'root_agent', tools: [agentTool(toolAgent)] }),
      model,
    });
    const events = await collect(runner, { message: 'test1' });
    expect(describeEvents(events).slice(1)).toEqual([
      'root_agent: call tool_agent({"custom_input":"test1"})',
      'root_agent: tool_agent → {"custom_output":"response1"}',
      'root_agent: response2',
    ]);
    const session = await runner.sessions.getSession({ appName: 'root_agent', userId: 'u1', sessionId: 's1' });
    expect(session?.state['tool_output']).toEqual({ custom_output: 'response1' });
    expect(model.requests).toHaveLength(3);
    // The second request is the tool agent's: its schema, JSON asked for, and the arguments as its user turn.
    expect(model.requests[1]?.config.responseSchema).toEqual(CUSTOM_OUTPUT);
    expect(model.requests[1]?.config.responseMimeType).toBe('application/json');
    expect(model.requests[1]?.messages[0]?.content).toEqual([{ text: '{"custom_input":"test1"}' }]);
  });

  it('gives arguments that miss the input schema back to the calling model, without running the agent', async () => {
    const toolAgent = llmAgent({ name: 'tool_agent', inputSchema: fromJsonSchema(CUSTOM_INPUT, 'pydantic') });
    const model = createScriptedModel([
      { functionCall: { name: 'tool_agent', args: { request: 'hi' } } },
      { text: 'gave up' },
    ]);
    const runner = await runnerWithSession({
      agents: llmAgent({ name: 'root_agent', tools: [agentTool(toolAgent)] }),
      model,
    });
    const events = await collect(runner, { message: 'go' });
    expect(describeEvents(events)[2]).toMatch(
      /^root_agent: tool_agent → \{"error":"Invalid arguments for tool 'tool_agent': \$: the required property 'custom_input' is missing/,
    );
    expect(model.requests).toHaveLength(2);
  });

  it('a workflow takes its first agent’s input schema and answers with its last agent’s output', async () => {
    const first = llmAgent({
      name: 'first',
      inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    });
    const last = llmAgent({ name: 'last', outputSchema: { type: 'object', properties: { a: { type: 'integer' } } } });
    const tool = agentTool(sequentialAgent({ name: 'pipeline', subAgents: [first, last] }));
    expect(tool.parameters).toEqual({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] });
    const model = createScriptedModel([
      { functionCall: { name: 'pipeline', args: { q: 'x' } } },
      { text: 'noted' },
      { text: '{"a": 1}' },
      { text: 'done' },
    ]);
    const runner = await runnerWithSession({ agents: llmAgent({ name: 'root_agent', tools: [tool] }), model });
    const events = await collect(runner, { message: 'go' });
    expect(describeEvents(events)[2]).toBe('root_agent: pipeline → {"a":1}');
  });

  it('refuses an input schema that is not an object', () => {
    expect(() => llmAgent({ name: 'a', inputSchema: { type: 'string' } })).toThrow(
      /inputSchema: must describe an object/,
    );
  });
});
