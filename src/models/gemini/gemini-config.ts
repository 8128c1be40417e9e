import type { BuiltInTool, RequestConfig } from '../../contracts/request.js';
import { providerOptionsOf, refuseForeignBuiltIns } from '../shared/refuse-config.js';
import type { GeminiGenerationConfig, GeminiTool } from './gemini-wire.js';

const MODES = { auto: 'AUTO', none: 'NONE', required: 'ANY' } as const;
const RESOLUTIONS = {
  low: 'MEDIA_RESOLUTION_LOW',
  medium: 'MEDIA_RESOLUTION_MEDIUM',
  high: 'MEDIA_RESOLUTION_HIGH',
} as const;
const LEVELS = { minimal: 'MINIMAL', low: 'LOW', medium: 'MEDIUM', high: 'HIGH' } as const;

/**
 * The generation settings as `GenerateContentConfig` spells them: every field of agentctx's config has a Gemini
 * equivalent, in the config's key order. `providerOptions.google` goes over them as given.
 */
export function toGeminiGenerationConfig(config: RequestConfig): GeminiGenerationConfig & Record<string, unknown> {
  const out: GeminiGenerationConfig = {};
  const {
    temperature,
    topP,
    topK,
    maxOutputTokens,
    stopSequences,
    responseSchema,
    responseMimeType,
    toolChoice,
    thinking,
  } = config;
  if (temperature !== undefined) out.temperature = temperature;
  if (topP !== undefined) out.topP = topP;
  if (topK !== undefined) out.topK = topK;
  if (maxOutputTokens !== undefined) out.maxOutputTokens = maxOutputTokens;
  // An empty list means no stop sequences, as leaving the field out does.
  if (stopSequences !== undefined && stopSequences.length > 0) out.stopSequences = [...stopSequences];
  // A schema needs the JSON type; the API refuses it with none.
  if (responseMimeType !== undefined || responseSchema !== undefined)
    out.responseMimeType = responseMimeType ?? 'application/json';
  if (responseSchema !== undefined) out.responseJsonSchema = responseSchema;
  if (toolChoice !== undefined) {
    out.toolConfig =
      typeof toolChoice === 'string'
        ? { functionCallingConfig: { mode: MODES[toolChoice] } }
        : { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [toolChoice.name] } };
  }
  if (thinking !== undefined) {
    out.thinkingConfig = {
      ...(thinking.budgetTokens === undefined ? {} : { thinkingBudget: thinking.budgetTokens }),
      ...(thinking.effort === undefined ? {} : { thinkingLevel: LEVELS[thinking.effort] }),
      ...(thinking.includeThoughts === undefined ? {} : { includeThoughts: thinking.includeThoughts }),
    };
  }
  if (config.safetySettings !== undefined)
    out.safetySettings = config.safetySettings.map(({ category, threshold }) => ({ category, threshold }));
  if (config.labels !== undefined) out.labels = { ...config.labels };
  if (config.seed !== undefined) out.seed = config.seed;
  if (config.presencePenalty !== undefined) out.presencePenalty = config.presencePenalty;
  if (config.frequencyPenalty !== undefined) out.frequencyPenalty = config.frequencyPenalty;
  if (config.candidateCount !== undefined) out.candidateCount = config.candidateCount;
  if (config.mediaResolution !== undefined) out.mediaResolution = RESOLUTIONS[config.mediaResolution];
  return { ...out, ...providerOptionsOf(config, 'google') };
}

/** The built-in tools as `tools` entries, one per tool (`{ googleSearch: {} }`); another provider's are refused. */
export function toGeminiBuiltInTools(tools: readonly BuiltInTool[] | undefined, model?: string): GeminiTool[] {
  refuseForeignBuiltIns('Gemini API', 'google', tools, model);
  return (tools ?? []).map((tool) => ({ [tool.type]: { ...tool.settings } }));
}
