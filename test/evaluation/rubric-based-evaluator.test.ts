import { describe, expect, it } from 'vitest';
import {
  AGGREGATED_RATIONALE,
  averageRubricScore,
  effectiveRubrics,
  majorityVoteOfRubrics,
  meanOfRubrics,
  parseRubricResponses,
  rubricAutoRaterScore,
  rubricBasedMetric,
  rubricsBasedCriterion,
} from '../../src/analysis/eval/rubric-based-evaluator.js';
import type {
  EvalMetric,
  Invocation,
  PerInvocationResult,
  Rubric,
  RubricScore,
} from '../../src/contracts/evaluation.js';
import type { ModelResponse } from '../../src/contracts/model.js';

// Translated test by test from Google ADK Python 2.5.0 (commit bb56aa56):
// tests/unittests/evaluation/test_rubric_based_evaluator.py, against src/google/adk/evaluation/rubric_based_evaluator.py
// (`DefaultAutoRaterResponseParser` L66–110, `MajorityVotePerInvocationResultsAggregator` L133–223,
// `MeanInvocationResultsSummarizer` L237–300, `RubricBasedEvaluator` L310–482). ADK's `FakeRubricBasedEvaluator` is
// `rubricBasedMetric` with a constant prompt; its effective rubrics are those `formatPrompt` builds, which is where ADK
// calls `create_effective_rubrics_list`. Log assertions (caplog) are left out: agentctx does not log here.

const user = (text: string): Invocation => ({
  invocationId: '',
  userContent: { role: 'user', parts: [{ text }] },
  creationTimestamp: 0,
});

// `_create_per_invocation_result`.
function perInvocation(rubricScores: RubricScore[]): PerInvocationResult {
  const score = averageRubricScore(rubricScores);
  return {
    actualInvocation: user('part_1'),
    expectedInvocation: user('part_2'),
    ...(score === undefined ? {} : { score }),
    rubricScores,
    evalStatus: 'NOT_EVALUATED',
  };
}

const rubric = (rubricId: string, textProperty: string, type?: string): Rubric => ({
  rubricId,
  rubricContent: { textProperty },
  ...(type === undefined ? {} : { type }),
});
const score = (rubricId: string, value?: number, rationale?: string): RubricScore => ({
  rubricId,
  ...(value === undefined ? {} : { score: value }),
  ...(rationale === undefined ? {} : { rationale }),
});

