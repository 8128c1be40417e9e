import type { EvalMetric, EvaluationResult, Invocation, Rubric } from '../../contracts/evaluation.js';
import type { Model } from '../../contracts/model.js';
import { formatTemplate } from './final-response-match-v2.js';
import { toolCallsAndResponsesJson, toolDeclarationsJson } from './judge-context.js';
import { judgeTextOfContent } from './judge-text.js';
import type { JudgedMetric } from './llm-as-judge.js';
import {
  type RubricsBasedCriterion,
  evaluateRubricBased,
  rubricBasedMetric,
  rubricsText,
} from './rubric-based-evaluator.js';
import { RUBRIC_BASED_TOOL_USE_QUALITY_V1_PROMPT } from './rubric-based-tool-use-quality-v1-prompt.js';

// ADK 2.5.0's `rubric_based_tool_use_quality_v1` (src/google/adk/evaluation/rubric_based_tool_use_quality_v1.py
// `RubricBasedToolUseV1Evaluator`, commit bb56aa56): the judge checks the agent's tool calls (and their responses)
// against each rubric. Invocation rubrics count when their type is TOOL_USE_QUALITY.

export const RUBRIC_BASED_TOOL_USE_QUALITY_V1 = 'rubric_based_tool_use_quality_v1';

/** The type of the invocation rubrics this metric reads (`RUBRIC_TYPE`, L163). */
export const TOOL_USE_QUALITY = 'TOOL_USE_QUALITY';

/**
 * `format_auto_rater_prompt` (L173–201): the tool declarations (with app details), the user's text (`None` without
 * parts), the tool calls and responses, the rubrics.
 */
export function formatToolUseQualityPrompt(
  actual: Invocation,
  rubrics: readonly Rubric[],
  template: string = RUBRIC_BASED_TOOL_USE_QUALITY_V1_PROMPT,
): string {
  return formatTemplate(template, {
    tool_declarations:
      actual.appDetails === undefined ? 'Agent has no tools.' : toolDeclarationsJson(actual.appDetails),
    user_input: judgeTextOfContent(actual.userContent),
    tool_usage: toolCallsAndResponsesJson(actual.intermediateData),
    rubrics: rubricsText(rubrics),
  });
}

/** The metric's parts for the judge loop. */
export function rubricBasedToolUseQualityV1(metric: EvalMetric, criterion: RubricsBasedCriterion): JudgedMetric {
  return rubricBasedMetric(metric, criterion, TOOL_USE_QUALITY, (actual, rubrics) =>
    formatToolUseQualityPrompt(actual, rubrics),
  );
}

/** `RubricBasedToolUseV1Evaluator(eval_metric).evaluate_invocations(actual, expected)`, judged by `judge`. */
export function evaluateRubricBasedToolUseQualityV1(
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
    (criterion) => rubricBasedToolUseQualityV1(metric, criterion),
    signal,
  );
}
