import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { evaluateCase } from '../../src/analysis/eval/evaluate-case.js';
import {
  finalResponseMatchV2,
  finalResponseScore,
  formatFinalResponsePrompt,
  majorityOfSamples,
  parseCritique,
  validFraction,
} from '../../src/analysis/eval/final-response-match-v2.js';
import { FINAL_RESPONSE_MATCH_V2_PROMPT } from '../../src/analysis/eval/final-response-match-v2-prompt.js';
import type { Content } from '../../src/contracts/content.js';
import type { EvalMetric, EvalStatus, Invocation, PerInvocationResult } from '../../src/contracts/evaluation.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import type { ModelResponse } from '../../src/contracts/model.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';

// Translated test by test from Google ADK Python 2.5.0 (commit bb56aa56):
// tests/unittests/evaluation/test_final_response_match_v2.py, against
// src/google/adk/evaluation/final_response_match_v2.py (`_parse_critique` L82–126, `FinalResponseMatchV2Evaluator`
// L129–255). ADK's `_create_test_evaluator_gemini` sets a criterion threshold of 0.5 and swaps in a test template; the
// same template is passed here. Each `it` names the test function it translates (a parametrized one once per
// parameter); the last block holds agentctx's own cases, with a scripted model as the judge.

const TEST_TEMPLATE = `
This is a test template.

{{
  "User prompt": {prompt},
  "Agent response": {response},
  "Reference response": {golden_response},
}}

The answer should be a json alone which follows the json structure below:
{{
  "is_the_agent_response_valid": [valid or invalid],
  "reasoning":
}}
`;

const content = (text: string, role: Content['role'] = 'model'): Content => ({ role, parts: [{ text }] });

function invocations(candidate: string, reference: string): [Invocation, Invocation] {
  const user = content('This is a test query.', 'user');
  return [
    { invocationId: '', userContent: user, finalResponse: content(candidate), creationTimestamp: 0 },
    { invocationId: '', userContent: user, finalResponse: content(reference), creationTimestamp: 0 },
  ];
}

const withIntermediate = (invocation: Invocation, text: string): Invocation => ({
  ...invocation,
  intermediateData: { invocationEvents: [{ author: 'agent', content: content(text) }] },
});

const answer = (text: string): ModelResponse => ({ content: content(text) });

function sample(score: number | undefined, evalStatus: EvalStatus): PerInvocationResult {
  const [actualInvocation, expectedInvocation] = invocations('candidate text', 'reference text');
  return { actualInvocation, expectedInvocation, ...(score === undefined ? {} : { score }), evalStatus };
}

const critique = (field: string, value: string, reason: string): string => `\`\`\`json
  {
    "${field}": ${value},
    "reasoning": "${reason}"
  }
  \`\`\``;

