import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluateCase } from '../../src/analysis/eval/evaluate-case.js';
import { pythonJsonDumps } from '../../src/analysis/eval/judge-context.js';
import { effectiveRubrics } from '../../src/analysis/eval/rubric-based-evaluator.js';
import { formatFinalResponseQualityPrompt } from '../../src/analysis/eval/rubric-based-final-response-quality-v1.js';
import { RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1_PROMPT } from '../../src/analysis/eval/rubric-based-final-response-quality-v1-prompt.js';
import type { Content } from '../../src/contracts/content.js';
import type { AppDetails, EvalMetric, Invocation, Rubric } from '../../src/contracts/evaluation.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { GOLDEN_INVOCATION } from './judge-fixtures.js';

// Translated test by test from Google ADK Python 2.5.0 (commit bb56aa56):
// tests/unittests/evaluation/test_rubric_based_final_response_quality_v1.py, against
// src/google/adk/evaluation/rubric_based_final_response_quality_v1.py (`format_auto_rater_prompt` L275–330). Its
// aggregation tests repeat test_rubric_based_evaluator.py's (rubric-based-evaluator.test.ts). The last block is
// agentctx's own: a whole prompt compared with test/fixtures/adk-judge/rubric-prompts.golden.json, which Python made
// (ADK's template, `str.format`, and pydantic 2.13.4's `model_dump_json` over models with genai's fields), and the
// metric run through `evaluateCase` with a scripted judge.

const GOLDEN = JSON.parse(readFileSync('test/fixtures/adk-judge/rubric-prompts.golden.json', 'utf8')) as Record<
  string,
  string
>;

const say = (text: string, role: Content['role'] = 'model'): Content => ({ role, parts: [{ text }] });
const rubric = (rubricId: string, textProperty: string, type?: string): Rubric => ({
  rubricId,
  rubricContent: { textProperty },
  ...(type === undefined ? {} : { type }),
});
const RUBRICS = [rubric('1', 'Is the response good?'), rubric('2', 'Is the response bad?')];
const criterion = { includeIntermediateResponsesInFinal: false };
const basic: Invocation = {
  invocationId: '',
  userContent: say('User input here.', 'user'),
  finalResponse: say('Final agent response.'),
  creationTimestamp: 0,
};

describe('RubricBasedFinalResponseQualityV1Evaluator (test_rubric_based_final_response_quality_v1.py)', () => {
  it('test_format_auto_rater_prompt_with_basic_invocation', () => {
    const prompt = formatFinalResponseQualityPrompt(basic, RUBRICS, criterion);
    for (const text of ['User input here.', 'Final agent response.', 'Is the response good?', 'Is the response bad?'])
      expect(prompt).toContain(text);
    expect(prompt).toContain('<developer_instructions>\n  \n  </developer_instructions>');
    expect(prompt).toContain('<available_tools>\n  Agent has no tools.\n  </available_tools>');
    expect(prompt).toContain('<response_steps>\n  No intermediate steps were taken.\n  </response_steps>');
  });

  it('test_format_auto_rater_prompt_with_app_details', () => {
    const appDetails: AppDetails = {
      agentDetails: {
        agent1: {
          name: 'agent1',
          instructions: 'This is an agent instruction.',
          toolDeclarations: [{ function_declarations: [{ name: 'test_func', description: 'A test function.' }] }],
        },
      },
    };
    const prompt = formatFinalResponseQualityPrompt(
      { ...basic, appDetails, intermediateData: { invocationEvents: [{ author: 'agent1' }] } },
      RUBRICS,
      criterion,
    );
    expect(prompt).toContain('This is an agent instruction.');
    expect(prompt).toContain('"name": "test_func"');
    expect(prompt).toContain('"description": "A test function."');
  });

  it('test_format_auto_rater_prompt_with_intermediate_data', () => {
    const prompt = formatFinalResponseQualityPrompt(
      {
        ...basic,
        intermediateData: {
          toolUses: [{ name: 'test_func', args: { arg1: 'val1' }, id: 'call1' }],
          toolResponses: [{ name: 'test_func', response: { result: 'ok' }, id: 'call1' }],
          intermediateResponses: [],
        },
      },
      RUBRICS,
      criterion,
    );
    for (const text of ['"step": 0', '"tool_call":', '"name": "test_func"', '"tool_response":', '"result": "ok"'])
      expect(prompt).toContain(text);
  });

  it('test_format_auto_rater_prompt_with_app_details_no_tools', () => {
    const appDetails: AppDetails = {
      agentDetails: { agent1: { name: 'agent1', instructions: '', toolDeclarations: [] } },
    };
    const prompt = formatFinalResponseQualityPrompt({ ...basic, appDetails }, RUBRICS, criterion);
    expect(prompt).toContain('"tool_declarations": {\n    "agent1": []\n  }');
  });

  it('test_format_auto_rater_prompt_with_intermediate_data_no_tools', () => {
    const prompt = formatFinalResponseQualityPrompt(
      { ...basic, intermediateData: { toolUses: [], toolResponses: [], intermediateResponses: [] } },
      RUBRICS,
      criterion,
    );
    expect(prompt).toContain('No intermediate steps were taken.');
  });
});

