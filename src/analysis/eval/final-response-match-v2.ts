import type { EvalMetric, EvaluationResult, Invocation, PerInvocationResult } from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Model, ModelResponse } from '../../contracts/model.js';
import { FINAL_RESPONSE_MATCH_V2_PROMPT } from './final-response-match-v2-prompt.js';
import { judgeTextOfContent, judgeTextOfInvocation } from './judge-text.js';
import {
  type AutoRaterScore,
  type JudgedMetric,
  type LlmAsAJudgeCriterion,
  evaluateWithJudge,
  judgeStatus,
  llmAsAJudgeCriterion,
} from './llm-as-judge.js';

// ADK 2.5.0's `final_response_match_v2` (src/google/adk/evaluation/final_response_match_v2.py
// `FinalResponseMatchV2Evaluator`, commit bb56aa56): a judge model says whether the agent's final response is valid
// against the expected one; 1.0 or 0.0 per sample, a majority vote per invocation, the fraction of valid invocations
// overall.

export const FINAL_RESPONSE_MATCH_V2 = 'final_response_match_v2';

/** The judge's verdict (`Label`, llm_as_judge_utils.py L36–46, as `_parse_critique` uses it). */
export type CritiqueLabel = 'valid' | 'invalid' | 'label field not found';

// The label field, ended by a comma, a newline or a closing brace (L93–102, the same expressions).
const VALID_FIELD = /"is_the_agent_response_valid":\s*\[*[\n\s]*"*([^"^\]^\s]*)"*[\n\s]*\]*\s*[,\n}]/;
const INVALID_FIELD = /"is_the_agent_response_invalid":\s*\[*[\n\s]*"*([^"^\]^\s]*)"*[\n\s]*\]*\s*[,\n}]/;
// `Label.INVALID`, `ALMOST`, `FALSE` and the values of `PARTIALLY_VALID`.
const INVALID_WORDS = ['invalid', 'almost', 'false', 'partially_valid', 'partially valid', 'partially'];

/**
 * `_parse_critique` (L82–126): the value of `"is_the_agent_response_valid"` — valid or true is valid; invalid,
 * almost, false or partially (valid) invalid; anything else not found. A judge that named the field
 * `"is_the_agent_response_invalid"` is read the other way round, where anything but true or invalid counts as valid.
 */
export function parseCritique(response: string): CritiqueLabel {
  const valid = VALID_FIELD.exec(response);
  if (valid !== null) {
    const label = stripLabel(valid[1] ?? '');
    if (INVALID_WORDS.includes(label)) return 'invalid';
    return label === 'valid' || label === 'true' ? 'valid' : 'label field not found';
  }
  const invalid = INVALID_FIELD.exec(response);
  if (invalid !== null) {
    const label = stripLabel(invalid[1] ?? '');
    return label === 'true' || label === 'invalid' ? 'invalid' : 'valid';
  }
  return 'label field not found';
}

// Python's `.strip().rstrip(",}")`.
function stripLabel(label: string): string {
  return label.trim().replace(/[,}]+$/, '');
}

/**
 * Python's `str.format` for the prompt template: `{{` and `}}` are braces, `{name}` the value (Python prints None as
 * `None`, which ADK does for a user prompt without parts).
 */
export function formatTemplate(template: string, values: Readonly<Record<string, string | undefined>>): string {
  return template.replace(/\{\{|\}\}|\{(\w+)\}/g, (match, name: string | undefined) => {
    if (match === '{{') return '{';
    if (match === '}}') return '}';
    return values[name as string] ?? 'None';
  });
}

/**
 * `format_auto_rater_prompt` (L153–178): the expected invocation's user text, the actual response and the reference
 * response (empty when there is no text), intermediate texts included as the criterion says.
 */
export function formatFinalResponsePrompt(
  actual: Invocation,
  expected: Invocation | undefined,
  criterion: Pick<LlmAsAJudgeCriterion, 'includeIntermediateResponsesInFinal'>,
  template: string = FINAL_RESPONSE_MATCH_V2_PROMPT,
): string {
  if (expected === undefined)
    throw new ValidationError({
      subject: `metric ${FINAL_RESPONSE_MATCH_V2}`,
      issues: [{ path: 'expected', message: 'expected_invocation is required for this metric.' }],
    });
  const include = criterion.includeIntermediateResponsesInFinal;
  return formatTemplate(template, {
    prompt: judgeTextOfContent(expected.userContent),
    response: judgeTextOfInvocation(actual, include) || '',
    golden_response: judgeTextOfInvocation(expected, include) || '',
  });
}

/** `convert_auto_rater_response_to_score` (L180–193): 1.0 for valid, 0.0 for invalid, no score otherwise. */
export function finalResponseScore(response: ModelResponse): AutoRaterScore {
  const text = judgeTextOfContent(response.content);
  if (text === undefined) return {};
  const label = parseCritique(text);
  return label === 'valid' ? { score: 1 } : label === 'invalid' ? { score: 0 } : {};
}

/**
 * `aggregate_per_invocation_samples` (L195–226): a majority vote of the samples with a score of 1 or 0, a tie
 * invalid; the first sample of the winning side is the result, the first sample when none has a score.
 */
export function majorityOfSamples(samples: readonly PerInvocationResult[]): PerInvocationResult {
  const positive = samples.filter((sample) => sample.score === 1);
  const negative = samples.filter((sample) => sample.score === 0);
  if (positive.length === 0 && negative.length === 0) return samples[0] as PerInvocationResult;
  return (positive.length > negative.length ? positive[0] : negative[0]) as PerInvocationResult;
}

/**
 * `aggregate_invocation_results` (L228–255): the fraction of valid invocations among those evaluated (with a score
 * and not NOT_EVALUATED), judged against the criterion's threshold; NOT_EVALUATED without a score when none was.
 */
export function validFraction(results: PerInvocationResult[], threshold: number): EvaluationResult {
  let valid = 0;
  let evaluated = 0;
  for (const result of results) {
    if (result.score === undefined || result.evalStatus === 'NOT_EVALUATED') continue;
    evaluated += 1;
    valid += result.score;
  }
  if (evaluated === 0) return { overallEvalStatus: 'NOT_EVALUATED', perInvocationResults: results };
  const overallScore = valid / evaluated;
  return { overallScore, overallEvalStatus: judgeStatus(overallScore, threshold), perInvocationResults: results };
}

/** The metric's parts for the judge loop, with its criterion (and, for tests as ADK's, another template). */
export function finalResponseMatchV2(
  criterion: LlmAsAJudgeCriterion,
  template: string = FINAL_RESPONSE_MATCH_V2_PROMPT,
): JudgedMetric {
  return {
    expectedInvocationsRequired: true,
    formatPrompt: (actual, expected) => formatFinalResponsePrompt(actual, expected, criterion, template),
    scoreResponse: finalResponseScore,
    aggregateSamples: majorityOfSamples,
    aggregateInvocations: (results) => validFraction(results, criterion.threshold),
  };
}

/** `FinalResponseMatchV2Evaluator(eval_metric).evaluate_invocations(actual, expected)`, judged by `judge`. */
export function evaluateFinalResponseMatchV2(
  metric: EvalMetric,
  judge: Model,
  actual: readonly Invocation[],
  expected: readonly Invocation[] | undefined,
  signal?: AbortSignal,
): Promise<EvaluationResult> {
  const criterion = llmAsAJudgeCriterion(metric);
  return evaluateWithJudge({
    metric,
    criterion,
    judged: finalResponseMatchV2(criterion),
    judge,
    actual,
    expected,
    ...(signal === undefined ? {} : { signal }),
  });
}