describe('FinalResponseMatchV2Evaluator (test_final_response_match_v2.py)', () => {
  it.each([
    critique('is_the_agent_response_valid_or_invalid', '"valid"', 'The response is valid.'),
    '```json\n  {\n    "is_the_agent_response_valid": "undefined label",\n  }\n  ```',
  ])('test_parse_critique_label_not_found[%#]', (response) => {
    expect(parseCritique(response)).toBe('label field not found');
  });

  it.each([
    critique('is_the_agent_response_valid', '"valid"', 'The response is valid.'),
    critique('is_the_agent_response_valid', '["valid"]', 'The response is valid.'),
    critique('is_the_agent_response_valid', '\n    [ "valid\n"]', 'The response is valid.'),
  ])('test_parse_critique[%#]', (response) => {
    expect(parseCritique(response)).toBe('valid');
  });

  it.each([
    critique('is_the_agent_response_invalid', '"invalid"', 'The response is invalid.'),
    critique('is_the_agent_response_invalid', '["invalid"]', 'The response is invalid.'),
    critique('is_the_agent_response_invalid', '\n    [ "invalid\n"]', 'The response is invalid.'),
  ])('test_parse_critique_invalid[%#]', (response) => {
    expect(parseCritique(response)).toBe('invalid');
  });

  const off = { includeIntermediateResponsesInFinal: false };
  const on = { includeIntermediateResponsesInFinal: true };

  it('test_format_auto_rater_prompt', () => {
    const [actual, expected] = invocations('candidate text', 'reference text');
    expect(formatFinalResponsePrompt(actual, expected, off, TEST_TEMPLATE)).toBe(`
This is a test template.

{
  "User prompt": This is a test query.,
  "Agent response": candidate text,
  "Reference response": reference text,
}

The answer should be a json alone which follows the json structure below:
{
  "is_the_agent_response_valid": [valid or invalid],
  "reasoning":
}
`);
  });

  it('test_format_auto_rater_prompt_uses_empty_text_for_missing_final_response', () => {
    const [actual, expected] = invocations('candidate text', 'reference text');
    const { finalResponse: _a, ...actualWithout } = actual;
    const { finalResponse: _e, ...expectedWithout } = expected;
    const prompt = formatFinalResponsePrompt(actualWithout, expectedWithout, off, TEST_TEMPLATE);
    expect(prompt).not.toContain('None');
    expect(prompt).toContain('"Agent response": ,');
    expect(prompt).toContain('"Reference response": ,');
  });

  it('test_format_auto_rater_prompt_ignores_intermediate_by_default', () => {
    const [actual, expected] = invocations('candidate final', 'reference final');
    const prompt = formatFinalResponsePrompt(
      withIntermediate(actual, 'candidate intro'),
      withIntermediate(expected, 'reference intro'),
      off,
      TEST_TEMPLATE,
    );
    expect(prompt).toContain('candidate final');
    expect(prompt).toContain('reference final');
    expect(prompt).not.toContain('candidate intro');
    expect(prompt).not.toContain('reference intro');
  });

  it('test_format_auto_rater_prompt_includes_intermediate_when_enabled', () => {
    const [actual, expected] = invocations('candidate final', 'reference final');
    const prompt = formatFinalResponsePrompt(
      withIntermediate(actual, 'candidate intro'),
      withIntermediate(expected, 'reference intro'),
      on,
      TEST_TEMPLATE,
    );
    expect(prompt).toContain('candidate intro\ncandidate final');
    expect(prompt).toContain('reference intro\nreference final');
  });

  it('test_convert_auto_rater_response_to_score_valid', () => {
    const text =
      '```json\n{\n  "is_the_agent_response_valid": "valid",\n  "reasoning": "The response is valid."\n}\n```';
    expect(finalResponseScore(answer(text))).toEqual({ score: 1 });
  });

  it('test_convert_auto_rater_response_to_score_invalid', () => {
    const text =
      '```json\n{\n  "is_the_agent_response_valid": "invalid",\n  "reasoning": "The response is invalid."\n}\n```';
    expect(finalResponseScore(answer(text))).toEqual({ score: 0 });
  });

  it('test_convert_auto_rater_response_to_score_invalid_json', () => {
    expect(finalResponseScore(answer('invalid json'))).toEqual({});
  });

  it('test_convert_auto_rater_response_to_score_missing_key', () => {
    expect(finalResponseScore(answer('{}'))).toEqual({});
  });

  it('test_aggregate_per_invocation_samples_none_evaluated', () => {
    const samples = [sample(undefined, 'NOT_EVALUATED'), sample(undefined, 'NOT_EVALUATED')];
    expect(majorityOfSamples(samples)).toBe(samples[0]);
  });

  it('test_aggregate_per_invocation_samples_valid', () => {
    const result = majorityOfSamples([
      sample(1, 'PASSED'),
      sample(1, 'PASSED'),
      sample(0, 'FAILED'),
      sample(0, 'FAILED'),
      sample(1, 'PASSED'),
      sample(1, 'NOT_EVALUATED'),
      sample(undefined, 'NOT_EVALUATED'),
      sample(0, 'NOT_EVALUATED'),
    ]);
    expect(result.score).toBe(1);
    expect(result.evalStatus).toBe('PASSED');
  });

  it('test_aggregate_per_invocation_samples_invalid', () => {
    const result = majorityOfSamples([
      sample(0, 'FAILED'),
      sample(1, 'PASSED'),
      sample(0, 'FAILED'),
      sample(0, 'FAILED'),
      sample(1, 'PASSED'),
      sample(1, 'PASSED'),
      sample(1, 'NOT_EVALUATED'),
      sample(undefined, 'NOT_EVALUATED'),
      sample(0, 'NOT_EVALUATED'),
    ]);
    expect(result.score).toBe(0);
    expect(result.evalStatus).toBe('FAILED');
  });

  it('test_aggregate_invocation_results', () => {
    const result = validFraction(
      [
        sample(1, 'PASSED'),
        sample(1, 'PASSED'),
        sample(0, 'FAILED'),
        sample(0, 'FAILED'),
        sample(undefined, 'PASSED'),
        sample(100, 'NOT_EVALUATED'),
        sample(undefined, 'NOT_EVALUATED'),
      ],
      0.5,
    );
    // Only 4 of the invocations are evaluated, and 2 of those 4 are valid.
    expect(result.overallScore).toBe(0.5);
    expect(result.overallEvalStatus).toBe('PASSED');
  });

  it('test_aggregate_invocation_results_none_evaluated', () => {
    const results = [sample(undefined, 'NOT_EVALUATED'), sample(1, 'NOT_EVALUATED')];
    const result = validFraction(results, 0.5);
    expect(result.overallScore).toBeUndefined();
    expect(result.overallEvalStatus).toBe('NOT_EVALUATED');
    expect(result.perInvocationResults).toEqual(results);
  });
});