describe('DefaultAutoRaterResponseParser (test_rubric_based_evaluator.py)', () => {
  it('test_parse_auto_rater_response_with_empty_string', () => expect(parseRubricResponses('')).toEqual([]));
  it('test_parse_auto_rater_response_with_malformed_string', () =>
    expect(parseRubricResponses('This is just some random text without the expected format.')).toEqual([]));
  it('test_parse_auto_rater_response_with_single_yes_verdict', () => {
    const parsed = parseRubricResponses(`
      Property: Is the response good?
      Rationale: It was good.
      Verdict: yes
      `);
    expect(parsed).toEqual([{ propertyText: 'Is the response good?', rationale: 'It was good.', score: 1 }]);
  });
  it('test_parse_auto_rater_response_with_single_no_verdict', () => {
    const parsed = parseRubricResponses(`
      Property: Is the response bad?
      Rationale: It was bad.
      Verdict: no
      `);
    expect(parsed).toEqual([{ propertyText: 'Is the response bad?', rationale: 'It was bad.', score: 0 }]);
  });
  it('test_parse_auto_rater_response_with_invalid_verdict', () => {
    const parsed = parseRubricResponses(`
      Property: Is it unclear?
      Rationale: I cannot tell.
      Verdict: maybe
      `);
    expect(parsed).toEqual([{ propertyText: 'Is it unclear?', rationale: 'I cannot tell.' }]);
  });
  it('test_parse_auto_rater_response_with_multiple_verdicts', () => {
    const parsed = parseRubricResponses(`
      Property: Is the response good?
      Rationale: It was good.
      Verdict: yes

      Property: Is the response bad?
      Rationale: It was not bad.
      Verdict: no
      `);
    expect(parsed).toEqual([
      { propertyText: 'Is the response good?', rationale: 'It was good.', score: 1 },
      { propertyText: 'Is the response bad?', rationale: 'It was not bad.', score: 0 },
    ]);
  });
  it('test_parse_auto_rater_response_with_incomplete_entry', () => {
    const parsed = parseRubricResponses(`
      Property: Is the response good?
      Rationale: It was good.
      Verdict: yes

      Property: Is the response bad?
      Rationale: It was not bad.
      `);
    expect(parsed).toEqual([]);
  });
  it('test_parse_auto_rater_response_with_case_insensitive_verdict', () => {
    const parsed = parseRubricResponses(`
      Property: Is the response good?
      Rationale: It was good.
      Verdict: Yes
      Property: Is the response bad?
      Rationale: It was bad.
      Verdict: NO
      `);
    expect(parsed.map((one) => one.score)).toEqual([1, 0]);
  });
  it('test_parse_auto_rater_response_with_id', () => {
    const parsed = parseRubricResponses(`
      ID: 1
      Property: Is the response good?
      Rationale: It was good.
      Verdict: yes
      `);
    expect(parsed).toEqual([
      { rubricId: '1', propertyText: 'Is the response good?', rationale: 'It was good.', score: 1 },
    ]);
  });
  it('test_parse_auto_rater_response_without_id_leaves_id_none', () => {
    const parsed = parseRubricResponses(`
      Property: Is the response good?
      Rationale: It was good.
      Verdict: yes
      `);
    expect(parsed[0]?.rubricId).toBeUndefined();
    expect(parsed[0]?.propertyText).toBe('Is the response good?');
  });
  it('test_parse_auto_rater_response_with_first_id_present_second_absent', () => {
    const parsed = parseRubricResponses(`
      ID: 1
      Property: Is the response good?
      Rationale: It was good.
      Verdict: yes

      Property: Is the response bad?
      Rationale: It was not bad.
      Verdict: no
      `);
    expect(parsed.map((one) => [one.rubricId, one.propertyText])).toEqual([
      ['1', 'Is the response good?'],
      [undefined, 'Is the response bad?'],
    ]);
  });
  it('test_parse_auto_rater_response_with_first_id_omitted_second_present', () => {
    const parsed = parseRubricResponses(`
      Property: Is the response good?
      Rationale: It was good.
      Verdict: yes

      ID: 2
      Property: Is the response bad?
      Rationale: It was not bad.
      Verdict: no
      `);
    expect(parsed.map((one) => [one.rubricId, one.propertyText])).toEqual([
      [undefined, 'Is the response good?'],
      ['2', 'Is the response bad?'],
    ]);
  });
  it('test_parse_auto_rater_response_ignores_mid_line_id_substring', () => {
    const parsed = parseRubricResponses(`
      Property: Is the response good?
      Rationale: The session UUID: abc-123 was fine.
      Verdict: yes
      `);
    expect(parsed).toHaveLength(1);
    expect(parsed[0]?.rubricId).toBeUndefined();
    expect(parsed[0]?.propertyText).toBe('Is the response good?');
  });
});

