import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_EVAL_CONFIG, evalMetricsFromConfig, readEvalConfig } from '../../src/analysis/eval/eval-config.js';
import type { EvalConfig } from '../../src/contracts/evaluation.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';

// Translated test by test from Google ADK Python 2.5.0 (commit bb56aa56): tests/unittests/evaluation/
// test_eval_config.py, against src/google/adk/evaluation/eval_config.py. ADK reads a file path; here the caller reads
// the file and passes its JSON (undefined when there is none). The fixture is ADK's
// tests/integration/fixture/home_automation_agent/test_config.json (test/fixtures/adk-eval).

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../fixtures/adk-eval/${name}`, import.meta.url), 'utf8'));

function problems(json: unknown): { path: string; message: string }[] {
  try {
    readEvalConfig(json, 'test_config.json');
  } catch (error) {
    if (error instanceof ValidationError) return [...error.issues];
    throw error;
  }
  throw new Error('expected a ValidationError');
}

describe('get_evaluation_criteria_or_default', () => {
  it('test_get_evaluation_criteria_or_default_returns_default', () => {
    expect(readEvalConfig(undefined, '')).toEqual({
      criteria: { tool_trajectory_avg_score: 1.0, response_match_score: 0.8 },
    });
    expect(readEvalConfig(undefined, '')).toBe(DEFAULT_EVAL_CONFIG);
  });

  it('test_get_evaluation_criteria_or_default_reads_from_file', () => {
    const json = { criteria: { tool_trajectory_avg_score: 0.5, response_match_score: 0.5 } };
    expect(readEvalConfig(JSON.parse(JSON.stringify(json)), 'dummy_path')).toEqual(json);
  });

  it('test_get_evaluation_criteria_or_default_returns_default_if_file_not_found', () => {
    expect(readEvalConfig(undefined, 'dummy_path')).toEqual(DEFAULT_EVAL_CONFIG);
  });
});

describe('get_eval_metrics_from_config', () => {
  it('test_get_eval_metrics_from_config', () => {
    const rubric = { rubric_id: 'test-rubric', rubric_content: { text_property: 'test' } };
    const config = readEvalConfig(
      {
        criteria: {
          tool_trajectory_avg_score: 1.0,
          response_match_score: 0.8,
          final_response_match_v2: {
            threshold: 0.5,
            judge_model_options: { judge_model: 'gemini-pro', num_samples: 1 },
          },
          rubric_based_final_response_quality_v1: {
            threshold: 0.9,
            judge_model_options: { judge_model: 'gemini-ultra', num_samples: 1 },
            rubrics: [rubric],
          },
        },
      },
      'config',
    );
    const metrics = evalMetricsFromConfig(config);
    expect(metrics.map((metric) => [metric.metricName, metric.threshold, metric.criterion?.threshold])).toEqual([
      ['tool_trajectory_avg_score', 1.0, 1.0],
      ['response_match_score', 0.8, 0.8],
      ['final_response_match_v2', 0.5, 0.5],
      ['rubric_based_final_response_quality_v1', 0.9, 0.9],
    ]);
    // BaseCriterion keeps the fields of other criterion types as written (extra="allow").
    expect(metrics[2]?.criterion?.extra?.['judge_model_options']).toEqual({
      judge_model: 'gemini-pro',
      num_samples: 1,
    });
    expect(metrics[3]?.criterion?.extra?.['judge_model_options']).toMatchObject({ judge_model: 'gemini-ultra' });
    expect(metrics[3]?.criterion?.extra?.['rubrics']).toEqual([rubric]);
  });

  it('test_get_eval_metrics_from_config_with_custom_metrics', () => {
    const config = readEvalConfig(
      {
        criteria: { custom_metric_1: 1.0, custom_metric_2: { threshold: 0.5 } },
        custom_metrics: {
          custom_metric_1: { code_config: { name: 'path/to/custom/metric_1' } },
          custom_metric_2: { code_config: { name: 'path/to/custom/metric_2' } },
        },
      },
      'config',
    );
    expect(evalMetricsFromConfig(config)).toEqual([
      {
        metricName: 'custom_metric_1',
        threshold: 1.0,
        criterion: { threshold: 1.0, includeIntermediateResponsesInFinal: false },
        customFunctionPath: 'path/to/custom/metric_1',
      },
      {
        metricName: 'custom_metric_2',
        threshold: 0.5,
        criterion: { threshold: 0.5, includeIntermediateResponsesInFinal: false },
        customFunctionPath: 'path/to/custom/metric_2',
      },
    ]);
  });

  it('test_get_eval_metrics_from_config_empty_criteria', () => {
    expect(evalMetricsFromConfig(readEvalConfig({ criteria: {} }, 'config'))).toEqual([]);
  });
});

describe('user_simulator_config', () => {
  it('test_user_simulator_config_default_is_none', () => {
    expect(readEvalConfig({}, 'config').userSimulatorConfig).toBeUndefined();
  });

  it('test_user_simulator_config_json_with_explicit_type', () => {
    const config = readEvalConfig(
      {
        criteria: { tool_trajectory_avg_score: 1.0 },
        userSimulatorConfig: { type: 'llm_backed', model: 'my-model', maxAllowedInvocations: 5 },
      },
      'config',
    );
    expect(config.userSimulatorConfig).toEqual({
      type: 'llm_backed',
      extra: { model: 'my-model', maxAllowedInvocations: 5 },
    });
  });

  it('test_user_simulator_config_json_with_llm_audio_type', () => {
    const config = readEvalConfig(
      { criteria: {}, userSimulatorConfig: { type: 'llm_audio', model: 'my-model', maxAllowedInvocations: 5 } },
      'config',
    );
    expect(config.userSimulatorConfig?.type).toBe('llm_audio');
    expect(config.userSimulatorConfig?.extra).toEqual({ model: 'my-model', maxAllowedInvocations: 5 });
  });

  it('test_user_simulator_config_json_without_type_backward_compat', () => {
    const config = readEvalConfig({ criteria: {}, userSimulatorConfig: { model: 'legacy-model' } }, 'config');
    expect(config.userSimulatorConfig).toEqual({ type: 'llm_backed', extra: { model: 'legacy-model' } });
  });

  it('test_user_simulator_config_json_without_type_snake_case', () => {
    const config = readEvalConfig({ criteria: {}, user_simulator_config: { model: 'legacy-model-snake' } }, 'config');
    expect(config.userSimulatorConfig).toEqual({ type: 'llm_backed', extra: { model: 'legacy-model-snake' } });
  });

  it('test_user_simulator_config_json_with_explicit_null_type', () => {
    const config = readEvalConfig({ criteria: {}, userSimulatorConfig: { type: null, model: 'explicit-null' } }, 'c');
    expect(config.userSimulatorConfig).toEqual({ type: 'llm_backed', extra: { model: 'explicit-null' } });
  });

  it('test_user_simulator_config_json_with_unknown_type_raises', () => {
    expect(problems({ criteria: {}, userSimulatorConfig: { type: 'typo_type_name' } })).toEqual([
      {
        path: 'userSimulatorConfig.type',
        message: `expected 'llm_backed' or 'llm_audio', got the string "typo_type_name"`,
      },
    ]);
  });

  it('test_user_simulator_config_round_trip_via_model_dump_json', () => {
    // ADK dumps a config built in Python and reads it back; here the JSON ADK dumps is read.
    const dumped = {
      criteria: {},
      custom_metrics: null,
      user_simulator_config: { type: 'llm_backed', model: 'round-trip-model' },
    };
    expect(readEvalConfig(dumped, 'config').userSimulatorConfig).toEqual({
      type: 'llm_backed',
      extra: { model: 'round-trip-model' },
    });
  });

  it('test_user_simulator_config_python_construction', () => {
    // Built in code, a config is the EvalConfig type itself: nothing to read.
    const config: EvalConfig = {
      criteria: {},
      userSimulatorConfig: { type: 'llm_backed', extra: { model: 'py-model' } },
    };
    expect(config.userSimulatorConfig?.type).toBe('llm_backed');
  });
});

describe('agentctx: test_config.json files', () => {
  it("reads ADK's home_automation_agent/test_config.json", () => {
    const config = readEvalConfig(fixture('test_config.json'), 'test_config.json');
    expect(config).toEqual({ criteria: { tool_trajectory_avg_score: 1.0, response_match_score: 0.3 } });
    expect(evalMetricsFromConfig(config).map((metric) => metric.metricName)).toEqual([
      'tool_trajectory_avg_score',
      'response_match_score',
    ]);
  });

  it('takes camelCase keys and a criterion with includeIntermediateResponsesInFinal', () => {
    const config = readEvalConfig(
      { criteria: { final_response_match_v2: { threshold: 0.8, includeIntermediateResponsesInFinal: true } } },
      'config',
    );
    expect(config.criteria['final_response_match_v2']).toEqual({
      threshold: 0.8,
      includeIntermediateResponsesInFinal: true,
    });
  });

  it('lists every problem of a bad config, each with its path, and suggests names for unknown keys', () => {
    expect(
      problems({
        critera: {},
        criteria: {
          tool_trajectory_avg_score: '1.0',
          response_match_score: { threshold: 'high', include_intermediate_responses_in_final: 'yes' },
          safety_v1: { match_type: 'EXACT' },
          hallucinations_v1: null,
        },
        custom_metrics: { mine: { code_config: {}, descripton: 'x' } },
      }),
    ).toEqual([
      {
        path: 'critera',
        message:
          "unknown field (did you mean 'criteria'?); ADK's EvalConfig has criteria, custom_metrics, user_simulator_config (or their camelCase forms)",
      },
      {
        path: 'criteria.tool_trajectory_avg_score',
        message: 'expected a threshold (a number) or a criterion ({ "threshold": …, … }), got the string "1.0"',
      },
      { path: 'criteria.response_match_score.threshold', message: 'expected a number, got the string "high"' },
      {
        path: 'criteria.response_match_score.include_intermediate_responses_in_final',
        message: 'expected true or false, got the string "yes"',
      },
      { path: 'criteria.safety_v1.threshold', message: 'is required (a number)' },
      {
        path: 'criteria.hallucinations_v1',
        message: 'expected a threshold (a number) or a criterion ({ "threshold": …, … }), got null',
      },
      {
        path: 'custom_metrics.mine.descripton',
        message:
          "unknown field (did you mean 'description'?); ADK's CustomMetricConfig has code_config, metric_info, description (or their camelCase forms)",
      },
      { path: 'custom_metrics.mine.code_config.name', message: 'is required (a string)' },
    ]);
  });

  it('refuses a config that is not an object, and a key given both ways', () => {
    expect(problems([1])).toEqual([
      {
        path: '',
        message: 'expected an eval config ({ criteria, custom_metrics?, user_simulator_config? }), got a list',
      },
    ]);
    expect(problems({ criteria: {}, custom_metrics: {}, customMetrics: {} })).toEqual([
      { path: 'customMetrics', message: "given twice, as 'custom_metrics' and as 'customMetrics'" },
    ]);
  });
});
