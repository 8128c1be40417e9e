import { describe, expect, it } from 'vitest';
import { readEvalSet } from '../../src/analysis/eval/eval-set-file.js';
import { problems } from './eval-problems.js';

// Bad eval set files, current (ADK 2.5.0's EvalSet, commit bb56aa56) and legacy: every problem is listed with its JSON
// path, where ADK's pydantic stops at the first model that fails. Unknown keys get the nearest field's name.

describe('agentctx: bad eval set files', () => {
  it('lists every problem of an EvalSet, each with its JSON path, suggesting the nearest name', () => {
    expect(
      problems({
        eval_set_id: 7,
        eval_cases: [
          {
            eval_id: 'a',
            conversation: [
              {
                user_contnet: { parts: [] },
                final_response: { role: 'tool', parts: [{ txt: 'x' }] },
                intermediate_data: { tool_uses: [{ args: [] }], tool_response: [] },
                creation_timestamp: 'yesterday',
              },
            ],
            session_input: { app_name: 'app', state: [] },
          },
          { conversation: null },
          'not a case',
        ],
        descripton: 'x',
      }),
    ).toMatchInlineSnapshot(`
      [
        "descripton: unknown field (did you mean 'description'?); ADK's EvalSet has eval_set_id, name, description, eval_cases, creation_timestamp (or their camelCase forms)",
        "eval_set_id: expected a string, got the number 7",
        "eval_cases[0].conversation[0].user_contnet: unknown field (did you mean 'user_content'?); ADK's Invocation has invocation_id, user_content, final_response, intermediate_data, creation_timestamp, rubrics, app_details (or their camelCase forms)",
        "eval_cases[0].conversation[0].user_content: is required (a message)",
        "eval_cases[0].conversation[0].final_response.role: expected 'user' or 'model', got the string "tool"",
        "eval_cases[0].conversation[0].final_response.parts[0].txt: unknown field (did you mean 'text'?); allowed: text, functionCall, functionResponse, inlineData, fileData, executableCode, codeExecutionResult, thought, thoughtSignature, providerMetadata",
        "eval_cases[0].conversation[0].final_response.parts[0]: a part holds exactly one of text, functionCall, functionResponse, inlineData, fileData, executableCode, codeExecutionResult; found none",
        "eval_cases[0].conversation[0].intermediate_data.tool_response: unknown field (did you mean 'tool_responses'?); ADK's IntermediateData has tool_uses, tool_responses, intermediate_responses (or their camelCase forms)",
        "eval_cases[0].conversation[0].intermediate_data.tool_uses[0].name: is required (a string)",
        "eval_cases[0].conversation[0].intermediate_data.tool_uses[0].args: expected an object, got a list",
        "eval_cases[0].conversation[0].creation_timestamp: expected a number, got the string "yesterday"",
        "eval_cases[0].session_input.user_id: is required (a string)",
        "eval_cases[0].session_input.state: expected an object, got a list",
        "eval_cases[1].eval_id: is required (a string)",
        "eval_cases[1]: Exactly one of conversation and conversation_scenario must be provided in an EvalCase.",
        "eval_cases[2]: expected an eval case, got the string "not a case"",
      ]
    `);
  });

  it('lists every problem of a legacy file', () => {
    expect(
      problems([
        { name: 'a', data: [{ query: 'q', expected_tool_use: [{ tool_nam: 'f', tool_input: {} }], refrence: 'r' }] },
        { name: 'b', dta: [] },
      ]),
    ).toMatchInlineSnapshot(`
      [
        "[0].data[0].refrence: unknown field (did you mean 'reference'?); allowed: query, expected_tool_use, expected_intermediate_agent_responses, reference",
        "[0].data[0].expected_tool_use[0].tool_nam: unknown field (did you mean 'tool_name'?); allowed: tool_name, tool_input",
        "[0].data[0].expected_tool_use[0].tool_name: is required (a string)",
        "[1].dta: unknown field (did you mean 'data'?); allowed: name, data, initial_session",
        "[1].data: is required (a list)",
      ]
    `);
  });

  it('refuses a field given in both spellings', () => {
    expect(problems({ eval_set_id: 's', evalSetId: 's', eval_cases: [] })).toEqual([
      "evalSetId: given twice, as 'eval_set_id' and as 'evalSetId'",
    ]);
  });

  it("checks an entries-only file against its criteria, as AgentEvaluator's _validate_input", () => {
    const entries = [{ query: 'q', expected_tool_use: [] }];
    expect(() => readEvalSet(entries, 'a.test.json', { criteria: { tool_trajectory_avg_score: 1 } })).not.toThrow();
    expect(problems(entries, { criteria: { response_match_score: 0.8, final_response_match_v2: 0.5 } })).toEqual([
      ': Invalid criteria key: final_response_match_v2. Expected one of tool_trajectory_avg_score, response_evaluation_score, response_match_score, safety_v1.',
      "[0]: Samples for response_match_score must include 'query' and 'reference' keys.",
    ]);
    expect(problems([], { initialSession: {}, criteria: {} })).toEqual([
      ': an initial session file goes with a bare list of entries; this file gives each case its own',
    ]);
  });

  it('refuses what is neither an object nor a list', () => {
    expect(problems('text')).toEqual([
      ': expected an eval set ({ eval_set_id, eval_cases }) or a legacy list, got the string "text"',
    ]);
  });
});
