import type {
  EvalMetric,
  EvaluationResult,
  Invocation,
  PerInvocationResult,
  Rubric,
  RubricScore,
} from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Model, ModelResponse } from '../../contracts/model.js';
import { pythonStrip } from '../../engine/python/python-text.js';
import { JsonReader } from '../../engine/util/json-reader.js';
import { readRubrics } from './eval-case-reader.js';
import { judgeTextOfContent } from './judge-text.js';
import {
  type AutoRaterScore,
  type JudgedMetric,
  type LlmAsAJudgeCriterion,
  evaluateWithJudge,
  field,
  llmAsAJudgeCriterion,
  statusAgainst,
} from './llm-as-judge.js';
import { pythonMean } from './python-mean.js';

// ADK 2.5.0's rubric-based judging (src/google/adk/evaluation/rubric_based_evaluator.py `RubricBasedEvaluator`, its
// `DefaultAutoRaterResponseParser`, `MajorityVotePerInvocationResultsAggregator` and
// `MeanInvocationResultsSummarizer`, with `get_average_rubric_score` of llm_as_judge_utils.py L100–117), commit
// bb56aa56: the judge answers yes or no per rubric; a sample scores the mean of its rubrics, the samples of an
// invocation are put together rubric by rubric by majority vote, and the case scores the mean of every rubric verdict.

/** The criterion of a rubric-based metric (`RubricsBasedCriterion`, eval_metrics.py L145–162). */
export type RubricsBasedCriterion = LlmAsAJudgeCriterion & { rubrics: Rubric[] };

/** One rubric's verdict as the judge wrote it (`RubricResponse`, L42–48). */
export type RubricResponse = { rubricId?: string; propertyText?: string; rationale?: string; score?: number };

/**
 * The metric's criterion: `LlmAsAJudgeCriterion`'s fields and `rubrics`, read as the eval files' rubrics are. ADK's
 * constructor asserts there is at least one (L355).
 */
export function rubricsBasedCriterion(metric: EvalMetric): RubricsBasedCriterion {
  const criterion = llmAsAJudgeCriterion(metric, 'RubricsBasedCriterion');
  const hint = `\`${metric.metricName}\` metric expects a criterion of type \`RubricsBasedCriterion\`.`;
  const reader = new JsonReader();
  const raw = field(metric.criterion?.extra ?? {}, 'rubrics');
  const rubrics = raw === undefined ? [] : readRubrics(reader, raw, 'criterion.rubrics');
  if (reader.issues.length > 0 || rubrics === undefined)
    throw new ValidationError({ subject: `metric ${metric.metricName}`, issues: reader.issues, hint });
  if (rubrics.length === 0)
    throw new ValidationError({
      subject: `metric ${metric.metricName}`,
      issues: [{ path: 'criterion.rubrics', message: 'Rubrics are required.' }],
      hint: 'List them in the criterion: "rubrics": [{ "rubric_id": …, "rubric_content": { "text_property": … } }].',
    });
  return { ...criterion, rubrics };
}

// L60–63. Python's `(?m)^…$` is emulated with lookarounds on `\n` alone, and `.` as `[^\n]`, since JavaScript's `^`,
// `$` and `.` also treat `\r`, U+2028 and U+2029 as line ends.
const ID_LINE = /(?<![^\n])\s*ID: ([^\n]*)(?![^\n])/g;
const PROPERTY_LINE = /(?<![^\n])\s*Property: ([^\n]*)(?![^\n])/g;
const RATIONALE = /(?<=Rationale: )([^\n]*)/g;
const VERDICT = /(?<=Verdict: )([^\n]*)/g;

/**
 * `DefaultAutoRaterResponseParser.parse` (L66–110): a verdict containing "yes" scores 1, else one containing "no" 0,
 * else none. Unless there are as many properties as rationales and verdicts, nothing (a partial parse could drop a
 * failed rubric). Each property takes the id of an `ID:` line between the previous property and itself, the last one.
 */
export function parseRubricResponses(text: string): RubricResponse[] {
  const properties = [...text.matchAll(PROPERTY_LINE)];
  const ids = [...text.matchAll(ID_LINE)];
  const rationales = [...text.matchAll(RATIONALE)].map((match) => match[1] ?? '');
  const scores = [...text.matchAll(VERDICT)].map((match) => {
    const verdict = (match[1] ?? '').toLowerCase();
    return verdict.includes('yes') ? 1 : verdict.includes('no') ? 0 : undefined;
  });
  if (properties.length !== rationales.length || rationales.length !== scores.length) return [];
  return properties.map((property, index) => {
    const previousStart = index > 0 ? (properties[index - 1]?.index ?? -1) : -1;
    let rubricId: string | undefined;
    for (const id of ids)
      if (previousStart < id.index && id.index < property.index) rubricId = pythonStrip(id[1] ?? '') || undefined;
    const score = scores[index];
    return {
      ...(rubricId === undefined ? {} : { rubricId }),
      propertyText: pythonStrip(property[1] ?? ''),
      rationale: pythonStrip(rationales[index] ?? ''),
      ...(score === undefined ? {} : { score }),
    };
  });
}

