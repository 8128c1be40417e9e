import type {
  BaseCriterion,
  CustomMetricConfig,
  EvalConfig,
  EvalMetric,
  UserSimulatorConfig,
} from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { setOwn } from '../../engine/util/copy-value.js';
import { JsonReader, describeValue, joinPath } from '../../engine/util/json-reader.js';
import { adkFields, readList, readRecord, readString, withoutSchemaKey } from './adk-fields.js';
import { BASE_CRITERION, CODE_CONFIG, CUSTOM_METRIC_CONFIG, EVAL_CONFIG } from './eval-config-fields.js';

// `test_config.json`, ADK 2.5.0's `EvalConfig` (src/google/adk/evaluation/eval_config.py): `criteria` maps a metric
// name to a threshold or a criterion object (`Union[Threshold, BaseCriterion]`, L87); `custom_metrics` names the
// code of custom metrics; `user_simulator_config` is discriminated by `type`, `llm_backed` when absent or null
// (`_inject_default_user_simulator_type`, L172–206). Keys in snake_case or camelCase.
// ADK's `EvalConfig` ignores unknown keys; here they are refused with the nearest name (a misspelt `criteria` would
// otherwise leave no metric at all).

/** ADK's criteria when there is no config file (`_DEFAULT_EVAL_CONFIG`, eval_config.py L209–211). */
export const DEFAULT_EVAL_CONFIG: EvalConfig = Object.freeze({
  criteria: Object.freeze({ tool_trajectory_avg_score: 1.0, response_match_score: 0.8 }),
}) as EvalConfig;

/**
 * A `test_config.json`, parsed; `undefined` (no file) gives the default, as `get_evaluation_criteria_or_default`
 * (L214–229).
 * Throws a `ValidationError` listing every problem with its JSON path.
 */
export function readEvalConfig(json: unknown, source: string): EvalConfig {
  if (json === undefined) return DEFAULT_EVAL_CONFIG;
  const reader = new JsonReader();
  const config = readConfig(reader, json);
  if (config === undefined || reader.issues.length > 0)
    throw new ValidationError({
      subject: `eval config ${source}`,
      issues: reader.issues,
      hint: 'test_config.json holds { "criteria": { "<metric name>": <threshold> or { "threshold": …, … } } }',
    });
  return config;
}

function readConfig(reader: JsonReader, json: unknown): EvalConfig | undefined {
  const record = reader.object(json, '', 'an eval config ({ criteria, custom_metrics?, user_simulator_config? })');
  if (record === undefined) return undefined;
  const { values, at } = adkFields(reader, withoutSchemaKey(reader, record), '', EVAL_CONFIG);
  const criteria: Record<string, number | BaseCriterion> = {};
  const byName = values['criteria'] === undefined ? {} : readRecord(reader, values['criteria'], at('criteria'));
  for (const [name, value] of Object.entries(byName ?? {})) {
    const criterion = readCriterion(reader, value, joinPath(at('criteria'), name));
    if (criterion !== undefined) setOwn(criteria, name, criterion);
  }
  const customMetrics = readCustomMetrics(reader, values['customMetrics'], at('customMetrics'));
  const simulator = readUserSimulatorConfig(reader, values['userSimulatorConfig'], at('userSimulatorConfig'));
  return {
    criteria,
    ...(customMetrics === undefined ? {} : { customMetrics }),
    ...(simulator === undefined ? {} : { userSimulatorConfig: simulator }),
  };
}

/**
 * A criterion: a number is the threshold; an object is a `BaseCriterion` — `threshold` required,
 * `include_intermediate_responses_in_final` false by default, other fields kept for the metric to read (ADK's
 * `BaseCriterion` has `extra="allow"`).
 */
