import { describe, expect, it } from 'vitest';
import { readEvalCase, readInvocation } from '../../src/analysis/eval/eval-case-reader.js';
import { writeEvalSet } from '../../src/analysis/eval/eval-set-writer.js';
import { allToolCalls, allToolCallsWithResponses, allToolResponses } from '../../src/analysis/eval/tool-calls.js';
import type { FunctionCall, FunctionResponse } from '../../src/contracts/content.js';
import type { EvalCase, IntermediateData, Invocation, InvocationEvents } from '../../src/contracts/evaluation.js';
import { JsonReader } from '../../src/engine/util/json-reader.js';

// Translated test by test from Google ADK Python 2.5.0 (commit bb56aa56): tests/unittests/evaluation/test_eval_case.py,
// against src/google/adk/evaluation/eval_case.py. ADK builds its pydantic models in Python; here the same data is
// read from JSON (snake_case, as ADK writes it) with the eval case reader, and the helpers are tool-calls.ts.

function read<T>(json: unknown, readOne: (reader: JsonReader, value: unknown, path: string) => T | undefined): T {
  const reader = new JsonReader();
  const value = readOne(reader, json, '');
  if (reader.issues.length > 0 || value === undefined) throw new Error(JSON.stringify(reader.issues));
  return value;
}

function issuesOf(json: unknown, readOne: (reader: JsonReader, value: unknown, path: string) => unknown) {
  const reader = new JsonReader();
  readOne(reader, json, '');
  return reader.issues;
}

const intermediate = (toolUses: FunctionCall[], toolResponses: FunctionResponse[] = []): IntermediateData => ({
  toolUses,
  toolResponses,
  intermediateResponses: [],
});

// The InvocationEvents form, read from ADK's JSON: each event's author and parts.
function events(...list: [author: string, parts: unknown[]][]): InvocationEvents {
  const invocation = read(
    {
      user_content: { parts: [{ text: 'hi' }] },
      intermediate_data: {
        invocation_events: list.map(([author, parts]) => ({ author, content: { parts, role: 'model' } })),
      },
    },
    readInvocation,
  );
  return invocation.intermediateData as InvocationEvents;
}

const search = { name: 'search', args: { query: 'weather' } };
const lookup = { name: 'lookup', args: { id: '123' } };

describe('eval case models', () => {
  it('test_eval_models_preserve_extra_metadata', () => {
    const evalCase = read(
      {
        eval_id: 'case_1',
        conversation: [],
        session_input: { app_name: 'app', user_id: 'user', eval_group: 'retrieval', source: 'nightly' },
        owner: 'platform',
      },
      readEvalCase,
    );
    expect(evalCase.sessionInput?.extra).toEqual({ eval_group: 'retrieval', source: 'nightly' });
    expect(evalCase.extra).toEqual({ owner: 'platform' });
    const dumped = writeEvalSet({ evalSetId: 's', evalCases: [evalCase], creationTimestamp: 0 });
    const written = (dumped['eval_cases'] as Record<string, Record<string, unknown>>[])[0];
    expect(written?.['owner']).toBe('platform');
    expect(written?.['session_input']?.['source']).toBe('nightly');
    expect(written?.['session_input']?.['eval_group']).toBe('retrieval');
  });

  it('test_invocation_event_content_defaults_to_none', () => {
    const data = read(
      { user_content: { parts: [] }, intermediate_data: { invocation_events: [{ author: 'agent' }] } },
      readInvocation,
    ).intermediateData as InvocationEvents;
    expect(data.invocationEvents[0]).toEqual({ author: 'agent' });
    expect(data.invocationEvents[0]?.content).toBeUndefined();
  });
});

describe('get_all_tool_calls', () => {
  it('test_get_all_tool_calls_with_none_input', () => {
    expect(allToolCalls(undefined)).toEqual([]);
  });

  it('test_get_all_tool_calls_with_intermediate_data_no_tools', () => {
    expect(allToolCalls(intermediate([]))).toEqual([]);
  });

  it('test_get_all_tool_calls_with_intermediate_data', () => {
    expect(allToolCalls(intermediate([search, lookup]))).toEqual([search, lookup]);
  });

  it('test_get_all_tool_calls_with_empty_invocation_events', () => {
    expect(allToolCalls({ invocationEvents: [] })).toEqual([]);
  });

  it('test_get_all_tool_calls_with_invocation_events_no_tools', () => {
    expect(allToolCalls(events(['agent', [{ text: 'Thinking...' }]]))).toEqual([]);
  });

  it('test_get_all_tool_calls_with_invocation_events', () => {
    const data = events(
      ['agent1', [{ function_call: search }]],
      ['agent2', [{ text: 'Found something.' }, { function_call: lookup }]],
    );
    expect(allToolCalls(data)).toEqual([search, lookup]);
  });

  it('test_get_all_tool_calls_with_unsupported_type', () => {
    // ADK raises "Unsupported type for intermediate_data"; a file with such data is refused when read.
    expect(
      issuesOf({ user_content: { parts: [] }, intermediate_data: 'this is not a valid type' }, readInvocation),
    ).toEqual([
      {
        path: 'intermediate_data',
        message:
          'expected intermediate data ({ tool_uses, … } or { invocation_events }), got the string "this is not a valid type"',
      },
    ]);
  });
});

