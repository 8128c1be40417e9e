import type { JsonSchema } from '../../engine/config/agent-file-schema.js';
import type { AdkModel } from './adk-fields.js';
import { orNull, ref } from './eval-set-fields.js';

// The models of ADK 2.5.0's test_config.json (eval_config.py, eval_metrics.py, agents/common_configs.py) as tables:
// eval-config.ts and llm-as-judge.ts read their fields from them, and the published schema is built from them.

export const EVAL_CONFIG: AdkModel = {
  name: 'EvalConfig',
  description: 'How the cases of an eval set are scored: the metrics, and what each must reach.',
  extras: 'forbid',
  fields: {
    criteria: {
      type: 'object',
      additionalProperties: ref('Criterion'),
      description:
        'Each metric by its name (tool_trajectory_avg_score, response_match_score, final_response_match_v2, or a custom metric’s) with its threshold or criterion; none means no metric.',
    },
    customMetrics: orNull(
      { type: 'object', additionalProperties: ref('CustomMetricConfig') },
      'Metrics of your own, each by the name criteria gives it, with the function that computes it.',
    ),
    userSimulatorConfig: orNull(
      ref('UserSimulatorConfig'),
      'The simulated user of cases with a conversation_scenario.',
    ),
  },
};

export const BASE_CRITERION: AdkModel = {
  name: 'BaseCriterion',
  description:
    'A metric’s criterion. Its other keys are the options of the metric’s own criterion type, kept for the metric to read (judge_model_options, match_type, …).',
  extras: 'allow',
  required: ['threshold'],
  fields: {
    threshold: { type: 'number', description: 'The score the metric must reach for a case to pass.' },
    includeIntermediateResponsesInFinal: {
      type: 'boolean',
      description:
        'Judge the text the agent wrote before its tool calls together with its final answer (false by default: the final answer alone).',
    },
  },
};

/** Options of the criterion types of particular metrics: kept in a criterion's extra keys, read by those metrics. */
export const CRITERION_OPTIONS: Readonly<Record<string, JsonSchema>> = {
  judgeModelOptions: {
    ...ref('JudgeModelOptions'),
    description: 'For LLM-judged metrics (final_response_match_v2, rubric-based, hallucinations_v1): the judge.',
  },
  matchType: {
    anyOf: [
      { enum: ['EXACT', 'IN_ORDER', 'ANY_ORDER'] },
      { enum: [0, 1, 2], description: 'The match type by its number: 0 EXACT, 1 IN_ORDER, 2 ANY_ORDER.' },
      {
        type: 'string',
        pattern: `^\\s*(${['EXACT', 'IN_ORDER', 'ANY_ORDER'].map(anyCase).join('|')})\\s*$`,
        description: 'A match type in any case, with spaces or hyphens for its underscores.',
      },
    ],
    description:
      'For tool_trajectory_avg_score: EXACT (the expected calls and no others, in order; the default), IN_ORDER (the expected calls in order, others between allowed) or ANY_ORDER (each expected call somewhere).',
  },
  rubrics: {
    type: 'array',
    items: ref('Rubric'),
    description: 'For rubric-based metrics: the rubrics answers are judged against.',
  },
  evaluateIntermediateNlResponses: {
    type: 'boolean',
    description: 'For hallucinations_v1: check the text before the final answer too (false by default).',
  },
  stopSignal: {
    type: 'string',
    description: 'For the user simulator’s metrics: the text that ends a simulated conversation ("</finished>").',
  },
};

// A pattern that takes a name in any case, with a space or hyphen for each underscore.
function anyCase(name: string): string {
  return [...name].map((letter) => (letter === '_' ? '[-_ ]' : `[${letter}${letter.toLowerCase()}]`)).join('');
}

export const JUDGE_MODEL_OPTIONS: AdkModel = {
  name: 'JudgeModelOptions',
  description: 'The judge model of an LLM-judged metric.',
  extras: 'forbid',
  fields: {
    judgeModel: {
      type: 'string',
      description:
        'The judge model ADK would call ("gemini-2.5-flash" by default); agentctx eval judges with the model --judge names and keeps this name in its results.',
    },
    judgeModelConfig: orNull(
      { type: 'object' },
      'The generation config of the judge’s requests (a genai GenerateContentConfig).',
    ),
    numSamples: {
      type: 'integer',
      description: 'How many times the judge is asked about each invocation; the majority decides (5 by default).',
    },
  },
};

export const CUSTOM_METRIC_CONFIG: AdkModel = {
  name: 'CustomMetricConfig',
  description: 'A metric of your own.',
  extras: 'forbid',
  required: ['codeConfig'],
  fields: {
    codeConfig: { ...ref('CodeConfig'), description: 'The function that computes the metric.' },
    metricInfo: orNull(
      { type: 'object' },
      'What the metric is: its name, description and range of values (ADK’s MetricInfo).',
    ),
    description: { type: 'string', description: 'What the metric measures ("" by default).' },
  },
};

export const CODE_CONFIG: AdkModel = {
  name: 'CodeConfig',
  description: 'A Python function by its path.',
  extras: 'forbid',
  required: ['name'],
  fields: {
    name: { type: 'string', description: 'The dotted path of the function: my_package.my_module.my_metric.' },
    args: orNull({ type: 'array' }, 'Arguments to pass to it.'),
  },
};

/** A user simulator's config: any fields of its type's, `type` picking the type (llm_backed when absent or null). */
export const USER_SIMULATOR_CONFIG: JsonSchema = {
  type: 'object',
  description:
    'The simulated user: its type and that type’s settings (model, instructions, turn limit…), kept as written.',
  properties: {
    type: {
      enum: ['llm_backed', 'llm_audio', null],
      description: 'Which simulator: llm_backed (the default when absent or null) or llm_audio.',
    },
  },
  additionalProperties: true,
};
