import type { FieldReader } from '../contracts/agent-file-field.js';
import type { RequestConfig, ThinkingConfig, ToolChoice } from '../contracts/request.js';
import { GENERATE_CONFIG_FIELDS, snakeCase } from '../engine/config/agent-file-schema.js';
import { joinPath } from '../engine/util/json-reader.js';

const SPELLINGS: Readonly<Record<string, string>> = Object.fromEntries(
  GENERATE_CONFIG_FIELDS.map((field) => [snakeCase(field), field]),
);
const LEVELS: Readonly<Record<string, ThinkingConfig['effort']>> = {
  MINIMAL: 'minimal',
  LOW: 'low',
  MEDIUM: 'medium',
  HIGH: 'high',
};
const RESOLUTIONS: Readonly<Record<string, RequestConfig['mediaResolution']>> = {
  MEDIA_RESOLUTION_LOW: 'low',
  MEDIA_RESOLUTION_MEDIUM: 'medium',
  MEDIA_RESOLUTION_HIGH: 'high',
};

/**
 * An agent file's `generateConfig` (ADK's `generate_content_config`): the sampling settings, and the rest of
 * `GenerateContentConfig` that agentctx's request config has a field for, in Gemini's form (`thinkingConfig`,
 * `toolConfig`, `MEDIA_RESOLUTION_LOW`, snake_case keys accepted at every level), read into those fields.
 */
export function readGenerateConfig(
  reader: FieldReader,
  value: unknown,
  path: string,
): Omit<RequestConfig, 'model'> | undefined {
  if (value == null) return undefined;
  const raw = reader.object(value, path);
  if (raw === undefined) return undefined;
  // Only the fields' own snake_case spellings are renamed; any other key is reported as it was written.
  const record = renamed(raw, SPELLINGS);
  reader.keys(record, path, GENERATE_CONFIG_FIELDS);
  const config: Omit<RequestConfig, 'model'> = {};
  const number = (key: string, options: { integer?: boolean; min?: number } = {}) =>
    reader.number(record, key, path, { optional: true, ...options });
  const temperature = number('temperature', { min: 0 });
  const topP = number('topP', { min: 0 });
  const topK = number('topK', { integer: true, min: 1 });
  const maxOutputTokens = number('maxOutputTokens', { integer: true, min: 1 });
  if (temperature !== undefined) config.temperature = temperature;
  if (topP !== undefined) config.topP = topP;
  if (topK !== undefined) config.topK = topK;
  if (maxOutputTokens !== undefined) config.maxOutputTokens = maxOutputTokens;
  const stops = strings(reader, record['stopSequences'], joinPath(path, 'stopSequences'));
  if (stops !== undefined) config.stopSequences = stops;
  const mimeType = reader.string(record, 'responseMimeType', path, { optional: true, nonEmpty: true });
  if (mimeType !== undefined) config.responseMimeType = mimeType;
  const choice = readToolConfig(reader, record['toolConfig'], joinPath(path, 'toolConfig'));
  if (choice !== undefined) config.toolChoice = choice;
  const thinking = readThinking(reader, record['thinkingConfig'], joinPath(path, 'thinkingConfig'));
  if (thinking !== undefined) config.thinking = thinking;
  const safety = readSafety(reader, record['safetySettings'], joinPath(path, 'safetySettings'));
  if (safety !== undefined) config.safetySettings = safety;
  const labels = readLabels(reader, record['labels'], joinPath(path, 'labels'));
  if (labels !== undefined) config.labels = labels;
  const seed = number('seed', { integer: true });
  const presencePenalty = number('presencePenalty');
  const frequencyPenalty = number('frequencyPenalty');
  const candidateCount = number('candidateCount', { integer: true, min: 1 });
  if (seed !== undefined) config.seed = seed;
  if (presencePenalty !== undefined) config.presencePenalty = presencePenalty;
  if (frequencyPenalty !== undefined) config.frequencyPenalty = frequencyPenalty;
  if (candidateCount !== undefined) config.candidateCount = candidateCount;
  const resolution = record['mediaResolution'];
  if (resolution !== undefined) {
    const known = typeof resolution === 'string' ? own(RESOLUTIONS, resolution) : undefined;
    if (known === undefined)
      reader.issue(
        joinPath(path, 'mediaResolution'),
        `expected ${Object.keys(RESOLUTIONS).join(', ')}, got ${JSON.stringify(resolution)}`,
      );
    else config.mediaResolution = known;
  }
  return config;
}

// Gemini's function-calling modes: AUTO, NONE, ANY (with one allowed name: that tool).
function readToolConfig(reader: FieldReader, value: unknown, path: string): ToolChoice | undefined {
  if (value === undefined) return undefined;
  const outer = reader.object(value, path);
  if (outer === undefined) return undefined;
  const record = renamed(outer, { function_calling_config: 'functionCallingConfig' });
  reader.keys(record, path, ['functionCallingConfig']);
  const at = joinPath(path, 'functionCallingConfig');
  const inner =
    record['functionCallingConfig'] === undefined ? undefined : reader.object(record['functionCallingConfig'], at);
  if (inner === undefined) return undefined;
  const calling = renamed(inner, { allowed_function_names: 'allowedFunctionNames' });
  reader.keys(calling, at, ['mode', 'allowedFunctionNames']);
  const mode = calling['mode'] ?? 'AUTO';
  const names = strings(reader, calling['allowedFunctionNames'], joinPath(at, 'allowedFunctionNames')) ?? [];
  if (mode === 'AUTO' || mode === 'NONE')
    return names.length === 0
      ? mode === 'AUTO'
        ? 'auto'
        : 'none'
      : reader.issue(joinPath(at, 'allowedFunctionNames'), `goes with mode ANY, not ${mode}`);
  if (mode !== 'ANY')
    return reader.issue(joinPath(at, 'mode'), `expected AUTO, NONE or ANY, got ${JSON.stringify(mode)}`);
  if (names.length > 1)
    return reader.issue(
      joinPath(at, 'allowedFunctionNames'),
      'names more than one tool, which agentctx cannot ask every provider for; name one (that tool is called) or none (some tool is)',
    );
  return names.length === 1 ? { name: names[0] as string } : 'required';
}

