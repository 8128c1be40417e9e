import type {
  EvalMetric,
  EvalStatus,
  EvaluationResult,
  Invocation,
  PerInvocationResult,
  RubricScore,
} from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Model, ModelResponse } from '../../contracts/model.js';
import type { LlmRequest, RequestConfig } from '../../contracts/request.js';
import { snakeCase } from './adk-fields.js';
import { JUDGE_MODEL_OPTIONS } from './eval-config-fields.js';

// ADK 2.5.0's LLM-as-a-judge loop (src/google/adk/evaluation/llm_as_judge.py `LlmAsJudge`, with `get_eval_status` of
// llm_as_judge_utils.py L94–97 and `JudgeModelOptions`, `LlmAsAJudgeCriterion` of eval_metrics.py L79–142), commit
// bb56aa56. The judge is an agentctx `Model` given by the caller: the criterion's `judge_model` only names the model
// ADK would resolve through its registry (`_setup_auto_rater`, L187–191), and it is sent as `config.model`, as ADK
// puts it on the request, which adapters do not send on.

/** The judge's settings (`JudgeModelOptions`). */
export type JudgeModelOptions = {
  /** The model ADK would use; `gemini-2.5-flash` by default. */
  judgeModel: string;
  /** ADK's `GenerateContentConfig` for the judge, as the request config it becomes. */
  judgeModelConfig?: RequestConfig;
  /** Judge calls per invocation; 5 by default. */
  numSamples: number;
};

/** The criterion of an LLM-judged metric (`LlmAsAJudgeCriterion`). */
export type LlmAsAJudgeCriterion = {
  threshold: number;
  includeIntermediateResponsesInFinal: boolean;
  judgeModelOptions: JudgeModelOptions;
};

/** What a metric made of one judge answer (`AutoRaterScore`): no score when the answer could not be read. */
export type AutoRaterScore = { score?: number; rubricScores?: RubricScore[] };

/** The parts an LLM-judged metric supplies (`LlmAsJudge`'s abstract methods). */
export type JudgedMetric = {
  /** `expected_invocations_required`: the metric refuses to run without expected invocations. */
  expectedInvocationsRequired: boolean;
  formatPrompt(actual: Invocation, expected: Invocation | undefined): string;
  scoreResponse(response: ModelResponse): AutoRaterScore;
  aggregateSamples(samples: PerInvocationResult[]): PerInvocationResult;
  aggregateInvocations(results: PerInvocationResult[]): EvaluationResult;
};

/** `get_eval_status`: no score is NOT_EVALUATED; a score equal to the threshold passes. */
export function judgeStatus(score: number | undefined, threshold: number): EvalStatus {
  if (score === undefined) return 'NOT_EVALUATED';
  return score >= threshold ? 'PASSED' : 'FAILED';
}

// GenerateContentConfig fields agentctx's request has, by ADK's snake_case name (camelCase is taken too).
const CONFIG_FIELDS: Readonly<Record<string, keyof RequestConfig>> = {
  temperature: 'temperature',
  top_p: 'topP',
  top_k: 'topK',
  max_output_tokens: 'maxOutputTokens',
  stop_sequences: 'stopSequences',
  seed: 'seed',
  presence_penalty: 'presencePenalty',
  frequency_penalty: 'frequencyPenalty',
  candidate_count: 'candidateCount',
  response_mime_type: 'responseMimeType',
  labels: 'labels',
};

/**
 * The metric's criterion read as `LlmAsAJudgeCriterion` (`LlmAsJudge.__init__`, L74–90): `judge_model_options` (or
 * `judgeModelOptions`) from the criterion's extra fields, its defaults filled in. Refused, with ADK's message, when the
 * metric has no criterion or the options are not what pydantic would take (`JudgeModelOptions` forbids other fields).
 * A `judge_model_config` field agentctx's request has no equivalent for is refused too rather than dropped.
 */
export function llmAsAJudgeCriterion(metric: EvalMetric, criterionType = 'LlmAsAJudgeCriterion'): LlmAsAJudgeCriterion {
  const refuse = (path: string, message: string): never => {
    throw new ValidationError({
      subject: `metric ${metric.metricName}`,
      issues: [{ path, message }],
      hint: `\`${metric.metricName}\` metric expects a criterion of type \`${criterionType}\`.`,
    });
  };
  const criterion = metric.criterion;
  if (criterion === undefined) return refuse('criterion', 'is required by this metric');
  const extra = criterion.extra ?? {};
  const given = field(extra, 'judge_model_options');
  const raw = given === undefined ? {} : given;
  if (!isRecord(raw)) return refuse('criterion.judge_model_options', 'expected an object');
  const known = new Set(Object.keys(JUDGE_MODEL_OPTIONS.fields).map(snakeCase));
  for (const key of Object.keys(raw))
    if (!known.has(snakeCase(key))) refuse(`criterion.judge_model_options.${key}`, 'unknown field');
  const judgeModel = field(raw, 'judge_model') === undefined ? 'gemini-2.5-flash' : field(raw, 'judge_model');
  if (typeof judgeModel !== 'string') return refuse('criterion.judge_model_options.judge_model', 'expected a string');
  const numSamples = field(raw, 'num_samples') === undefined ? 5 : field(raw, 'num_samples');
  if (typeof numSamples !== 'number' || !Number.isSafeInteger(numSamples))
    return refuse('criterion.judge_model_options.num_samples', 'expected a whole number');
  const config = field(raw, 'judge_model_config') ?? undefined;
  if (config !== undefined && !isRecord(config))
    return refuse('criterion.judge_model_options.judge_model_config', 'expected an object');
  const judgeModelConfig: RequestConfig = {};
  for (const [key, value] of Object.entries(config ?? {})) {
    if (value === null) continue;
    const name = Object.hasOwn(CONFIG_FIELDS, snakeCase(key)) ? CONFIG_FIELDS[snakeCase(key)] : undefined;
    if (name === undefined)
      return refuse(`criterion.judge_model_options.judge_model_config.${key}`, 'not supported by agentctx requests');
    (judgeModelConfig as Record<string, unknown>)[name] = value;
  }
  return {
    threshold: criterion.threshold,
    includeIntermediateResponsesInFinal: criterion.includeIntermediateResponsesInFinal,
    judgeModelOptions: { judgeModel, ...(config === undefined ? {} : { judgeModelConfig }), numSamples },
  };
}

