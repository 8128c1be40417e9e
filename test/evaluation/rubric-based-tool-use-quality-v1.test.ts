import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluate } from '../../src/analysis/eval/evaluate-case.js';
import { effectiveRubrics } from '../../src/analysis/eval/rubric-based-evaluator.js';
import { formatToolUseQualityPrompt } from '../../src/analysis/eval/rubric-based-tool-use-quality-v1.js';
import { RUBRIC_BASED_TOOL_USE_QUALITY_V1_PROMPT } from '../../src/analysis/eval/rubric-based-tool-use-quality-v1-prompt.js';
import type { AppDetails, EvalMetric, Invocation, Rubric } from '../../src/contracts/evaluation.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { GOLDEN_INVOCATION } from './judge-fixtures.js';

// Translated test by test from Google ADK Python 2.5.0 (commit bb56aa56):
// tests/unittests/evaluation/test_rubric_based_tool_use_quality_v1.py, against
// src/google/adk/evaluation/rubric_based_tool_use_quality_v1.py (`format_auto_rater_prompt` L173–201). The last block
// is agentctx's own: a whole prompt compared with the golden Python made (see
// rubric-based-final-response-quality-v1.test.ts), and the metric run through `evaluate` with a scripted judge.

const GOLDEN = JSON.parse(readFileSync('test/fixtures/adk-judge/rubric-prompts.golden.json', 'utf8')) as Record<
  string,
  string
>;

const rubric = (rubricId: string, textProperty: string, type?: string): Rubric => ({
  rubricId,
  rubricContent: { textProperty },
  ...(type === undefined ? {} : { type }),
});
const RUBRICS = [rubric('1', 'Did the agent use the correct tool?'), rubric('2', 'Were the tool parameters correct?')];
const basic: Invocation = {
  invocationId: '',
  userContent: { role: 'user', parts: [{ text: 'User input here.' }] },
  creationTimestamp: 0,
};

describe('RubricBasedToolUseV1Evaluator (test_rubric_based_tool_use_quality_v1.py)', () => {
  it('test_format_auto_rater_prompt_with_basic_invocation', () => {
    const prompt = formatToolUseQualityPrompt(basic, RUBRICS);
    for (const text of ['User input here.', 'Did the agent use the correct tool?', 'Were the tool parameters correct?'])
      expect(prompt).toContain(text);
    expect(prompt).toContain('<available_tools>\nAgent has no tools.\n</available_tools>');
    expect(prompt).toContain('<response>\nNo intermediate steps were taken.\n</response>');
  });

  it('test_format_auto_rater_prompt_with_app_details', () => {
    const appDetails: AppDetails = {
      agentDetails: {
        agent1: {
          name: 'agent1',
          instructions: '',
          toolDeclarations: [{ function_declarations: [{ name: 'test_func', description: 'A test function.' }] }],
        },
      },
    };
    const prompt = formatToolUseQualityPrompt({ ...basic, appDetails }, RUBRICS);
    expect(prompt).toContain('"name": "test_func"');
    expect(prompt).toContain('"description": "A test function."');
  });

  it('test_format_auto_rater_prompt_with_intermediate_data', () => {
    const prompt = formatToolUseQualityPrompt(
      {
        ...basic,
        intermediateData: {
          toolUses: [{ name: 'test_func', args: { arg1: 'val1' }, id: 'call1' }],
          toolResponses: [{ name: 'test_func', response: { result: 'ok' }, id: 'call1' }],
          intermediateResponses: [],
        },
      },
      RUBRICS,
    );
    for (const text of ['"step": 0', '"tool_call":', '"name": "test_func"', '"tool_response":', '"result": "ok"'])
      expect(prompt).toContain(text);
  });
});

describe('rubric_based_tool_use_quality_v1 in agentctx', () => {
  it('keeps ADK’s prompt verbatim (SHA-256 of the string of rubric_based_tool_use_quality_v1.py L34–131)', () => {
    expect(createHash('sha256').update(RUBRIC_BASED_TOOL_USE_QUALITY_V1_PROMPT).digest('hex')).toBe(
      'c71d27e3d9d42dfb6708f6c16414c339830f5fa8ddb27ff635a1557332ec726b',
    );
  });

  it('formats a whole prompt byte for byte as ADK does, with the TOOL_USE_QUALITY rubrics only', () => {
    const rubrics = effectiveRubrics(
      [rubric('1', 'Is the answer correct?')],
      GOLDEN_INVOCATION.rubrics,
      'TOOL_USE_QUALITY',
    );
    expect(formatToolUseQualityPrompt(GOLDEN_INVOCATION, rubrics)).toBe(GOLDEN['tool']);
  });

  it('runs through evaluate: majority per rubric, mean over invocations, ADK’s aggregated rationale', async () => {
    const metric: EvalMetric = {
      metricName: 'rubric_based_tool_use_quality_v1',
      threshold: 0.5,
      criterion: {
        threshold: 0.5,
        includeIntermediateResponsesInFinal: false,
        extra: {
          judgeModelOptions: { judgeModel: 'gemini-2.5-pro', numSamples: 1 },
          rubrics: [{ rubricId: '1', rubricContent: { textProperty: 'Did the agent use the correct tool?' } }],
        },
      },
    };
    const verdict = (value: string) => ({
      text: `STEP 1: ...\nID: 1\nProperty: Did the agent use the correct tool?\nRationale: r\nVerdict: ${value}\n`,
    });
    const judge = createScriptedModel([verdict('yes'), verdict('no'), verdict('yes')]);
    const result = await evaluate({ metric, actual: [basic, basic, basic], judge });
    expect(result.overallScore).toBe(2 / 3);
    expect(result.overallEvalStatus).toBe('PASSED');
    expect(result.perInvocationResults.map((one) => one.evalStatus)).toEqual(['PASSED', 'FAILED', 'PASSED']);
    expect(result.overallRubricScores).toEqual([
      {
        rubricId: '1',
        score: 2 / 3,
        rationale:
          'This is an aggregated score derived from individual entries. Please refer to individual entries in each invocation for actual rationale from the model.',
      },
    ]);
    expect(judge.requests[0]?.config).toEqual({ model: 'gemini-2.5-pro' });
  });
});
