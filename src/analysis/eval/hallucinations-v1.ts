import type { FunctionCall, FunctionResponse } from '../../contracts/content.js';
import type {
  AppDetails,
  EvalMetric,
  EvaluationResult,
  Invocation,
  InvocationEvent,
  PerInvocationResult,
} from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Model } from '../../contracts/model.js';
import { pythonStrip } from '../../engine/python/python-text.js';
import { formatTemplate } from './final-response-match-v2.js';
import { HALLUCINATIONS_V1_SEGMENTER_PROMPT, HALLUCINATIONS_V1_VALIDATOR_PROMPT } from './hallucinations-v1-prompt.js';
import {
  developerInstructions,
  functionCallFields,
  functionResponseFields,
  pythonJsonDumps,
  toolDeclarationsJson,
} from './judge-context.js';
import { judgeTextOfContent } from './judge-text.js';
import {
  type LlmAsAJudgeCriterion,
  checkInvocationLengths,
  field,
  judgeRequest,
  llmAsAJudgeCriterion,
  statusAgainst,
} from './llm-as-judge.js';
import type { PyJson } from './pydantic-json.js';
import { pythonMean } from './python-mean.js';

// ADK 2.5.0's `hallucinations_v1` (src/google/adk/evaluation/hallucinations_v1.py `HallucinationsV1Evaluator`, commit
// bb56aa56): for each natural-language response of an invocation, the judge first splits it into sentences, then
// labels each sentence against the context the agent had (its instructions, the user's prompt, its tools, the tool
// calls and texts before it). A response scores the fraction of sentences supported or not needing support; an
// invocation the mean of its responses; the case the mean of its invocations. No expected invocation is needed, and
// `num_samples` is not used: one segmenter and one validator call per response.

export const HALLUCINATIONS_V1 = 'hallucinations_v1';

/** The criterion (`HallucinationsCriterion`, eval_metrics.py L165–180). */
export type HallucinationsCriterion = LlmAsAJudgeCriterion & {
  /** Judge the texts the agent gave before its final response too; only the final one by default. */
  evaluateIntermediateNlResponses: boolean;
};

/** One sentence's verdict as `_parse_validation_results` (L228–255) reads it; null excerpts are absent. */
export type SentenceValidation = {
  sentence: string;
  label: string;
  rationale: string;
  supportingExcerpt?: string;
  contradictingExcerpt?: string;
};

/** A text to judge and the context it is judged against (`EvaluationStep`, L215–220). */
export type EvaluationStep = { context: string; nlResponse: string };

/** The metric's criterion: `LlmAsAJudgeCriterion`'s fields and `evaluate_intermediate_nl_responses` (a boolean). */
export function hallucinationsCriterion(metric: EvalMetric): HallucinationsCriterion {
  const criterion = llmAsAJudgeCriterion(metric, 'HallucinationsCriterion');
  const value = field(metric.criterion?.extra ?? {}, 'evaluate_intermediate_nl_responses');
  if (value !== undefined && typeof value !== 'boolean')
    throw new ValidationError({
      subject: `metric ${metric.metricName}`,
      issues: [{ path: 'criterion.evaluate_intermediate_nl_responses', message: 'expected true or false' }],
      hint: `\`${metric.metricName}\` metric expects a criterion of type \`HallucinationsCriterion\`.`,
    });
  return { ...criterion, evaluateIntermediateNlResponses: value === true };
}

/** `_parse_sentences` (L223–225): the texts between `<sentence>` and `</sentence>`, newlines included. */
export function parseSentences(text: string): string[] {
  return [...text.matchAll(/<sentence>([\s\S]*?)<\/sentence>/g)].map((match) => match[1] ?? '');
}

// L233–236: one block per sentence, up to the next `sentence:` line or the end; IGNORECASE is Python's Unicode one.
const VALIDATION_BLOCK =
  /sentence:(.*?)\nlabel:(.*?)\nrationale:(.*?)\nsupporting_excerpt:(.*?)\ncontradicting_excerpt:(.*?)(?=\nsentence:|$)/gisu;