describe('get_all_tool_responses', () => {
  it('test_get_all_tool_responses_with_none_input', () => {
    expect(allToolResponses(undefined)).toEqual([]);
  });

  it('test_get_all_tool_responses_with_empty_invocation_events', () => {
    expect(allToolResponses({ invocationEvents: [] })).toEqual([]);
  });

  it('test_get_all_tool_responses_with_invocation_events_no_tools', () => {
    expect(allToolResponses(events(['agent', [{ text: 'Thinking...' }]]))).toEqual([]);
  });

  it('test_get_all_tool_responses_with_invocation_events', () => {
    const response1 = { name: 'search', response: { result: 'weather is good' } };
    const response2 = { name: 'lookup', response: { id: '123' } };
    const data = events(
      ['agent1', [{ function_response: response1 }]],
      ['agent2', [{ text: 'Found something.' }, { function_response: response2 }]],
    );
    expect(allToolResponses(data)).toEqual([response1, response2]);
  });

  it('test_get_all_tool_responses_with_unsupported_type', () => {
    expect(issuesOf({ user_content: { parts: [] }, intermediate_data: 42 }, readInvocation)).toHaveLength(1);
  });
});

describe('get_all_tool_calls_with_responses', () => {
  const call1 = { id: 'call1', ...search };
  const response1 = { id: 'call1', name: 'search', response: { result: 'sunny' } };
  const call2 = { id: 'call2', ...lookup };

  it('test_get_all_tool_calls_with_responses_with_none_input', () => {
    expect(allToolCallsWithResponses(undefined)).toEqual([]);
  });

  it('test_get_all_tool_calls_with_responses_with_intermediate_data_no_tool_calls', () => {
    expect(allToolCallsWithResponses(intermediate([], []))).toEqual([]);
  });

  it('test_get_all_tool_calls_with_responses_with_intermediate_data_with_tool_calls', () => {
    expect(allToolCallsWithResponses(intermediate([call1, call2], [response1]))).toEqual([
      [call1, response1],
      [call2, undefined],
    ]);
  });

  it('test_get_all_tool_calls_with_responses_with_steps_no_tool_calls', () => {
    expect(allToolCallsWithResponses({ invocationEvents: [] })).toEqual([]);
  });

  it('test_get_all_tool_calls_with_responses_with_invocation_events', () => {
    expect(allToolCallsWithResponses({ invocationEvents: [] })).toEqual([]);
    // ADK's response event has role 'tool'; agentctx's messages are the user's or the model's, so it is the user's.
    const withResponse: InvocationEvents = {
      invocationEvents: [
        { author: 'agent', content: { role: 'model', parts: [{ functionCall: call1 }, { functionCall: call2 }] } },
        { author: 'tool', content: { role: 'user', parts: [{ functionResponse: response1 }] } },
      ],
    };
    expect(allToolCallsWithResponses(withResponse)).toEqual([
      [call1, response1],
      [call2, undefined],
    ]);
  });
});

describe('EvalCase validator', () => {
  it('test_conversation_and_conversation_scenario_mutual_exclusion', () => {
    const message = 'Exactly one of conversation and conversation_scenario must be provided in an EvalCase.';
    const scenario = { starting_prompt: '', conversation_plan: '' };
    expect(issuesOf({ eval_id: 'test_id' }, readEvalCase)).toEqual([{ path: '', message }]);
    expect(issuesOf({ eval_id: 'test_id', conversation: [], conversation_scenario: scenario }, readEvalCase)).toEqual([
      { path: '', message },
    ]);
    expect(read({ eval_id: 'test_id', conversation: [] }, readEvalCase).conversation).toEqual([]);
    expect(read({ eval_id: 'test_id', conversation_scenario: scenario }, readEvalCase).conversationScenario).toEqual({
      startingPrompt: '',
      conversationPlan: '',
    });
  });
});

describe('agentctx: reading eval cases as ADK does', () => {
  it('fills in the defaults ADK fills in, and takes camelCase as ADK does (populate_by_name)', () => {
    const expected: EvalCase = {
      evalId: 'c',
      conversation: [
        { invocationId: '', userContent: { role: 'user', parts: [{ text: 'hi' }] }, creationTimestamp: 0 },
      ],
      creationTimestamp: 0,
      finalSessionState: {},
    };
    expect(read({ eval_id: 'c', conversation: [{ user_content: { parts: [{ text: 'hi' }] } }] }, readEvalCase)).toEqual(
      expected,
    );
    expect(read({ evalId: 'c', conversation: [{ userContent: { parts: [{ text: 'hi' }] } }] }, readEvalCase)).toEqual(
      expected,
    );
    // `final_session_state: null` is allowed (Optional) and stays absent.
    const invocation: Invocation = read({ user_content: { role: 'user', parts: [] } }, readInvocation);
    expect(invocation.intermediateData).toBeUndefined();
    expect(read({ eval_id: 'c', conversation: [], final_session_state: null }, readEvalCase).finalSessionState).toBe(
      undefined,
    );
  });

  it('reads intermediate_responses as [author, parts] pairs, and {} as empty IntermediateData', () => {
    const invocation = read(
      {
        user_content: { parts: [{ text: 'x' }] },
        intermediate_data: { intermediate_responses: [['sub_agent', [{ text: 'working' }]]] },
      },
      readInvocation,
    );
    expect(invocation.intermediateData).toEqual({
      toolUses: [],
      toolResponses: [],
      intermediateResponses: [['sub_agent', [{ text: 'working' }]]],
    });
    expect(read({ user_content: { parts: [] }, intermediate_data: {} }, readInvocation).intermediateData).toEqual(
      intermediate([]),
    );
  });
});