/** `get_average_rubric_score`: the mean of the scores present; none without any. */
export function averageRubricScore(scores: readonly RubricScore[]): number | undefined {
  const values = scores.flatMap((score) => (score.score === undefined ? [] : [score.score]));
  return values.length > 0 ? pythonMean(values) : undefined;
}

// `_normalize_text` (L303–307): lowercased and stripped; a rubric without text matches the empty text.
function normalizeText(text: string | undefined): string {
  return text === undefined ? '' : pythonStrip(text.toLowerCase());
}

/**
 * `create_effective_rubrics_list` (L365–390): the criterion's rubrics, then the invocation's of the metric's rubric
 * type (all of them when it has none); an id seen twice is ADK's ValueError.
 */
export function effectiveRubrics(
  criterionRubrics: readonly Rubric[],
  invocationRubrics: readonly Rubric[] | undefined,
  rubricType: string | undefined,
): Rubric[] {
  const byId = new Map<string, Rubric>();
  const add = (rubrics: readonly Rubric[], scope: string): void => {
    for (const rubric of rubrics) {
      if (byId.has(rubric.rubricId))
        throw new ValidationError({
          subject: 'rubrics',
          issues: [
            {
              path: rubric.rubricId,
              message: `Rubric with rubric_id '${rubric.rubricId}' already exists. Rubric defined in ${scope} conflicts with an existing rubric.`,
            },
          ],
        });
      byId.set(rubric.rubricId, rubric);
    }
  };
  add(criterionRubrics, 'criterion');
  if (invocationRubrics !== undefined && invocationRubrics.length > 0)
    add(
      rubricType === undefined ? invocationRubrics : invocationRubrics.filter((rubric) => rubric.type === rubricType),
      'invocation',
    );
  return [...byId.values()];
}

/**
 * `convert_auto_rater_response_to_score` (L401–456): each parsed verdict given to the rubric of its id, else to the
 * rubric of the same (normalized) text; a verdict for no known rubric is dropped (ADK logs it). The sample scores the
 * mean of its rubric scores.
 */
export function rubricAutoRaterScore(response: ModelResponse, rubrics: readonly Rubric[]): AutoRaterScore {
  const text = judgeTextOfContent(response.content);
  const parsed = text ? parseRubricResponses(text) : [];
  const byText = new Map<string, Rubric>();
  const byId = new Map<string, Rubric>();
  for (const rubric of rubrics) {
    byText.set(normalizeText(rubric.rubricContent.textProperty), rubric);
    byId.set(rubric.rubricId, rubric);
  }
  const rubricScores: RubricScore[] = [];
  for (const verdict of parsed) {
    const rubric =
      (verdict.rubricId ? byId.get(verdict.rubricId) : undefined) ?? byText.get(normalizeText(verdict.propertyText));
    if (rubric === undefined) continue;
    rubricScores.push({
      rubricId: rubric.rubricId,
      ...(verdict.rationale === undefined ? {} : { rationale: verdict.rationale }),
      ...(verdict.score === undefined ? {} : { score: verdict.score }),
    });
  }
  const score = averageRubricScore(rubricScores);
  return { ...(score === undefined ? {} : { score }), rubricScores };
}

/**
 * `MajorityVotePerInvocationResultsAggregator.aggregate` (L133–223): per rubric (in the order first seen), the first
 * positive verdict when positives outnumber negatives, else the first negative one, else the first without a score;
 * the invocation scores their mean, judged against `threshold`.
 */