/** `_parse_validation_results` (L228–255): each block's fields stripped, an excerpt of `null` (any case) absent. */
export function parseValidationResults(text: string): SentenceValidation[] {
  return [...pythonStrip(text).matchAll(VALIDATION_BLOCK)].map((match) => {
    const [sentence, label, rationale, supporting, contradicting] = match.slice(1).map((group) => pythonStrip(group));
    return {
      sentence: sentence ?? '',
      label: label ?? '',
      rationale: rationale ?? '',
      ...(supporting === undefined || supporting.toLowerCase() === 'null' ? {} : { supportingExcerpt: supporting }),
      ...(contradicting === undefined || contradicting.toLowerCase() === 'null'
        ? {}
        : { contradictingExcerpt: contradicting }),
    };
  });
}

const POSITIVE_LABELS = new Set(['supported', 'not_applicable']);
const NEGATIVE_LABELS = new Set(['unsupported', 'contradictory', 'disputed']);

/** L561–576: the mean of 1 per supported or not-applicable sentence and 0 per other known label; none without one. */
export function accuracyScore(results: readonly SentenceValidation[]): number | undefined {
  const scores: number[] = [];
  for (const result of results) {
    const label = pythonStrip(result.label).toLowerCase();
    if (POSITIVE_LABELS.has(label)) scores.push(1);
    else if (NEGATIVE_LABELS.has(label)) scores.push(0);
  }
  return scores.length > 0 ? pythonMean(scores) : undefined;
}

/**
 * `_create_context_for_step` (L309–494): the agents' instructions (each under its key, those without any left out),
 * the user's prompt (`None` without parts), the tool declarations, then per earlier event with parts its texts, its
 * tool calls and its tool outputs, each block followed by a blank line.
 */
export function contextForStep(
  app: AppDetails | undefined,
  invocation: Invocation,
  events: readonly InvocationEvent[],
): string {
  let instructions = '';
  let declarations = 'Agent has no tools.';
  if (app !== undefined) {
    const blocks: string[] = [];
    for (const name of Object.keys(app.agentDetails)) {
      const text = developerInstructions(app, name);
      if (text) blocks.push(`${name}:\n${text}`);
    }
    instructions = blocks.join('\n\n');
    declarations = toolDeclarationsJson(app);
  }
  const parts = [
    `Developer instructions:\n${instructions}\n`,
    `User prompt:\n${judgeTextOfContent(invocation.userContent) ?? 'None'}\n`,
    'Tool definitions:',
    `${declarations}\n`,
  ];
  for (const event of events) {
    const eventParts = event.content?.parts ?? [];
    if (eventParts.length === 0) continue;
    const calls: FunctionCall[] = [];
    const responses: FunctionResponse[] = [];
    const texts: string[] = [];
    for (const part of eventParts) {
      if ('functionCall' in part) calls.push(part.functionCall);
      else if ('functionResponse' in part) responses.push(part.functionResponse);
      else if ('text' in part && part.text) texts.push(part.text);
    }
    if (texts.length > 0) parts.push(`${texts.join('\n')}\n`);
    if (calls.length > 0) parts.push('tool_calls:', `${pythonJsonDumps(calls.map(functionCallFields))}\n`);
    if (responses.length > 0)
      parts.push('tool_outputs:', `${pythonJsonDumps(responses.map(functionResponseFields) as PyJson[])}\n`);
  }
  return parts.join('\n');
}

/**
 * `_get_steps_to_evaluate` (L579–676): with `evaluate_intermediate_nl_responses`, each text part of each event in
 * turn, against the events before it; then the final response's text, against all the events.
 */
export function stepsToEvaluate(actual: Invocation, criterion: HallucinationsCriterion): EvaluationStep[] {
  const steps: EvaluationStep[] = [];
  const data = actual.intermediateData;
  const events = data !== undefined && 'invocationEvents' in data ? data.invocationEvents : [];
  let before: InvocationEvent[] = events;
  if (criterion.evaluateIntermediateNlResponses) {
    before = [];
    for (const event of events) {
      const texts = (event.content?.parts ?? []).flatMap((part) => ('text' in part && part.text ? [part.text] : []));
      if (texts.length > 0) {
        const context = contextForStep(actual.appDetails, actual, before);
        for (const nlResponse of texts) steps.push({ nlResponse, context });
      }
      before.push(event);
    }
  }
  const final = judgeTextOfContent(actual.finalResponse);
  if (final) steps.push({ nlResponse: final, context: contextForStep(actual.appDetails, actual, before) });
  return steps;
}