describe('rubric_based_final_response_quality_v1 in agentctx', () => {
  it('keeps ADK’s prompt verbatim (SHA-256 of the string of rubric_based_final_response_quality_v1.py L35–235)', () => {
    expect(createHash('sha256').update(RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1_PROMPT).digest('hex')).toBe(
      'e3f81e19284820897485cc8ba5592e33219a0dc9e13f631bdad1ccd6fb7cd746',
    );
  });

  it('formats a whole prompt byte for byte as ADK does: instructions, tools, steps, intermediate texts, typed rubrics', () => {
    const rubrics = effectiveRubrics(
      [rubric('1', 'Is the answer correct?')],
      GOLDEN_INVOCATION.rubrics,
      'FINAL_RESPONSE_QUALITY',
    );
    const prompt = formatFinalResponseQualityPrompt(GOLDEN_INVOCATION, rubrics, {
      includeIntermediateResponsesInFinal: true,
    });
    expect(prompt).toBe(GOLDEN['final']);
  });

  it('Python’s json.dumps, as hallucinations_v1 writes tool calls: ASCII escapes, float reprs', () => {
    const value = [
      {
        id: 'c1',
        args: { city: 'Zürich 😀\u007f\u0001', ratio: 0.25, small: 1e-5, n: 2, none: null, ok: true, list: [] },
        name: 'x',
      },
    ];
    expect(pythonJsonDumps(value)).toBe(GOLDEN['dumps']);
  });

  it('an author the app details do not have is ADK’s ValueError', () => {
    const invocation = { ...GOLDEN_INVOCATION, intermediateData: { invocationEvents: [{ author: 'ghost' }] } };
    expect(() => formatFinalResponseQualityPrompt(invocation, [], criterion)).toThrow(
      '`ghost` not found in the agentic system.',
    );
  });

  const metric: EvalMetric = {
    metricName: 'rubric_based_final_response_quality_v1',
    threshold: 0.6,
    criterion: {
      threshold: 0.6,
      includeIntermediateResponsesInFinal: false,
      extra: {
        judge_model_options: { num_samples: 3 },
        rubrics: [{ rubric_id: '1', rubric_content: { text_property: 'Is the answer correct?' } }],
      },
    },
  };
  const verdicts = (first: string, second: string) => ({
    text: `ID: 1\nProperty: Is the answer correct?\nEvidence: none\nRationale: because\nVerdict: ${first}\n\nID: r2\nProperty: Does it give the unit?\nEvidence: none\nRationale: it does\nVerdict: ${second}\n`,
  });

  it('runs through evaluateCase: the case’s and the expected invocation’s typed rubrics join the criterion’s', async () => {
    const judge = createScriptedModel([verdicts('yes', 'yes'), verdicts('no', 'yes'), verdicts('no', 'no')]);
    const expected: Invocation = {
      ...GOLDEN_INVOCATION,
      rubrics: [rubric('r2', 'Does it give the unit?', 'FINAL_RESPONSE_QUALITY')],
    };
    const actual: Invocation = { ...GOLDEN_INVOCATION, rubrics: [] };
    const result = await evaluateCase({
      evalSetId: 'set',
      evalCase: {
        evalId: 'c',
        creationTimestamp: 0,
        conversation: [expected],
        rubrics: [rubric('t1', 'Is get_weather called with the city?', 'TOOL_USE_QUALITY')],
      },
      actual: [actual],
      metrics: [metric],
      sessionId: 's',
      userId: 'u',
      judge,
    });
    expect(judge.requests).toHaveLength(3);
    const prompt = judge.requests[0]?.messages[0]?.content[0];
    expect(prompt !== undefined && 'text' in prompt ? prompt.text : '').toContain(
      '<properties>\n*  [id: 1] Is the answer correct?\n*  [id: r2] Does it give the unit?\n</properties>',
    );
    expect(judge.requests[0]?.config).toEqual({ model: 'gemini-2.5-flash' });
    // Rubric 1: yes, no, no → no; rubric r2: yes, yes, no → yes. The invocation scores 0.5; overall, 0.5 < 0.6.
    const [overall] = result.overallEvalMetricResults;
    expect(overall).toMatchObject({ score: 0.5, evalStatus: 'FAILED' });
    expect(overall?.details.rubricScores?.map((one) => [one.rubricId, one.score])).toEqual([
      ['1', 0],
      ['r2', 1],
    ]);
    expect(result.evalMetricResultPerInvocation[0]?.evalMetricResults[0]?.details.rubricScores).toEqual([
      { rubricId: '1', rationale: 'because', score: 0 },
      { rubricId: 'r2', rationale: 'it does', score: 1 },
    ]);
    expect(result.finalEvalStatus).toBe('FAILED');
  });
});
