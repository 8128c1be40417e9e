// ADK's `response_match_score`, test by test from ADK 2.5.0 (commit bb56aa56)
// tests/unittests/evaluation/test_final_response_match_v1.py; the last block checks the parts of
// src/google/adk/evaluation/final_response_match_v1.py and evaluator.py that file leaves untested.
import { describe, expect, it } from 'vitest';
import type { Content } from '../../src/contracts/content.js';
import type { Invocation } from '../../src/contracts/evaluation.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import { evaluateResponseMatch, responseMatchScore, textOfContent } from '../../src/analysis/eval/response-match.js';
import { rouge1 } from '../../src/analysis/eval/rouge.js';

const text = (value: string, role: Content['role'] = 'model'): Content => ({ role, parts: [{ text: value }] });

// `_create_test_invocations`: (actual, expected), each with the same user query.
function invocations(candidate: string, reference: string): [Invocation, Invocation] {
  const userContent = text('This is a test query.', 'user');
  return [
    { invocationId: '', creationTimestamp: 0, userContent, finalResponse: text(candidate) },
    { invocationId: '', creationTimestamp: 0, userContent, finalResponse: text(reference) },
  ];
}

describe('_calculate_rouge_1_scores', () => {
  it('test_calculate_rouge_1_scores_empty_candidate_and_reference', () => {
    expect(rouge1('', '')).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
  });

  it('test_calculate_rouge_1_scores_empty_candidate', () => {
    expect(rouge1('', 'This is a test reference.')).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
  });

  it('test_calculate_rouge_1_scores_empty_reference', () => {
    expect(rouge1('This is a test candidate response.', '')).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
  });

  it('test_calculate_rouge_1_scores', () => {
    const score = rouge1('This is a test candidate response.', 'This is a test reference.');
    expect(score.precision).toBeCloseTo(2 / 3, 6);
    expect(score.recall).toBeCloseTo(4 / 5, 6);
    expect(score.fmeasure).toBeCloseTo(8 / 11, 6);
  });
});

describe('RougeEvaluator.evaluate_invocations', () => {
  // Each: candidates, references, expected overall score (pytest.approx, rel=1e-3), expected status; threshold 0.8.
  const cases: [string[], string[], number, 'PASSED' | 'FAILED'][] = [
    [
      ['The quick brown fox jumps.', 'hello world'],
      ['The quick brown fox jumps over the lazy dog.', 'hello'],
      0.69048,
      'FAILED',
    ],
    [['This is a test.', 'Another test case.'], ['This is a test.', 'This is a different test.'], 0.625, 'FAILED'],
    [
      ['No matching words here.', 'Second candidate.'],
      ['Completely different text.', 'Another reference.'],
      0,
      'FAILED',
    ],
    [['Same words', 'Same words'], ['Same words', 'Same words'], 1, 'PASSED'],
  ];
  it.each(cases)(
    'test_rouge_evaluator_multiple_invocations: %j against %j',
    (candidates, references, score, status) => {
      const pairs = candidates.map((candidate, i) => invocations(candidate, references[i] ?? ''));
      const result = evaluateResponseMatch(
        pairs.map(([actual]) => actual),
        pairs.map(([, expected]) => expected),
        0.8,
      );
      expect(Math.abs((result.overallScore ?? Number.NaN) - score)).toBeLessThanOrEqual(1e-3 * Math.abs(score) + 1e-12);
      expect(result.overallEvalStatus).toBe(status);
    },
  );

  it.each([
    ['extra-actual-turn', 2, 1],
    ['missing-actual-turn', 1, 2],
  ])('test_rouge_evaluator_rejects_mismatched_invocation_lengths (%s)', (_id, actualCount, expectedCount) => {
    const [actual, expected] = invocations('same', 'same');
    const run = (): unknown =>
      evaluateResponseMatch(Array(actualCount).fill(actual), Array(expectedCount).fill(expected), 0.8);
    expect(run).toThrow(ValidationError);
    expect(run).toThrow(`same length; got ${actualCount} and ${expectedCount}`);
  });
});

describe('final_response_match_v1.py beyond its tests', () => {
  it('_get_text_from_content joins the non-empty text parts with newlines, thoughts included, others left out', () => {
    const content: Content = {
      role: 'model',
      parts: [
        { text: 'first' },
        { functionCall: { name: 'lookup', args: {} } },
        { text: '' },
        { text: 'a thought', thought: true },
        { inlineData: { mimeType: 'text/plain', data: 'aGVsbG8=' } },
        { text: 'last' },
      ],
    };
    expect(textOfContent(content)).toBe('first\na thought\nlast');
    expect(textOfContent(undefined)).toBe('');
    expect(textOfContent({ role: 'model', parts: [] })).toBe('');
  });

  it('responseMatchScore is the F-measure over those texts; a missing response scores 0', () => {
    expect(responseMatchScore(text('This is a test candidate response.'), text('This is a test reference.'))).toBe(
      rouge1('This is a test candidate response.', 'This is a test reference.').fmeasure,
    );
    expect(responseMatchScore(undefined, text('anything at all'))).toBe(0);
  });

  it('_get_eval_status: a score equal to the threshold passes', () => {
    const [actual, expected] = invocations(
      'The quick brown fox jumps.',
      'The quick brown fox jumps over the lazy dog.',
    );
    const { fmeasure } = rouge1('The quick brown fox jumps.', 'The quick brown fox jumps over the lazy dog.');
    expect(fmeasure).toBeCloseTo(5 / 7, 12);
    expect(evaluateResponseMatch([actual], [expected], fmeasure).overallEvalStatus).toBe('PASSED');
    expect(evaluateResponseMatch([actual], [expected], fmeasure + 1e-9).overallEvalStatus).toBe('FAILED');
  });

  it('keeps each invocation pair with its score and status, and judges the average of the scores', () => {
    const first = invocations('hello world', 'hello');
    const second = invocations('Same words', 'Same words');
    const result = evaluateResponseMatch([first[0], second[0]], [first[1], second[1]], 0.8);
    expect(result.perInvocationResults).toEqual([
      { actualInvocation: first[0], expectedInvocation: first[1], score: 2 / 3, evalStatus: 'FAILED' },
      { actualInvocation: second[0], expectedInvocation: second[1], score: 1, evalStatus: 'PASSED' },
    ]);
    expect(result.overallScore).toBe((2 / 3 + 1) / 2);
    // The overall status is the average's: 0.83 passes though one invocation failed.
    expect(result.overallEvalStatus).toBe('PASSED');
  });

  it('with no invocations there is no overall score and the result is NOT_EVALUATED', () => {
    expect(evaluateResponseMatch([], [], 0.8)).toEqual({
      overallEvalStatus: 'NOT_EVALUATED',
      perInvocationResults: [],
    });
  });

  it('requires the expected invocations', () => {
    expect(() => evaluateResponseMatch([invocations('a', 'a')[0]], undefined, 0.8)).toThrow(
      'expected_invocations is required for this metric.',
    );
  });
});
