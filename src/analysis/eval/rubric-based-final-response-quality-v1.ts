import type { EvalMetric, EvaluationResult, Invocation, Rubric } from '../../contracts/evaluation.js';
import type { Model } from '../../contracts/model.js';
import { formatTemplate } from './final-response-match-v2.js';
import { developerInstructions, toolCallsAndResponsesJson, toolDeclarationsJson } from './judge-context.js';
import { judgeTextOfContent, judgeTextOfInvocation } from './judge-text.js';
import type { JudgedMetric } from './llm-as-judge.js';
import { RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1_PROMPT } from './rubric-based-final-response-quality-v1-prompt.js';
import {
  type RubricsBasedCriterion,
  evaluateRubricBased,
  rubricBasedMetric,
  rubricsText,
} from './rubric-based-evaluator.js';

// ADK 2.5.0's `rubric_based_final_response_quality_v1` (src/google/adk/evaluation/
// rubric_based_final_response_quality_v1.py `RubricBasedFinalResponseQualityV1Evaluator`, commit bb56aa56): the judge
// checks the agent's final answer against each rubric, with the agent's instructions, tools and tool calls as the
// evidence it may trust. Invocation rubrics count when their type is FINAL_RESPONSE_QUALITY.

export const RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1 = 'rubric_based_final_response_quality_v1';

/** The type of the invocation rubrics this metric reads (`RUBRIC_TYPE`, L263). */
export const FINAL_RESPONSE_QUALITY = 'FINAL_RESPONSE_QUALITY';

/**
 * `format_auto_rater_prompt` (L275–330): the user's text (`None` without parts), the final response (intermediate
 * texts first when the criterion includes them; empty without text), the rubrics, the tool calls and responses; with
 * app details, the tool declarations and the instructions of the agent that wrote the first event.
 */
export function formatFinalResponseQualityPrompt(
  actual: Invocation,
  rubrics: readonly Rubric[],
  criterion: Pick<RubricsBasedCriterion, 'includeIntermediateResponsesInFinal'>,
  template: string = RUBRIC_BASED_FINAL_RESPONSE_QUALITY_V1_PROMPT,
): string {
  let instructions = '';
  let declarations = 'Agent has no tools.';
  const app = actual.appDetails;
  if (app !== undefined) {
    const data = actual.intermediateData;
    const first = data !== undefined && 'invocationEvents' in data ? data.invocationEvents[0] : undefined;
    if (first !== undefined) instructions = developerInstructions(app, first.author);
    declarations = toolDeclarationsJson(app);
  }
  return formatTemplate(template, {
    developer_instructions: instructions,
    tool_declarations: declarations,
    user_input: judgeTextOfContent(actual.userContent),
    response_steps: toolCallsAndResponsesJson(actual.intermediateData),
    final_response: judgeTextOfInvocation(actual, criterion.includeIntermediateResponsesInFinal) || '',
    rubrics: rubricsText(rubrics),
  });
}

/** The metric's parts for the judge loop. */
export function rubricBasedFinalResponseQualityV1(metric: EvalMetric, criterion: RubricsBasedCriterion): JudgedMetric {
  return rubricBasedMetric(metric, criterion, FINAL_RESPONSE_QUALITY, (actual, rubrics) =>
    formatFinalResponseQualityPrompt(actual, rubrics, criterion),
  );
}

/** `RubricBasedFinalResponseQualityV1Evaluator(eval_metric).evaluate_invocations(actual, expected)`, by `judge`. */
export function evaluateRubricBasedFinalResponseQualityV1(
  metric: EvalMetric,
  judge: Model,
  actual: readonly Invocation[],
  expected: readonly Invocation[] | undefined,
  signal?: AbortSignal,
): Promise<EvaluationResult> {
  return evaluateRubricBased(
    metric,
    judge,
    actual,
    expected,
    (criterion) => rubricBasedFinalResponseQualityV1(metric, criterion),
    signal,
  );
}