describe('MajorityVotePerInvocationResultsAggregator (test_rubric_based_evaluator.py)', () => {
  it('test_aggregate_per_invocation_samples_with_no_rubric_scores', () => {
    const result = majorityVoteOfRubrics([perInvocation([]), perInvocation([])], 0.5);
    expect(result.score).toBeUndefined();
    expect(result.rubricScores).toEqual([]);
  });
  it('test_aggregate_per_invocation_samples_with_majority_positive', () => {
    const result = majorityVoteOfRubrics(
      [perInvocation([score('1', 1)]), perInvocation([score('1', 1)]), perInvocation([score('1', 0)])],
      0.5,
    );
    expect(result.score).toBe(1);
    expect(result.rubricScores).toEqual([score('1', 1)]);
    expect(result.evalStatus).toBe('PASSED');
  });
  it('test_aggregate_per_invocation_samples_with_majority_negative', () => {
    const result = majorityVoteOfRubrics(
      [perInvocation([score('1', 1)]), perInvocation([score('1', 0)]), perInvocation([score('1', 0)])],
      0.5,
    );
    expect(result.score).toBe(0);
    expect(result.rubricScores).toEqual([score('1', 0)]);
    expect(result.evalStatus).toBe('FAILED');
  });
  it('test_aggregate_per_invocation_samples_with_tie_verdicts', () => {
    const result = majorityVoteOfRubrics([perInvocation([score('1', 1)]), perInvocation([score('1', 0)])], 0.5);
    expect(result.score).toBe(0);
    expect(result.rubricScores).toEqual([score('1', 0)]);
  });
  it('test_aggregate_per_invocation_samples_with_all_none_scores', () => {
    const result = majorityVoteOfRubrics(
      [perInvocation([score('1', undefined, 'r1')]), perInvocation([score('1', undefined, 'r2')])],
      0.5,
    );
    expect(result.score).toBeUndefined();
    expect(result.rubricScores).toEqual([score('1', undefined, 'r1')]);
    expect(result.evalStatus).toBe('NOT_EVALUATED');
  });
  it('test_aggregate_per_invocation_samples_with_multiple_rubrics', () => {
    const result = majorityVoteOfRubrics(
      [
        perInvocation([score('1', 1), score('2', 0)]),
        perInvocation([score('1', 1), score('2', 0)]),
        perInvocation([score('1', 0), score('2', 1)]),
      ],
      0.5,
    );
    expect(result.score).toBe(0.5);
    expect(result.rubricScores).toEqual([score('1', 1), score('2', 0)]);
  });
});

describe('MeanInvocationResultsSummarizer (test_rubric_based_evaluator.py)', () => {
  it('test_summarize_with_empty_list', () => {
    const result = meanOfRubrics([], 0.5);
    expect(result.overallScore).toBeUndefined();
    expect(result.overallRubricScores).toEqual([]);
    expect(result.perInvocationResults).toEqual([]);
  });
  it('test_summarize_with_no_rubric_scores', () => {
    const invocations = [perInvocation([]), perInvocation([])];
    const result = meanOfRubrics(invocations, 0.5);
    expect(result.overallScore).toBeUndefined();
    expect(result.overallRubricScores).toEqual([]);
    expect(result.perInvocationResults).toBe(invocations);
  });
  it('test_summarize_with_single_invocation', () => {
    const result = meanOfRubrics([perInvocation([score('1', 1), score('2', 0)])], 0.5);
    expect(result.overallScore).toBe(0.5);
    expect(result.overallRubricScores).toEqual([
      { rubricId: '1', score: 1, rationale: AGGREGATED_RATIONALE },
      { rubricId: '2', score: 0, rationale: AGGREGATED_RATIONALE },
    ]);
  });
  it('test_summarize_with_multiple_invocations_single_rubric', () => {
    const result = meanOfRubrics(
      [perInvocation([score('1', 1)]), perInvocation([score('1', 0)]), perInvocation([score('1', 1)])],
      0.5,
    );
    expect(result.overallScore).toBe(2 / 3);
    expect(result.overallRubricScores?.map((one) => [one.rubricId, one.score])).toEqual([['1', 2 / 3]]);
    expect(result.overallEvalStatus).toBe('PASSED');
  });
  it('test_summarize_with_multiple_invocations_and_rubrics', () => {
    const result = meanOfRubrics(
      [perInvocation([score('1', 1), score('2', 0)]), perInvocation([score('1', 0), score('2', 1)])],
      0.5,
    );
    expect(result.overallScore).toBe(0.5);
    expect(result.overallRubricScores?.map((one) => [one.rubricId, one.score])).toEqual([
      ['1', 0.5],
      ['2', 0.5],
    ]);
  });
  it('test_summarize_with_none_scores', () => {
    const result = meanOfRubrics(
      [perInvocation([score('1', 1), score('2')]), perInvocation([score('1', 0), score('2', 1)])],
      0.5,
    );
    expect(result.overallScore).toBe(2 / 3);
    expect(result.overallRubricScores?.map((one) => [one.rubricId, one.score])).toEqual([
      ['1', 0.5],
      ['2', 1],
    ]);
  });
});