export function majorityVoteOfRubrics(
  samples: readonly PerInvocationResult[],
  threshold: number | undefined,
  metricName = 'rubric-based metric',
): PerInvocationResult {
  const buckets = new Map<string, [RubricScore[], RubricScore[], RubricScore[]]>();
  for (const sample of samples)
    for (const rubricScore of sample.rubricScores ?? []) {
      const bucket = buckets.get(rubricScore.rubricId) ?? [[], [], []];
      buckets.set(rubricScore.rubricId, bucket);
      bucket[rubricScore.score === undefined ? 0 : rubricScore.score === 1 ? 1 : 2].push(rubricScore);
    }
  const rubricScores: RubricScore[] = [];
  for (const [none, positives, negatives] of buckets.values()) {
    const chosen =
      positives.length === 0 && negatives.length === 0
        ? none[0]
        : positives.length > negatives.length
          ? positives[0]
          : negatives[0];
    rubricScores.push(chosen as RubricScore);
  }
  const first = samples[0] as PerInvocationResult;
  const score = averageRubricScore(rubricScores);
  return {
    actualInvocation: first.actualInvocation,
    ...(first.expectedInvocation === undefined ? {} : { expectedInvocation: first.expectedInvocation }),
    ...(score === undefined ? {} : { score }),
    evalStatus: statusAgainst(score, threshold, metricName),
    rubricScores,
  };
}

/** The rationale ADK gives a rubric's score over the invocations (L281–285). */
export const AGGREGATED_RATIONALE =
  'This is an aggregated score derived from individual entries. Please refer to individual entries in each invocation for actual rationale from the model.';

/**
 * `MeanInvocationResultsSummarizer.summarize` (L237–300): per rubric, the mean of its scores over the invocations;
 * overall, the mean of every rubric score of every invocation, judged against `threshold`.
 */
export function meanOfRubrics(
  results: PerInvocationResult[],
  threshold: number | undefined,
  metricName = 'rubric-based metric',
): EvaluationResult {
  const byId = new Map<string, RubricScore[]>();
  const all: RubricScore[] = [];
  for (const result of results)
    for (const rubricScore of result.rubricScores ?? []) {
      byId.set(rubricScore.rubricId, [...(byId.get(rubricScore.rubricId) ?? []), rubricScore]);
      all.push(rubricScore);
    }
  const overallRubricScores: RubricScore[] = [...byId].map(([rubricId, scores]) => {
    const score = averageRubricScore(scores);
    return { rubricId, ...(score === undefined ? {} : { score }), rationale: AGGREGATED_RATIONALE };
  });
  const overallScore = averageRubricScore(all);
  return {
    ...(overallScore === undefined ? {} : { overallScore }),
    overallEvalStatus: statusAgainst(overallScore, threshold, metricName),
    perInvocationResults: results,
    overallRubricScores,
  };
}

/**
 * A rubric-based metric's parts for the judge loop (`RubricBasedEvaluator`): `formatPrompt` builds the effective
 * rubrics of the invocation it formats, which scoring that invocation's answers then uses, as ADK keeps them on the
 * evaluator between the two calls.
 */
export function rubricBasedMetric(
  metric: EvalMetric,
  criterion: RubricsBasedCriterion,
  rubricType: string | undefined,
  formatPrompt: (actual: Invocation, rubrics: Rubric[]) => string,
): JudgedMetric {
  let rubrics: Rubric[] | undefined;
  return {
    expectedInvocationsRequired: false,
    formatPrompt: (actual) => {
      rubrics = effectiveRubrics(criterion.rubrics, actual.rubrics, rubricType);
      return formatPrompt(actual, rubrics);
    },
    scoreResponse: (response) => {
      if (rubrics === undefined)
        throw new Error('Effective rubrics list not initialized. Call create_effective_rubrics_list() first.');
      return rubricAutoRaterScore(response, rubrics);
    },
    aggregateSamples: (samples) => majorityVoteOfRubrics(samples, metric.threshold, metric.metricName),
    aggregateInvocations: (results) => meanOfRubrics(results, metric.threshold, metric.metricName),
  };
}

/** `*  [id: …] …` per rubric, as both rubric prompts list them (`None` for a rubric without text). */
export function rubricsText(rubrics: readonly Rubric[]): string {
  return rubrics
    .map((rubric) => `*  [id: ${rubric.rubricId}] ${rubric.rubricContent.textProperty ?? 'None'}`)
    .join('\n');
}

/** Runs a rubric-based metric over the invocations with `judge` (`LlmAsJudge.evaluate_invocations`). */
export function evaluateRubricBased(
  metric: EvalMetric,
  judge: Model,
  actual: readonly Invocation[],
  expected: readonly Invocation[] | undefined,
  make: (criterion: RubricsBasedCriterion) => JudgedMetric,
  signal?: AbortSignal,
): Promise<EvaluationResult> {
  const criterion = rubricsBasedCriterion(metric);
  return evaluateWithJudge({
    metric,
    criterion,
    judged: make(criterion),
    judge,
    actual,
    expected,
    ...(signal === undefined ? {} : { signal }),
  });
}
