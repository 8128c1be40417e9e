import type { EvalStatus, EvaluationResult, Invocation, PerInvocationResult } from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';

/** A status against a threshold: a score equal to it passes (ADK's `_get_eval_status` and its kin). */
export function statusOf(score: number, threshold: number): EvalStatus {
  return score >= threshold ? 'PASSED' : 'FAILED';
}

/**
 * What ADK's per-invocation metrics share in `evaluate_invocations` (evaluator.py L29–41 and each metric's own): the
 * expected invocations are required (`missingExpected` is the metric's own ADK message) and as many as the actual ones;
 * each pair is scored and judged against the threshold; the overall score is their mean, summed in order and divided
 * once as ADK does, so the float is the same; with no invocation, no score and NOT_EVALUATED.
 */
export function scoreInvocations(
  actual: readonly Invocation[],
  expected: readonly Invocation[] | undefined,
  threshold: number,
  missingExpected: string,
  score: (actual: Invocation, expected: Invocation) => number,
): EvaluationResult {
  if (expected === undefined)
    throw new ValidationError({ subject: 'invocations', issues: [{ path: 'expected', message: missingExpected }] });
  if (actual.length !== expected.length)
    throw new ValidationError({
      subject: 'invocations',
      issues: [
        {
          path: '',
          message: `actual_invocations and expected_invocations must have the same length; got ${actual.length} and ${expected.length}.`,
        },
      ],
    });
  const perInvocationResults: PerInvocationResult[] = actual.map((actualInvocation, index) => {
    // The lengths are equal, so every index has its expected invocation.
    const expectedInvocation = expected[index] as Invocation;
    const value = score(actualInvocation, expectedInvocation);
    return { actualInvocation, expectedInvocation, score: value, evalStatus: statusOf(value, threshold) };
  });
  if (perInvocationResults.length === 0) return { overallEvalStatus: 'NOT_EVALUATED', perInvocationResults: [] };
  let total = 0;
  for (const result of perInvocationResults) total += result.score ?? 0;
  const overallScore = total / perInvocationResults.length;
  return { overallScore, overallEvalStatus: statusOf(overallScore, threshold), perInvocationResults };
}