/**
 * `_evaluate_nl_response` (L496–577): the segmenter's sentences, then the validator's labels, scored. A judge call
 * that fails, an answer without text, no sentence or no known label give no score, as ADK's (an abort still throws).
 */
export async function evaluateNlResponse(
  nlResponse: string,
  context: string,
  criterion: LlmAsAJudgeCriterion,
  judge: Model,
  signal?: AbortSignal,
): Promise<number | undefined> {
  const ask = async (prompt: string): Promise<string | undefined> => {
    try {
      const response = await judge.generate(
        judgeRequest(prompt, criterion.judgeModelOptions),
        signal === undefined ? {} : { signal },
      );
      return judgeTextOfContent(response.content);
    } catch (error) {
      if (signal?.aborted) throw error;
      return undefined;
    }
  };
  const segmented = await ask(formatTemplate(HALLUCINATIONS_V1_SEGMENTER_PROMPT, { response: nlResponse }));
  if (segmented === undefined) return undefined;
  const sentences = parseSentences(segmented);
  if (sentences.length === 0) return undefined;
  const listed = sentences.map((sentence) => `<sentence>${sentence}</sentence>`).join('\n');
  const validated = await ask(formatTemplate(HALLUCINATIONS_V1_VALIDATOR_PROMPT, { context, sentences: listed }));
  if (validated === undefined) return undefined;
  return accuracyScore(parseValidationResults(validated));
}

/**
 * `_aggregate_invocation_results` (L678–698): the mean score of the invocations that have one, judged against the
 * metric's threshold; NOT_EVALUATED without a score when none has.
 */
export function meanOfScored(
  results: PerInvocationResult[],
  threshold: number | undefined,
  metricName: string = HALLUCINATIONS_V1,
): EvaluationResult {
  const scores = results.flatMap((result) => (result.score === undefined ? [] : [result.score]));
  if (scores.length === 0) return { overallEvalStatus: 'NOT_EVALUATED', perInvocationResults: results };
  const overallScore = pythonMean(scores);
  return {
    overallScore,
    overallEvalStatus: statusAgainst(overallScore, threshold, metricName),
    perInvocationResults: results,
  };
}

/**
 * `HallucinationsV1Evaluator(eval_metric).evaluate_invocations(actual, expected)` (L700–762), judged by `judge`: an
 * invocation with nothing to judge is NOT_EVALUATED without a score; the others score the mean of their responses'
 * scores (none when no response got one), judged against the metric's `threshold`.
 */
export async function evaluateHallucinationsV1(
  metric: EvalMetric,
  judge: Model,
  actual: readonly Invocation[],
  expected: readonly Invocation[] | undefined,
  signal?: AbortSignal,
): Promise<EvaluationResult> {
  const criterion = hallucinationsCriterion(metric);
  checkInvocationLengths(metric.metricName, actual, expected);
  const results: PerInvocationResult[] = [];
  for (const [index, actualInvocation] of actual.entries()) {
    const expectedInvocation = expected?.[index];
    const pair = { actualInvocation, ...(expectedInvocation === undefined ? {} : { expectedInvocation }) };
    const steps = stepsToEvaluate(actualInvocation, criterion);
    if (steps.length === 0) {
      results.push({ ...pair, evalStatus: 'NOT_EVALUATED', rubricScores: [] });
      continue;
    }
    const scores: number[] = [];
    for (const step of steps) {
      const score = await evaluateNlResponse(step.nlResponse, step.context, criterion, judge, signal);
      if (score !== undefined) scores.push(score);
    }
    const score = scores.length > 0 ? pythonMean(scores) : undefined;
    results.push({
      ...pair,
      ...(score === undefined ? {} : { score }),
      evalStatus: statusAgainst(score, metric.threshold, metric.metricName),
      rubricScores: [],
    });
  }
  if (results.length === 0) return { overallEvalStatus: 'NOT_EVALUATED', perInvocationResults: [] };
  return meanOfScored(results, metric.threshold, metric.metricName);
}
