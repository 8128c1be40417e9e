import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseEvalSet, readEvalSet } from '../../src/analysis/eval/eval-set-file.js';
import type { EvalSet } from '../../src/contracts/evaluation.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import { problems } from './eval-problems.js';

// Translated from Google ADK Python 2.5.0 (commit bb56aa56): tests/unittests/evaluation/test_local_eval_sets_manager.py
// (`TestConvertEvalSetToPydanticSchema` and `TestLoadEvalSetFromFile`, the legacy conversion and the file loading of
// src/google/adk/evaluation/local_eval_sets_manager.py), test by test; then ADK's fixtures of
// tests/integration/fixture/home_automation_agent/ (test/fixtures/adk-eval) (bad files: eval-set-file-errors.test.ts; writing: eval-set-writer.test.ts).

const FIXTURES = new URL('../fixtures/adk-eval/', import.meta.url);
const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(name, FIXTURES), 'utf8'));

// ADK's mocks of `time.time` and `uuid.uuid4`.
const fixed = { now: () => 12345678, newId: () => '15061953' };

describe('convert_eval_set_to_pydantic_schema', () => {
  it('test_convert_eval_set_to_pydantic_schema_complete', () => {
    const set = readEvalSet(
      [
        {
          name: 'roll_17_sided_dice_twice',
          data: [
            {
              query: 'What can you do?',
              expected_tool_use: [],
              expected_intermediate_agent_responses: [],
              reference: 'I can roll dice of different sizes and check if a number is prime.\n',
            },
            {
              query: 'Roll a 17 sided dice twice for me',
              expected_tool_use: [
                { tool_name: 'roll_die', tool_input: { sides: 17 } },
                { tool_name: 'roll_die', tool_input: { sides: 17 } },
              ],
              expected_intermediate_agent_responses: [{ author: 'agent1', text: 'thought1' }],
              reference: 'I have rolled a 17 sided die twice. The first roll was 13 and the second roll was 4.\n',
            },
          ],
          initial_session: { state: {}, app_name: 'hello_world', user_id: 'user' },
        },
      ],
      'test_eval_set.evalset.json',
      { evalSetId: 'test_eval_set' },
    );
    expect(set.evalSetId).toBe('test_eval_set');
    expect(set.evalCases).toHaveLength(1);
    const [evalCase] = set.evalCases;
    expect(evalCase?.evalId).toBe('roll_17_sided_dice_twice');
    expect(evalCase?.conversation).toHaveLength(2);
    expect(evalCase?.sessionInput?.appName).toBe('hello_world');
    const data = evalCase?.conversation?.[1]?.intermediateData;
    expect(data && 'toolUses' in data ? data.toolUses : undefined).toEqual([
      { name: 'roll_die', args: { sides: 17 } },
      { name: 'roll_die', args: { sides: 17 } },
    ]);
    expect(data && 'toolUses' in data ? data.intermediateResponses : undefined).toEqual([
      ['agent1', [{ text: 'thought1' }]],
    ]);
  });

  it('test_convert_eval_set_to_pydantic_schema_minimal', () => {
    const set = readEvalSet([{ name: 'minimal_case', data: [{ query: 'Hello', reference: 'World' }] }], 'x', {
      evalSetId: 'test_eval_set',
    });
    expect(set.evalSetId).toBe('test_eval_set');
    expect(set.evalCases[0]?.evalId).toBe('minimal_case');
    expect(set.evalCases[0]?.conversation).toHaveLength(1);
    expect(set.evalCases[0]?.conversation?.[0]?.userContent.parts[0]).toEqual({ text: 'Hello' });
    expect(set.evalCases[0]?.conversation?.[0]?.finalResponse?.parts[0]).toEqual({ text: 'World' });
  });

  it('test_convert_eval_set_to_pydantic_schema_empty_tool_use_and_intermediate_responses', () => {
    const set = readEvalSet(
      [
        {
          name: 'empty_lists',
          data: [
            { query: 'Test', reference: 'Test Ref', expected_tool_use: [], expected_intermediate_agent_responses: [] },
          ],
        },
      ],
      'x',
      { evalSetId: 'test_eval_set' },
    );
    expect(set.evalCases[0]?.conversation?.[0]?.intermediateData).toEqual({
      toolUses: [],
      toolResponses: [],
      intermediateResponses: [],
    });
  });

  it('test_convert_eval_set_to_pydantic_schema_empty_initial_session', () => {
    const set = readEvalSet(
      [{ name: 'empty_session', data: [{ query: 'Test', reference: 'Test Ref' }], initial_session: {} }],
      'x',
      { evalSetId: 'test_eval_set' },
    );
    expect(set.evalCases[0]?.sessionInput).toBeUndefined();
  });

  it('test_convert_eval_set_to_pydantic_schema_invalid_data', () => {
    // ADK raises a pydantic ValidationError at the first model; here every problem is listed.
    expect(
      problems(
        [
          {
            name: 123,
            data: [
              {
                query: 456,
                reference: 789,
                expected_tool_use: [{ tool_name: 123, tool_input: 456 }],
                expected_intermediate_agent_responses: [{ author: 123, text: 456 }],
              },
            ],
            initial_session: { state: 'invalid', app_name: 123, user_id: 456 },
          },
        ],
        { evalSetId: 'test_eval_set' },
      ),
    ).toEqual([
      '[0].name: expected a string, got the number 123',
      '[0].data[0].query: expected a string, got the number 456',
      '[0].data[0].reference: expected a string, got the number 789',
      '[0].data[0].expected_tool_use[0].tool_name: expected a string, got the number 123',
      '[0].data[0].expected_tool_use[0].tool_input: expected an object, got the number 456',
      '[0].data[0].expected_intermediate_agent_responses[0].author: expected a string, got the number 123',
      '[0].data[0].expected_intermediate_agent_responses[0].text: expected a string, got the number 456',
      '[0].initial_session.app_name: expected a string, got the number 123',
      '[0].initial_session.user_id: expected a string, got the number 456',
      '[0].initial_session.state: expected an object, got the string "invalid"',
    ]);
  });
});

