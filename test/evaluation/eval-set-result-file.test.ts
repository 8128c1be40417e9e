import { describe, expect, it } from 'vitest';
import { evaluateCase } from '../../src/analysis/eval/evaluate-case.js';
import {
  EVAL_HISTORY_DIR,
  EVAL_SET_RESULT_FILE_EXTENSION,
  evalSetResultFileName,
  evalSetResultOf,
  evalSetResultPath,
  formatEvalSetResult,
} from '../../src/analysis/eval/eval-set-result-file.js';
import { genaiPartJson } from '../../src/analysis/eval/genai-dump.js';
import { pythonFloatRepr, ryuFloat } from '../../src/analysis/eval/pydantic-json.js';
import type { EvalCaseResult, Invocation } from '../../src/contracts/evaluation.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';

// Translated test by test from Google ADK Python 2.5.0 (commit bb56aa56):
// tests/unittests/evaluation/test_local_eval_set_results_manager.py, against
// src/google/adk/evaluation/{local_eval_set_results_manager.py, _eval_set_results_manager_utils.py,
// _path_validation.py}. The tests of reading results back (`get_eval_set_result*`, the double-encoded legacy
// file) and of listing them (`list_eval_set_results*`) are in test/adk/eval-files.test.ts, against the ADK server's
// `EvalFiles`, which reads them.
// Each `it` names the test function it translates; the last block holds agentctx's own cases, whose expected floats
// were checked against pydantic 2.13.4 (`TypeAdapter(float).dump_json`) and Python's `repr`.

const APP = 'test_app';
const EVAL_SET_ID = 'test_eval_set';
const TIMESTAMP = 1733590000.123456;

// The setup fixture's case result.
const CASE_RESULT: EvalCaseResult = {
  evalSetFile: 'test_file',
  evalSetId: EVAL_SET_ID,
  evalId: 'case1',
  finalEvalStatus: 'PASSED',
  evalMetricResults: [],
  overallEvalMetricResults: [],
  evalMetricResultPerInvocation: [],
  sessionId: 'session1',
};

const INVALID = ['', '.', '..', 'foo/bar', 'foo\\bar'];

describe('TestLocalEvalSetResultsManager', () => {
  it('test_save_eval_set_result', () => {
    const result = evalSetResultOf({
      appName: APP,
      evalSetId: EVAL_SET_ID,
      evalCaseResults: [CASE_RESULT],
      timestamp: TIMESTAMP,
    });
    const id = `${APP}_${EVAL_SET_ID}_${String(TIMESTAMP)}`;
    expect(evalSetResultPath(APP, result)).toBe(`${APP}/${EVAL_HISTORY_DIR}/${id}${EVAL_SET_RESULT_FILE_EXTENSION}`);
    // A JSON object, not double-encoded; enums as their values (`model_dump(mode="json")`).
    expect(JSON.parse(formatEvalSetResult(result))).toEqual({
      eval_set_result_id: id,
      eval_set_result_name: id,
      eval_set_id: EVAL_SET_ID,
      eval_case_results: [
        {
          eval_set_file: 'test_file',
          eval_set_id: EVAL_SET_ID,
          eval_id: 'case1',
          final_eval_status: 1,
          eval_metric_results: [],
          overall_eval_metric_results: [],
          eval_metric_result_per_invocation: [],
          session_id: 'session1',
          session_details: null,
          user_id: null,
        },
      ],
      creation_timestamp: TIMESTAMP,
    });
  });

  for (const appName of INVALID)
    it(`test_save_eval_set_result_rejects_invalid_app_name[${JSON.stringify(appName)}]`, () => {
      expect(() =>
        evalSetResultOf({ appName, evalSetId: EVAL_SET_ID, evalCaseResults: [CASE_RESULT], timestamp: TIMESTAMP }),
      ).toThrow(ValidationError);
    });

  for (const evalSetId of INVALID)
    it(`test_save_eval_set_result_rejects_invalid_eval_set_id[${JSON.stringify(evalSetId)}]`, () => {
      expect(() =>
        evalSetResultOf({ appName: APP, evalSetId, evalCaseResults: [CASE_RESULT], timestamp: TIMESTAMP }),
      ).toThrow(ValidationError);
    });
});