/**
 * The judge's request for a prompt, as `evaluate_invocations` builds it (L142–153): the prompt as one user message,
 * the judge model's config (empty when none). ADK's `add_default_retry_options_if_not_present` sets HTTP retries,
 * which agentctx models own, so there is nothing to add here.
 */
export function judgeRequest(prompt: string, options: JudgeModelOptions): LlmRequest {
  return {
    system: '',
    tools: [],
    messages: [{ role: 'user', content: [{ text: prompt }] }],
    config: { model: options.judgeModel, ...options.judgeModelConfig },
  };
}

export type EvaluateWithJudgeInput = {
  metric: EvalMetric;
  criterion: LlmAsAJudgeCriterion;
  judged: JudgedMetric;
  judge: Model;
  actual: readonly Invocation[];
  expected: readonly Invocation[] | undefined;
  signal?: AbortSignal;
};

/**
 * `LlmAsJudge.evaluate_invocations` (L118–185): per invocation, `num_samples` judge calls with the same request, each
 * answer scored by the metric and judged against the metric's `threshold` (an unreadable answer is a sample without a
 * score, NOT_EVALUATED); the samples aggregated by the metric, then the invocations. An invocation with no sample
 * (`num_samples` 0) is left out; with none at all, the result is NOT_EVALUATED. A failing judge call throws.
 */
export async function evaluateWithJudge(input: EvaluateWithJudgeInput): Promise<EvaluationResult> {
  const { metric, criterion, judged, judge, actual, expected } = input;
  if (judged.expectedInvocationsRequired && expected === undefined)
    throw new ValidationError({
      subject: `metric ${metric.metricName}`,
      issues: [{ path: 'expected', message: 'expected_invocations is needed by this metric.' }],
    });
  checkInvocationLengths(metric.metricName, actual, expected);
  const results: PerInvocationResult[] = [];
  for (const [index, actualInvocation] of actual.entries()) {
    const expectedInvocation = expected?.[index];
    const request = judgeRequest(
      judged.formatPrompt(actualInvocation, expectedInvocation),
      criterion.judgeModelOptions,
    );
    const samples: PerInvocationResult[] = [];
    for (let sample = 0; sample < criterion.judgeModelOptions.numSamples; sample++) {
      const response = await judge.generate(request, input.signal === undefined ? {} : { signal: input.signal });
      const { score, rubricScores } = judged.scoreResponse(response);
      samples.push({
        actualInvocation,
        ...(expectedInvocation === undefined ? {} : { expectedInvocation }),
        ...(score === undefined ? {} : { score }),
        evalStatus: judgeStatus(score, metricThreshold(metric, score)),
        ...(rubricScores === undefined ? {} : { rubricScores }),
      });
    }
    if (samples.length === 0) continue;
    results.push(judged.aggregateSamples(samples));
  }
  if (results.length === 0) return { overallEvalStatus: 'NOT_EVALUATED', perInvocationResults: [] };
  return judged.aggregateInvocations(results);
}

/** `_validate_invocation_lengths` (evaluator.py L29–41): expected invocations, when given, pair with the actual ones. */
export function checkInvocationLengths(
  metricName: string,
  actual: readonly Invocation[],
  expected: readonly Invocation[] | undefined,
): void {
  if (expected !== undefined && actual.length !== expected.length)
    throw new ValidationError({
      subject: `metric ${metricName}`,
      issues: [
        {
          path: '',
          message: `actual_invocations and expected_invocations must have the same length; got ${actual.length} and ${expected.length}.`,
        },
      ],
    });
}

/**
 * `get_eval_status(score, eval_metric.threshold)` as ADK's judged metrics call it: without a threshold, Python's
 * `score >= None` fails for any score, so the metric is refused (and, in `evaluateCase`, not evaluated).
 */
export function statusAgainst(
  score: number | undefined,
  threshold: number | undefined,
  metricName: string,
): EvalStatus {
  if (score === undefined) return 'NOT_EVALUATED';
  if (threshold === undefined)
    throw new ValidationError({
      subject: `metric ${metricName}`,
      issues: [{ path: 'threshold', message: 'is required by this metric' }],
    });
  return judgeStatus(score, threshold);
}

// ADK judges samples against `eval_metric.threshold`, not the criterion's (L171–173); without one, Python's
// `score >= None` fails for any score, so the metric is not evaluated.
function metricThreshold(metric: EvalMetric, score: number | undefined): number {
  if (metric.threshold !== undefined || score === undefined) return metric.threshold ?? 0;
  throw new ValidationError({
    subject: `metric ${metric.metricName}`,
    issues: [{ path: 'threshold', message: 'is required by this metric' }],
  });
}

/** A criterion field by its snake_case name or its camelCase alias (pydantic's `populate_by_name`). */
export function field(record: Record<string, unknown>, name: string): unknown {
  if (Object.hasOwn(record, name)) return record[name];
  const camel = name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return Object.hasOwn(record, camel) ? record[camel] : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