describe('RubricBasedEvaluator (test_rubric_based_evaluator.py)', () => {
  const metric: EvalMetric = {
    metricName: 'rubric_based_final_response_quality_v1',
    threshold: 0.5,
    criterion: {
      threshold: 0.5,
      includeIntermediateResponsesInFinal: false,
      extra: {
        judge_model_options: { judge_model_config: null, num_samples: 3 },
        rubrics: [
          { rubric_id: '1', rubric_content: { text_property: 'Is the response good?' } },
          { rubric_id: '2', rubric_content: { text_property: 'Is the response bad?' } },
        ],
      },
    },
  };
  // `FakeRubricBasedEvaluator(metric, rubric_type)`; `prepare` is its `create_effective_rubrics_list`.
  function evaluator(rubricType?: string) {
    const criterion = rubricsBasedCriterion(metric);
    const judged = rubricBasedMetric(metric, criterion, rubricType, () => 'fake response');
    const prepare = (rubrics?: Rubric[]) =>
      judged.formatPrompt({ ...user('q'), ...(rubrics === undefined ? {} : { rubrics }) }, undefined);
    return { judged, criterion, prepare };
  }
  const answer = (text: string | undefined): ModelResponse =>
    text === undefined ? {} : { content: { role: 'model', parts: [{ text }] } };

  it('reads the criterion: judge options and rubrics, in either spelling', () => {
    const { criterion } = evaluator();
    expect(criterion.judgeModelOptions).toEqual({ judgeModel: 'gemini-2.5-flash', numSamples: 3 });
    expect(criterion.rubrics.map((one) => one.rubricId)).toEqual(['1', '2']);
  });

  it('test_convert_auto_rater_response_to_score_with_empty_response', () => {
    const { judged, prepare } = evaluator();
    prepare();
    expect(judged.scoreResponse(answer(''))).toEqual({ rubricScores: [] });
  });
  it('test_convert_auto_rater_response_to_score_with_malformed_response', () => {
    const { judged, prepare } = evaluator();
    prepare();
    expect(judged.scoreResponse(answer('This is not a valid format.'))).toEqual({ rubricScores: [] });
  });
  it('test_convert_auto_rater_response_to_score_with_none_content', () => {
    const { judged, prepare } = evaluator();
    prepare();
    expect(judged.scoreResponse(answer(undefined))).toEqual({ rubricScores: [] });
  });
  it('test_convert_auto_rater_response_to_score_warns_on_unparseable', () => {
    const { judged, prepare } = evaluator();
    prepare();
    expect(judged.scoreResponse(answer('**Verdict**: Yes')).rubricScores).toEqual([]);
  });
  it('test_convert_auto_rater_response_to_score_with_mixed_verdicts', () => {
    const { judged, prepare } = evaluator();
    prepare();
    const result = judged.scoreResponse(
      answer(`
    Property: Is the response good?
    Rationale: It was good.
    Verdict: yes
    Property: Is the response bad?
    Rationale: It was bad.
    Verdict: no
    `),
    );
    expect(result.score).toBe(0.5);
    expect(result.rubricScores).toEqual([score('1', 1, 'It was good.'), score('2', 0, 'It was bad.')]);
  });
  it('test_convert_auto_rater_response_to_score_with_invalid_verdict', () => {
    const { judged, prepare } = evaluator();
    prepare();
    const result = judged.scoreResponse(
      answer(`
    Property: Is the response good?
    Rationale: It was good.
    Verdict: yes
    Property: Is the response bad?
    Rationale: I cannot tell.
    Verdict: invalid
    `),
    );
    expect(result.score).toBe(1);
    expect(result.rubricScores?.map((one) => one.score)).toEqual([1, undefined]);
  });
  it('test_convert_auto_rater_response_to_score_with_unknown_property', () => {
    const { judged, prepare } = evaluator();
    prepare();
    const result = judged.scoreResponse(
      answer(`
    Property: Is the response amazing?
    Rationale: It was amazing.
    Verdict: yes
    `),
    );
    expect(result).toEqual({ rubricScores: [] });
  });
  it('test_create_effective_rubrics_list_with_invocation_rubrics', () => {
    const { criterion } = evaluator();
    const rubrics = effectiveRubrics(criterion.rubrics, [rubric('3', 'Invocation rubric')], undefined);
    expect(rubrics.map((one) => one.rubricId)).toEqual(['1', '2', '3']);
  });
  it('test_create_effective_rubrics_list_with_duplicate_invocation_rubric_id', () => {
    const { prepare } = evaluator();
    expect(() => prepare([rubric('1', 'Invocation rubric')])).toThrow("Rubric with rubric_id '1' already exists.");
  });
  it('test_create_effective_rubrics_list_with_no_invocation_rubrics', () => {
    const { criterion } = evaluator();
    expect(effectiveRubrics(criterion.rubrics, undefined, undefined).map((one) => one.rubricId)).toEqual(['1', '2']);
  });
  it('test_get_effective_rubrics_list_before_creation_raises_error', () => {
    const { judged } = evaluator();
    expect(() => judged.scoreResponse(answer('x'))).toThrow('Effective rubrics list not initialized.');
  });
  it('test_create_effective_rubrics_list_multiple_calls', () => {
    const { criterion } = evaluator();
    expect(effectiveRubrics(criterion.rubrics, [rubric('3', 'Invocation rubric 1')], undefined)).toHaveLength(3);
    const second = effectiveRubrics(criterion.rubrics, [rubric('4', 'Invocation rubric 2')], undefined);
    expect(second.map((one) => one.rubricId)).toEqual(['1', '2', '4']);
  });
  it('test_create_effective_rubrics_filters_by_rubric_type', () => {
    const { criterion } = evaluator('TEST_TYPE');
    const rubrics = effectiveRubrics(
      criterion.rubrics,
      [
        rubric('test_type_rubric', 'Invocation rubric 1', 'TEST_TYPE'),
        rubric('other_type_rubric', 'Invocation rubric 2', 'OTHER_TYPE'),
      ],
      'TEST_TYPE',
    );
    expect(rubrics.map((one) => one.rubricId)).toEqual(['1', '2', 'test_type_rubric']);
  });
  it('test_convert_matches_by_id_when_text_paraphrased', () => {
    const { judged, prepare } = evaluator();
    prepare();
    const result = judged.scoreResponse(
      answer(`
    ID: 1
    Property: Is the reply excellent?
    Rationale: It was good.
    Verdict: yes
    `),
    );
    expect(result.rubricScores).toEqual([score('1', 1, 'It was good.')]);
  });
  it('test_convert_does_not_misattribute_when_first_id_omitted', () => {
    const { judged, prepare } = evaluator();
    prepare();
    const result = judged.scoreResponse(
      answer(`
    Property: Is the reply excellent?
    Rationale: It was good.
    Verdict: yes

    ID: 2
    Property: Is the reply awful?
    Rationale: It was not bad.
    Verdict: no
    `),
    );
    expect(result.rubricScores).toEqual([score('2', 0, 'It was not bad.')]);
  });
  it('test_convert_falls_back_to_text_when_id_absent', () => {
    const { criterion } = evaluator();
    const result = rubricAutoRaterScore(
      answer(`
    Property: Is the response good?
    Rationale: It was good.
    Verdict: yes
    `),
      criterion.rubrics,
    );
    expect(result.rubricScores).toEqual([score('1', 1, 'It was good.')]);
  });
});

describe('rubric-based criteria in agentctx', () => {
  const base = { metricName: 'rubric_based_tool_use_quality_v1', threshold: 0.5 };
  it('refuses a criterion without rubrics (ADK’s assert, L355) and rubrics ADK’s model would not take', () => {
    expect(() =>
      rubricsBasedCriterion({ ...base, criterion: { threshold: 0.5, includeIntermediateResponsesInFinal: false } }),
    ).toThrow('criterion.rubrics: Rubrics are required.');
    expect(() =>
      rubricsBasedCriterion({
        ...base,
        criterion: {
          threshold: 0.5,
          includeIntermediateResponsesInFinal: false,
          extra: { rubrics: [{ rubricId: 'x' }] },
        },
      }),
    ).toThrow('criterion.rubrics[0]');
  });
  it('a sample with a score but a metric without threshold is refused (Python’s `score >= None`)', () => {
    expect(() => majorityVoteOfRubrics([perInvocation([score('1', 1)])], undefined, 'm')).toThrow(
      'threshold: is required by this metric',
    );
    expect(majorityVoteOfRubrics([perInvocation([score('1')])], undefined, 'm').evalStatus).toBe('NOT_EVALUATED');
  });
});