describe('load_eval_set_from_file', () => {
  it('test_load_eval_set_from_file_new_format', () => {
    // What `EvalSet.model_dump_json()` writes for ADK's set: snake_case, every field, nulls included.
    const nullParts = { video_metadata: null, thought: null, inline_data: null, file_data: null, function_call: null };
    const dumped = {
      eval_set_id: 'new_format_eval_set',
      name: null,
      description: null,
      eval_cases: [
        {
          eval_id: 'new_format_case',
          conversation: [
            {
              invocation_id: 'b7982664-0ab6-47cc-ab13-326656afdf75',
              user_content: { parts: [{ ...nullParts, text: 'New Format Query' }], role: null },
              final_response: { parts: [{ ...nullParts, text: 'New Format Reference' }], role: null },
              intermediate_data: null,
              creation_timestamp: 0.0,
              rubrics: null,
              app_details: null,
            },
          ],
          conversation_scenario: null,
          session_input: null,
          creation_timestamp: 0.0,
          rubrics: null,
          final_session_state: {},
        },
      ],
      creation_timestamp: 0.0,
    };
    const expected: EvalSet = {
      evalSetId: 'new_format_eval_set',
      evalCases: [
        {
          evalId: 'new_format_case',
          conversation: [
            {
              invocationId: 'b7982664-0ab6-47cc-ab13-326656afdf75',
              // A message without a role is the user's where the user speaks, the model's elsewhere.
              userContent: { role: 'user', parts: [{ text: 'New Format Query' }] },
              finalResponse: { role: 'model', parts: [{ text: 'New Format Reference' }] },
              creationTimestamp: 0,
            },
          ],
          creationTimestamp: 0,
          finalSessionState: {},
        },
      ],
      creationTimestamp: 0,
    };
    expect(readEvalSet(dumped, 'new_format.json')).toEqual(expected);
  });

  it('test_load_eval_set_from_file_old_format', () => {
    const set = readEvalSet(
      [{ name: 'old_format_case', data: [{ query: 'Old Format Query', reference: 'Old Format Reference' }] }],
      'old_format.json',
      { evalSetId: 'old_format_eval_set', ...fixed },
    );
    expect(set).toEqual({
      evalSetId: 'old_format_eval_set',
      name: 'old_format_eval_set',
      creationTimestamp: 12345678,
      evalCases: [
        {
          evalId: 'old_format_case',
          creationTimestamp: 12345678,
          finalSessionState: {},
          conversation: [
            {
              invocationId: '15061953',
              userContent: { role: 'user', parts: [{ text: 'Old Format Query' }] },
              finalResponse: { role: 'model', parts: [{ text: 'Old Format Reference' }] },
              intermediateData: { toolUses: [], toolResponses: [], intermediateResponses: [] },
              creationTimestamp: 12345678,
            },
          ],
        },
      ],
    } satisfies EvalSet);
  });

  // test_load_eval_set_from_file_nonexistent_file has no counterpart: the reader takes JSON, the caller reads files.

  it('test_load_eval_set_from_file_invalid_json', () => {
    expect(() => parseEvalSet('invalid json', 'invalid.json')).toThrow(ValidationError);
    expect(() => parseEvalSet('invalid json', 'invalid.json')).toThrow(/Invalid eval set invalid\.json: not JSON/);
  });

  it('test_load_eval_set_from_file_invalid_data', () => {
    expect(problems({ invalid: 'data' })).toEqual([
      "invalid: unknown field; ADK's EvalSet has eval_set_id, name, description, eval_cases, creation_timestamp (or their camelCase forms)",
      'eval_set_id: is required (a string)',
      'eval_cases: is required (a list)',
    ]);
  });
});

