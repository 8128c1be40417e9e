import type { RequestConfig } from '../../contracts/request.js';
import { refuseConfig, refuseFields } from '../shared/refuse-config.js';
import type { AiSdkCall, AiSdkProviderOptions, SpecVersion } from './ai-sdk-spec.js';

/** The settings of a call the specification names, from a request's config. */
export type AiSdkSettings = Omit<AiSdkCall, 'prompt' | 'tools' | 'abortSignal' | 'headers' | 'includeRawChunks'>;

const IN_OPTIONS = 'the AI SDK has no such setting; set it in providerOptions for the provider';

/**
 * The config's fields the AI SDK's call options have, after refusing the ones they have not (each names the field,
 * and nothing is sent). `providerOptions` go to the provider as given: they are the AI SDK's own provider options
 * (`anthropic: { cacheControl }`, `openai: { reasoningEffort }`…), by the names the AI SDK's providers read.
 */
export function toAiSdkSettings(api: string, config: RequestConfig, version: SpecVersion): AiSdkSettings {
  refuseFields(api, config, { safetySettings: IN_OPTIONS, labels: IN_OPTIONS, mediaResolution: IN_OPTIONS });
  if (config.candidateCount !== undefined && config.candidateCount !== 1)
    refuseConfig(api, 'candidateCount', 'the AI SDK answers once per call');
  const settings: AiSdkSettings = {};
  const copy = <K extends keyof AiSdkSettings & keyof RequestConfig>(key: K) => {
    if (config[key] !== undefined) (settings as Record<string, unknown>)[key] = config[key];
  };
  for (const key of [
    'maxOutputTokens',
    'temperature',
    'topP',
    'topK',
    'stopSequences',
    'seed',
    'presencePenalty',
    'frequencyPenalty',
  ] as const)
    copy(key);
  const format = responseFormatOf(api, config);
  if (format !== undefined) settings.responseFormat = format;
  const { toolChoice } = config;
  if (toolChoice !== undefined)
    settings.toolChoice =
      typeof toolChoice === 'string' ? { type: toolChoice } : { type: 'tool', toolName: toolChoice.name };
  const reasoning = reasoningOf(api, config, version);
  if (reasoning !== undefined) settings.reasoning = reasoning;
  if (config.providerOptions !== undefined) settings.providerOptions = config.providerOptions as AiSdkProviderOptions;
  return settings;
}

function responseFormatOf(api: string, config: RequestConfig): AiSdkSettings['responseFormat'] {
  const { responseMimeType: mime, responseSchema: schema } = config;
  if (mime === undefined && schema === undefined) return undefined;
  if (mime === 'text/plain') {
    if (schema !== undefined) refuseConfig(api, 'responseMimeType', "a schema's answer is JSON, not text/plain");
    return { type: 'text' };
  }
  if (mime !== undefined && mime !== 'application/json')
    refuseConfig(api, 'responseMimeType', `the answer is text/plain or application/json; got ${mime}`);
  return schema === undefined ? { type: 'json' } : { type: 'json', schema };
}

/**
 * Thinking as the specification's `reasoning` level (version 4 on): an effort as that level, a budget of 0 as
 * `none`. A budget of tokens, and thoughts left out, are each provider's own settings (`providerOptions`); older
 * versions have no level at all. Thoughts come back whenever the provider sends them.
 */
function reasoningOf(api: string, config: RequestConfig, version: SpecVersion): AiSdkSettings['reasoning'] {
  const { thinking } = config;
  if (thinking === undefined) return undefined;
  const own = 'set it in providerOptions for the provider (its own thinking settings)';
  if (thinking.includeThoughts === false)
    refuseConfig(api, 'thinking.includeThoughts', `the AI SDK has no switch; ${own}`);
  const { budgetTokens, effort } = thinking;
  if (budgetTokens === undefined && effort === undefined) return undefined;
  if (version !== 'v4') refuseConfig(api, 'thinking', `specification ${version} has no reasoning setting; ${own}`);
  if (budgetTokens !== undefined && budgetTokens !== 0)
    refuseConfig(api, 'thinking.budgetTokens', `the AI SDK takes a level, not a budget; ${own}`);
  return budgetTokens === 0 ? 'none' : effort;
}