describe('final_response_match_v2 in evaluateCase: agentctx cases', () => {
  const verdict = (label: string) => ({
    text: `{\n  "reasoning": "r",\n  "is_the_agent_response_valid": "${label}",\n}`,
  });
  const metric = (numSamples: number, threshold = 0.5): EvalMetric => ({
    metricName: 'final_response_match_v2',
    threshold,
    criterion: {
      threshold,
      includeIntermediateResponsesInFinal: false,
      extra: { judge_model_options: { judge_model: 'gemini-2.5-pro', num_samples: numSamples } },
    },
  });
  const [actual, expected] = invocations('Paris.', 'The capital is Paris.');
  const input = {
    evalSetId: 'set',
    evalCase: { evalId: 'c', creationTimestamp: 0, conversation: [expected] },
    actual: [actual],
    sessionId: 's',
    userId: 'u',
  };

  it('sends ADK’s prompt verbatim, votes over the samples, and keeps the criterion’s judge model name', async () => {
    // The SHA-256 of `_FINAL_RESPONSE_MATCH_V2_PROMPT` as ADK's source holds it (5,005 characters).
    expect(createHash('sha256').update(FINAL_RESPONSE_MATCH_V2_PROMPT).digest('hex')).toBe(
      'ac16489f0f552f4885c4e2eb2f00c370a96f42af4b84edc05eb5995214bc9598',
    );
    const judge = createScriptedModel([verdict('valid'), verdict('invalid'), verdict('true')]);
    const result = await evaluateCase({ ...input, metrics: [metric(3)], judge });
    expect(result.finalEvalStatus).toBe('PASSED');
    const [overall] = result.overallEvalMetricResults;
    expect(overall?.score).toBe(1);
    expect(overall?.criterion?.extra).toEqual({
      judge_model_options: { judge_model: 'gemini-2.5-pro', num_samples: 3 },
    });
    expect(result.evalMetricResultPerInvocation[0]?.evalMetricResults[0]?.evalStatus).toBe('PASSED');
    expect(judge.requests).toHaveLength(3);
    const prompt = FINAL_RESPONSE_MATCH_V2_PROMPT.replace(/\{\{/g, '{')
      .replace(/\}\}/g, '}')
      .replace('{prompt}', 'This is a test query.')
      .replace('{response}', 'Paris.')
      .replace('{golden_response}', 'The capital is Paris.');
    expect(judge.requests[0]?.messages).toEqual([{ role: 'user', content: [{ text: prompt }] }]);
    expect(judge.requests[0]?.config).toEqual({ model: 'gemini-2.5-pro' });
  });

  it('fails on an invalid majority, and a tie is invalid', async () => {
    const judge = createScriptedModel([verdict('valid'), verdict('almost')]);
    const result = await evaluateCase({ ...input, metrics: [metric(2)], judge });
    expect(result.finalEvalStatus).toBe('FAILED');
    expect(result.overallEvalMetricResults[0]?.score).toBe(0);
  });

  it('an answer the judge gives without the label is not evaluated, as ADK leaves it', async () => {
    const judge = createScriptedModel([{ text: 'I think it is fine.' }]);
    const result = await evaluateCase({ ...input, metrics: [metric(1)], judge });
    expect(result.overallEvalMetricResults[0]).toMatchObject({ evalStatus: 'NOT_EVALUATED' });
    expect(result.overallEvalMetricResults[0]?.score).toBeUndefined();
    expect(result.evalMetricResultPerInvocation[0]?.evalMetricResults[0]?.evalStatus).toBe('NOT_EVALUATED');
    expect(result.finalEvalStatus).toBe('NOT_EVALUATED');
  });

  it('a judge call that fails leaves the metric NOT_EVALUATED and tells onMetricError', async () => {
    const judge = createScriptedModel([]);
    const errors: string[] = [];
    const result = await evaluateCase({
      ...input,
      metrics: [metric(1)],
      judge,
      onMetricError: (name) => errors.push(name),
    });
    expect(errors).toEqual(['final_response_match_v2']);
    expect(result.overallEvalMetricResults[0]?.evalStatus).toBe('NOT_EVALUATED');
  });

  it('without a judge, refuses the metric before evaluating, saying to pass one', async () => {
    const run = evaluateCase({ ...input, metrics: [metric(1)] });
    await expect(run).rejects.toThrow(ValidationError);
    await expect(evaluateCase({ ...input, metrics: [metric(1)] })).rejects.toMatchObject({
      hint: expect.stringContaining('agentctx eval --judge <model>'),
    });
  });

  it('the metric’s parts, as the judge loop takes them', () => {
    const judged = finalResponseMatchV2({
      threshold: 0.5,
      includeIntermediateResponsesInFinal: false,
      judgeModelOptions: { judgeModel: 'm', numSamples: 1 },
    });
    expect(judged.expectedInvocationsRequired).toBe(true);
    expect(() => judged.formatPrompt(actual, undefined)).toThrow('expected_invocation is required for this metric.');
  });
});