export function readCriterion(reader: JsonReader, value: unknown, path: string): number | BaseCriterion | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return reader.issue(
      path,
      `expected a threshold (a number) or a criterion ({ "threshold": …, … }), got ${describeValue(value)}`,
    );
  const { values, extra, at } = adkFields(reader, value as Record<string, unknown>, path, BASE_CRITERION);
  const threshold = values['threshold'];
  if (typeof threshold !== 'number' || !Number.isFinite(threshold))
    reader.issue(
      at('threshold'),
      threshold === undefined ? 'is required (a number)' : `expected a number, got ${describeValue(threshold)}`,
    );
  const include = values['includeIntermediateResponsesInFinal'];
  if (include !== undefined && typeof include !== 'boolean')
    reader.issue(at('includeIntermediateResponsesInFinal'), `expected true or false, got ${describeValue(include)}`);
  if (typeof threshold !== 'number' || !Number.isFinite(threshold)) return undefined;
  return {
    threshold,
    includeIntermediateResponsesInFinal: include === true,
    ...(Object.keys(extra).length === 0 ? {} : { extra }),
  };
}

function readCustomMetrics(
  reader: JsonReader,
  value: unknown,
  path: string,
): Record<string, CustomMetricConfig> | undefined {
  const byName = readRecord(reader, value, path, { nullable: true });
  if (byName === undefined) return undefined;
  const metrics: Record<string, CustomMetricConfig> = {};
  for (const [name, entry] of Object.entries(byName)) {
    const where = joinPath(path, name);
    const record = reader.object(entry, where, 'a custom metric ({ code_config, metric_info?, description? })');
    if (record === undefined) continue;
    const fields = adkFields(reader, record, where, CUSTOM_METRIC_CONFIG);
    const code = readRecord(reader, fields.values['codeConfig'], fields.at('codeConfig'), { required: true });
    let codeConfig: CustomMetricConfig['codeConfig'] | undefined;
    if (code !== undefined) {
      const inner = adkFields(reader, code, fields.at('codeConfig'), CODE_CONFIG);
      const codeName = readString(reader, inner.values['name'], inner.at('name'), { required: true });
      const args = readList(reader, inner.values['args'], inner.at('args'), { nullable: true });
      if (codeName !== undefined) codeConfig = args === undefined ? { name: codeName } : { name: codeName, args };
    }
    const metricInfo = readRecord(reader, fields.values['metricInfo'], fields.at('metricInfo'), { nullable: true });
    const description = readString(reader, fields.values['description'], fields.at('description')) ?? '';
    if (codeConfig !== undefined)
      setOwn(metrics, name, { codeConfig, ...(metricInfo === undefined ? {} : { metricInfo }), description });
  }
  return metrics;
}

function readUserSimulatorConfig(reader: JsonReader, value: unknown, path: string): UserSimulatorConfig | undefined {
  const record = readRecord(reader, value, path, { nullable: true });
  if (record === undefined) return undefined;
  const { type, ...rest } = record;
  if (type != null && type !== 'llm_backed' && type !== 'llm_audio') {
    reader.issue(joinPath(path, 'type'), `expected 'llm_backed' or 'llm_audio', got ${describeValue(type)}`);
    return undefined;
  }
  return {
    type: type === 'llm_audio' ? 'llm_audio' : 'llm_backed',
    ...(Object.keys(rest).length === 0 ? {} : { extra: rest }),
  };
}

/**
 * The metrics a config asks for, in its order (`get_eval_metrics_from_config`, eval_config.py L232–267): a number is a
 * threshold and a `BaseCriterion` of it; a criterion gives its threshold; a custom metric's function path comes from
 * `custom_metrics`.
 */
export function evalMetricsFromConfig(config: EvalConfig): EvalMetric[] {
  return Object.entries(config.criteria).map(([metricName, criterion]) => {
    const path = Object.hasOwn(config.customMetrics ?? {}, metricName)
      ? config.customMetrics?.[metricName]?.codeConfig.name
      : undefined;
    const full: BaseCriterion =
      typeof criterion === 'number' ? { threshold: criterion, includeIntermediateResponsesInFinal: false } : criterion;
    return {
      metricName,
      threshold: full.threshold,
      criterion: full,
      ...(path === undefined ? {} : { customFunctionPath: path }),
    };
  });
}