describe('agentctx: the file as ADK writes it', () => {
  it('the whole text: field order, nulls, status numbers, floats with a fraction, every genai field', async () => {
    const actual: Invocation = {
      invocationId: 'inv1',
      userContent: { role: 'user', parts: [{ text: 'hi' }] },
      finalResponse: { role: 'model', parts: [{ text: 'hi' }] },
      intermediateData: {
        invocationEvents: [{ author: 'agent', content: { role: 'model', parts: [{ functionCall: { name: 'f' } }] } }],
      },
      creationTimestamp: 12,
    };
    const expected: Invocation = {
      invocationId: '',
      userContent: actual.userContent,
      finalResponse: { role: 'model', parts: [{ text: 'hi' }] },
      creationTimestamp: 0,
    };
    const caseResult = await evaluateCase({
      evalSetId: 'set',
      evalCase: {
        evalId: 'c',
        creationTimestamp: 0,
        conversation: [expected],
      },
      actual: [actual],
      metrics: [
        {
          metricName: 'response_match_score',
          threshold: 1,
          criterion: { threshold: 1, includeIntermediateResponsesInFinal: false, extra: { note: 2 } },
        },
      ],
      sessionId: 's',
      userId: 'u',
    });
    const text = formatEvalSetResult(
      evalSetResultOf({ appName: 'app', evalSetId: 'set', evalCaseResults: [caseResult], timestamp: 1700000000 }),
    );
    const nullPart = (set: Record<string, unknown>) =>
      Object.fromEntries(
        [
          'media_resolution',
          'code_execution_result',
          'executable_code',
          'file_data',
          'function_call',
          'function_response',
          'inline_data',
          'text',
          'thought',
          'thought_signature',
          'video_metadata',
          'tool_call',
          'tool_response',
          'part_metadata',
          'audio_transcription',
        ].map((key) => [key, set[key] ?? null]),
      );
    const metric = (score: string) =>
      `{"metric_name":"response_match_score","threshold":1.0,"criterion":{"threshold":1.0,"include_intermediate_responses_in_final":false,"note":2},"custom_function_path":null,"score":${score},"eval_status":1,"details":{"rubric_scores":null}}`;
    const hi = (role: string) => ({ parts: [nullPart({ text: 'hi' })], role });
    expect(JSON.parse(text)).toEqual(
      JSON.parse(
        JSON.stringify({
          eval_set_result_id: 'app_set_1700000000.0',
          eval_set_result_name: 'app_set_1700000000.0',
          eval_set_id: 'set',
          eval_case_results: [
            {
              eval_set_file: 'set',
              eval_set_id: 'set',
              eval_id: 'c',
              final_eval_status: 1,
              eval_metric_results: null,
              overall_eval_metric_results: [JSON.parse(metric('1'))],
              eval_metric_result_per_invocation: [
                {
                  actual_invocation: {
                    invocation_id: 'inv1',
                    user_content: hi('user'),
                    final_response: hi('model'),
                    intermediate_data: {
                      invocation_events: [
                        {
                          author: 'agent',
                          content: {
                            parts: [
                              nullPart({
                                function_call: {
                                  id: null,
                                  args: null,
                                  name: 'f',
                                  partial_args: null,
                                  will_continue: null,
                                },
                              }),
                            ],
                            role: 'model',
                          },
                        },
                      ],
                    },
                    creation_timestamp: 12,
                    rubrics: null,
                    app_details: null,
                  },
                  expected_invocation: {
                    invocation_id: '',
                    user_content: hi('user'),
                    final_response: hi('model'),
                    intermediate_data: null,
                    creation_timestamp: 0,
                    rubrics: null,
                    app_details: null,
                  },
                  eval_metric_results: [JSON.parse(metric('1'))],
                },
              ],
              session_id: 's',
              session_details: null,
              user_id: 'u',
            },
          ],
          creation_timestamp: 1700000000,
        }),
      ),
    );
    // The text itself: pydantic's indent and its floats.
    expect(text.startsWith('{\n  "eval_set_result_id": "app_set_1700000000.0",\n  "eval_set_result_name"')).toBe(true);
    expect(text).toContain('\n          "threshold": 1.0,\n          "criterion": {\n            "threshold": 1.0,');
    expect(text).toContain('"score": 1.0,\n          "eval_status": 1,');
    expect(text).toContain('"creation_timestamp": 12.0,');
    expect(text).toContain('"creation_timestamp": 0.0,');
    expect(text).toContain('"note": 2\n');
    expect(text.endsWith('\n  ],\n  "creation_timestamp": 1700000000.0\n}')).toBe(true);
  });

  it('NOT_EVALUATED is 3 and FAILED 2; a missing score is null', async () => {
    const base = { evalSetId: 'set', sessionId: 's', userId: 'u' };
    const notEvaluated = await evaluateCase({
      ...base,
      evalCase: {
        evalId: 'c',
        creationTimestamp: 0,
        conversationScenario: { startingPrompt: 'a', conversationPlan: 'b' },
      },
      actual: [],
      metrics: [{ metricName: 'response_match_score', threshold: 0.5 }],
    });
    const failed = await evaluateCase({
      ...base,
      evalCase: { evalId: 'd', creationTimestamp: 0, conversation: [] },
      actual: undefined,
      metrics: [],
    });
    const json = JSON.parse(
      formatEvalSetResult(
        evalSetResultOf({ appName: 'a', evalSetId: 'set', evalCaseResults: [notEvaluated, failed], timestamp: 1 }),
      ),
    );
    expect(json.eval_case_results[0].final_eval_status).toBe(3);
    expect(json.eval_case_results[0].overall_eval_metric_results[0]).toMatchObject({ score: null, eval_status: 3 });
    expect(json.eval_case_results[1].final_eval_status).toBe(2);
  });

  it("the file name is the result name and '.evalset_result.json'", () => {
    const result = evalSetResultOf({ appName: 'a', evalSetId: 'b', evalCaseResults: [], timestamp: 2.5 });
    expect(result.evalSetResultId).toBe('a_b_2.5');
    expect(evalSetResultFileName(result)).toBe('a_b_2.5.evalset_result.json');
    const { evalSetResultName: _name, ...unnamed } = result;
    expect(evalSetResultFileName(unnamed)).toBe('a_b_2.5.evalset_result.json');
  });

  it('ADK’s messages for a bad path segment', () => {
    const of = (appName: string) => () =>
      evalSetResultOf({ appName, evalSetId: 'b', evalCaseResults: [], timestamp: 1 });
    expect(of('')).toThrow('app_name must not be empty.');
    expect(of('a\u0000b')).toThrow('app_name must not contain null bytes.');
    expect(of('a/b')).toThrow("app_name 'a/b' must not contain path separators.");
    expect(of('..')).toThrow("app_name '..' must not contain traversal segments.");
  });

  it('floats as pydantic writes them, and as Python’s repr (the id)', () => {
    const pydantic: [number, string][] = [
      [0, '0.0'],
      [-0, '-0.0'],
      [1, '1.0'],
      [100, '100.0'],
      [1e16, '1e+16'],
      [1.5e16, '1.5e+16'],
      [1e15, '1000000000000000.0'],
      [9999999999999998, '9999999999999998.0'],
      [123456789012345678, '1.2345678901234568e+17'],
      [1e-5, '0.00001'],
      [1.25e-5, '0.0000125'],
      [1e-6, '1e-6'],
      [1.5e-6, '1.5e-6'],
      [1.234e-7, '1.234e-7'],
      [0.9, '0.9'],
      [-3, '-3.0'],
      [2.5e100, '2.5e+100'],
      [5e-324, '5e-324'],
      [TIMESTAMP, '1733590000.123456'],
    ];
    for (const [value, text] of pydantic) expect(ryuFloat(value)).toBe(text);
    const python: [number, string][] = [
      [0, '0.0'],
      [1700000000, '1700000000.0'],
      [1e16, '1e+16'],
      [1e15, '1000000000000000.0'],
      [1e-5, '1e-05'],
      [1.5e-5, '1.5e-05'],
      [0.0001, '0.0001'],
      [1.5e300, '1.5e+300'],
      [TIMESTAMP, '1733590000.123456'],
    ];
    for (const [value, text] of python) expect(pythonFloatRepr(value)).toBe(text);
  });

  it('bytes as URL-safe base64; every part kind in its genai field', () => {
    expect(genaiPartJson({ inlineData: { mimeType: 'image/png', data: '+/+/' } })).toMatchObject({
      inline_data: { data: '-_-_', display_name: null, mime_type: 'image/png' },
    });
    expect(genaiPartJson({ text: 'x', thought: true, thoughtSignature: 'a+b/' })).toMatchObject({
      text: 'x',
      thought: true,
      thought_signature: 'a-b_',
    });
    expect(genaiPartJson({ functionResponse: { id: '1', name: 'f', response: { ok: 1 } } })).toMatchObject({
      function_response: {
        will_continue: null,
        scheduling: null,
        parts: null,
        id: '1',
        name: 'f',
        response: { ok: 1 },
      },
    });
    expect(genaiPartJson({ fileData: { fileUri: 'gs://x' } })).toMatchObject({
      file_data: { display_name: null, file_uri: 'gs://x', mime_type: null },
    });
    expect(genaiPartJson({ executableCode: { code: 'print(1)', language: 'PYTHON' } })).toMatchObject({
      executable_code: { code: 'print(1)', language: 'PYTHON', id: null },
    });
    expect(genaiPartJson({ codeExecutionResult: { outcome: 'OUTCOME_OK' } })).toMatchObject({
      code_execution_result: { outcome: 'OUTCOME_OK', output: null, id: null },
    });
  });
});