/** ADK's `thinking_config` (Gemini's form, snake_case or camelCase) as agentctx's thinking settings. */
export function readThinking(reader: FieldReader, value: unknown, path: string): ThinkingConfig | undefined {
  if (value === undefined) return undefined;
  const raw = reader.object(value, path);
  if (raw === undefined) return undefined;
  const record = renamed(raw, {
    thinking_budget: 'thinkingBudget',
    include_thoughts: 'includeThoughts',
    thinking_level: 'thinkingLevel',
  });
  reader.keys(record, path, ['thinkingBudget', 'includeThoughts', 'thinkingLevel']);
  const thinking: ThinkingConfig = {};
  // -1 is Gemini's "dynamic": no budget, the model decides.
  const budget = reader.number(record, 'thinkingBudget', path, { optional: true, integer: true, min: -1 });
  if (budget !== undefined && budget >= 0) thinking.budgetTokens = budget;
  const level = record['thinkingLevel'];
  if (level !== undefined) {
    const effort = typeof level === 'string' ? own(LEVELS, level) : undefined;
    if (effort === undefined)
      reader.issue(
        joinPath(path, 'thinkingLevel'),
        `expected ${Object.keys(LEVELS).join(', ')}, got ${JSON.stringify(level)}`,
      );
    else thinking.effort = effort;
  }
  const include = reader.boolean(record, 'includeThoughts', path);
  if (include !== undefined) thinking.includeThoughts = include;
  return thinking;
}

function readSafety(
  reader: FieldReader,
  value: unknown,
  path: string,
): { category: string; threshold: string }[] | undefined {
  if (value === undefined) return undefined;
  const settings: { category: string; threshold: string }[] = [];
  for (const [index, item] of (reader.array(value, path) ?? []).entries()) {
    const at = joinPath(path, index);
    const record = reader.object(item, at, 'a safety setting: { category, threshold }');
    if (record === undefined) continue;
    reader.keys(record, at, ['category', 'threshold']);
    const category = oneOf(reader, record, 'category', at, HARM_CATEGORIES);
    const threshold = oneOf(reader, record, 'threshold', at, HARM_THRESHOLDS);
    if (category !== undefined && threshold !== undefined) settings.push({ category, threshold });
  }
  return settings;
}

// google-genai's HarmCategory and HarmBlockThreshold (2.x), which ADK's pydantic model holds a file's values to.
const HARM_CATEGORIES = [
  'HARM_CATEGORY_UNSPECIFIED',
  'HARM_CATEGORY_HARASSMENT',
  'HARM_CATEGORY_HATE_SPEECH',
  'HARM_CATEGORY_SEXUALLY_EXPLICIT',
  'HARM_CATEGORY_DANGEROUS_CONTENT',
  'HARM_CATEGORY_CIVIC_INTEGRITY',
  'HARM_CATEGORY_JAILBREAK',
  'HARM_CATEGORY_IMAGE_HATE',
  'HARM_CATEGORY_IMAGE_DANGEROUS_CONTENT',
  'HARM_CATEGORY_IMAGE_HARASSMENT',
  'HARM_CATEGORY_IMAGE_SEXUALLY_EXPLICIT',
];
const HARM_THRESHOLDS = [
  'HARM_BLOCK_THRESHOLD_UNSPECIFIED',
  'BLOCK_LOW_AND_ABOVE',
  'BLOCK_MEDIUM_AND_ABOVE',
  'BLOCK_ONLY_HIGH',
  'BLOCK_NONE',
  'OFF',
];

function oneOf(
  reader: FieldReader,
  record: Record<string, unknown>,
  key: string,
  path: string,
  allowed: readonly string[],
): string | undefined {
  const value = reader.string(record, key, path, { nonEmpty: true });
  if (value === undefined || allowed.includes(value)) return value;
  return reader.issue(joinPath(path, key), `expected one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`);
}

function readLabels(reader: FieldReader, value: unknown, path: string): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  const record = reader.object(value, path, 'a mapping of label names to strings');
  if (record === undefined) return undefined;
  const labels: Record<string, string> = {};
  for (const key of Object.keys(record)) {
    const label = reader.string(record, key, path);
    if (label !== undefined)
      Object.defineProperty(labels, key, { value: label, enumerable: true, writable: true, configurable: true });
  }
  return labels;
}

function strings(reader: FieldReader, value: unknown, path: string): string[] | undefined {
  if (value === undefined) return undefined;
  const list = reader.array(value, path);
  if (list === undefined) return undefined;
  if (list.every((item) => typeof item === 'string')) return list as string[];
  return reader.issue(path, 'expected a list of strings');
}

// Keys renamed by a table of their own (snake_case spellings), any other kept as written.
function renamed(record: Record<string, unknown>, table: Readonly<Record<string, string>>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [own(table, key) ?? key, item]));
}

function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
