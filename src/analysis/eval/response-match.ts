import type { Content } from '../../contracts/content.js';
import type { EvaluationResult, Invocation } from '../../contracts/evaluation.js';
import { rouge1 } from './rouge.js';
import { scoreInvocations } from './score-invocations.js';

// ADK's `response_match_score` (google/adk/evaluation/final_response_match_v1.py, ADK 2.5.0, commit bb56aa56): the
// ROUGE-1 F-measure of the agent's final response against the expected one, per invocation and averaged.

export const RESPONSE_MATCH_SCORE = 'response_match_score';

/**
 * The text ADK scores (`_get_text_from_content`): the parts' non-empty texts, thoughts included, joined with newlines;
 * empty for no content.
 */
export function textOfContent(content: Content | undefined): string {
  if (content === undefined) return '';
  const texts: string[] = [];
  for (const part of content.parts) if ('text' in part && part.text !== '') texts.push(part.text);
  return texts.join('\n');
}

/** ROUGE-1 F-measure of the actual response against the expected one (`_calculate_rouge_1_scores(...).fmeasure`). */
export function responseMatchScore(actual: Content | undefined, expected: Content | undefined): number {
  return rouge1(textOfContent(actual), textOfContent(expected)).fmeasure;
}

/**
 * `RougeEvaluator.evaluate_invocations`: pairs the invocations in order, scores each, and averages the scores; each
 * score and the average pass when at least `threshold`. Expected invocations are required and must be as many as the
 * actual ones; with none at all the result is NOT_EVALUATED.
 */
export function evaluateResponseMatch(
  actualInvocations: readonly Invocation[],
  expectedInvocations: readonly Invocation[] | undefined,
  threshold: number,
): EvaluationResult {
  return scoreInvocations(
    actualInvocations,
    expectedInvocations,
    threshold,
    'expected_invocations is required for this metric.',
    (actual, expected) => responseMatchScore(actual.finalResponse, expected.finalResponse),
  );
}