describe("agentctx: ADK's home_automation_agent fixtures", () => {
  it('reads simple_test.test.json, an EvalSet with genai parts full of nulls', () => {
    const set = readEvalSet(fixture('simple_test.test.json'), 'simple_test.test.json');
    expect(set).toEqual({
      evalSetId: 'b305bd06-38c5-4796-b9c7-d9c7454338b9',
      name: 'b305bd06-38c5-4796-b9c7-d9c7454338b9',
      evalCases: [
        {
          evalId: 'tests/integration/fixture/home_automation_agent/simple_test.test.json',
          conversation: [
            {
              invocationId: 'b7982664-0ab6-47cc-ab13-326656afdf75',
              userContent: { role: 'user', parts: [{ text: 'Turn off device_2 in the Bedroom.' }] },
              finalResponse: { role: 'model', parts: [{ text: 'I have set the device_2 status to off.' }] },
              intermediateData: {
                toolUses: [
                  { name: 'set_device_info', args: { location: 'Bedroom', device_id: 'device_2', status: 'OFF' } },
                ],
                toolResponses: [],
                intermediateResponses: [],
              },
              creationTimestamp: 1747337309.2360144,
            },
          ],
          creationTimestamp: 1747337309.2360282,
          finalSessionState: {},
        },
      ],
      creationTimestamp: 1747337309.2360387,
    } satisfies EvalSet);
  });

  it('reads simple_test2.test.json, a legacy list of entries, as AgentEvaluator converts it', () => {
    const source = 'tests/integration/fixture/home_automation_agent/simple_test2.test.json';
    const set = readEvalSet(fixture('simple_test2.test.json'), source, { now: () => 1.5, newId: () => 'id' });
    expect(set).toEqual({
      evalSetId: 'id',
      name: 'id',
      creationTimestamp: 1.5,
      evalCases: [
        {
          evalId: source,
          creationTimestamp: 1.5,
          finalSessionState: {},
          conversation: [
            {
              invocationId: 'id',
              userContent: { role: 'user', parts: [{ text: 'Turn off device_3 in the Bedroom.' }] },
              finalResponse: { role: 'model', parts: [{ text: 'I have set the device_3 status to off.' }] },
              intermediateData: {
                toolUses: [
                  { name: 'set_device_info', args: { location: 'Bedroom', device_id: 'device_3', status: 'OFF' } },
                ],
                toolResponses: [],
                intermediateResponses: [],
              },
              creationTimestamp: 1.5,
            },
          ],
        },
      ],
    } satisfies EvalSet);
  });

  it("takes a legacy entries file's initial session (initial_session_file), and refuses one for an EvalSet", () => {
    const set = readEvalSet(fixture('simple_test2.test.json'), 'simple_test2.test.json', {
      initialSession: { app_name: 'home', user_id: 'u', state: { k: 1 } },
    });
    expect(set.evalCases[0]?.sessionInput).toEqual({ appName: 'home', userId: 'u', state: { k: 1 } });
    expect(problems(fixture('simple_test.test.json'), { initialSession: { state: {} } })).toEqual([
      ': Initial session should be specified as a part of EvalSet file. Explicit initial session is only needed, when specifying data in the older schema.',
    ]);
  });

  it('names a legacy cases file after the file, as LocalEvalSetsManager does, and ids new invocations uniquely', () => {
    const set = readEvalSet([{ name: 'c', data: [{ query: 'a' }, { query: 'b' }] }], 'agents/app/my_set.evalset.json');
    expect(set.evalSetId).toBe('my_set');
    const ids = set.evalCases[0]?.conversation?.map((invocation) => invocation.invocationId) ?? [];
    expect(new Set(ids).size).toBe(2);
    expect(set.evalCases[0]?.conversation?.[0]?.finalResponse).toEqual({ role: 'model', parts: [{ text: '' }] });
  });
});
