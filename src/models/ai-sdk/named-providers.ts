import type { Model, ModelCallOptions, ModelStreamChunk } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { optionalPackage } from '../../engine/util/optional-package.js';
import { requireApiKey } from '../shared/credentials.js';
import { withoutSecrets } from '../shared/redact-secrets.js';
import type { RetryOptions } from '../shared/retry.js';
import { baseURLFrom, type ProviderSettings } from '../shared/settings.js';
import { createAiSdkModel } from './ai-sdk-model.js';
import type { AiSdkLanguageModel } from './ai-sdk-spec.js';
import { recordingFetch } from './recording-fetch.js';

/** The providers reached by model string through their AI SDK package (`mistral:…`, `groq:…`, `deepseek:…`). */
export type NamedAiSdkProvider = 'mistral' | 'groq' | 'deepseek';

export type NamedAiSdkModelSettings = ProviderSettings & {
  model: string;
  retry?: RetryOptions | false | undefined;
};

/** How one provider's package is made into a model: its factory, its key's variable, its address. */
type ProviderEntry = {
  name: string;
  keyVariable: string;
  baseURLVariable: string;
  defaultBaseURL: string;
  make: (settings: { apiKey: string; baseURL: string; model: string }) => Promise<AiSdkLanguageModel>;
};

const needs = (pkg: string, purpose: string) => ({ packages: [pkg] as [string], purpose });
// Each package is imported by its literal name, so bundlers and the architecture test see it.
const loadMistral = optionalPackage(needs('@ai-sdk/mistral', 'A Mistral model'), () => import('@ai-sdk/mistral'));
const loadGroq = optionalPackage(needs('@ai-sdk/groq', 'A Groq model'), () => import('@ai-sdk/groq'));
const loadDeepSeek = optionalPackage(needs('@ai-sdk/deepseek', 'A DeepSeek model'), () => import('@ai-sdk/deepseek'));

const PROVIDERS: Record<NamedAiSdkProvider, ProviderEntry> = {
  mistral: {
    name: 'Mistral',
    keyVariable: 'MISTRAL_API_KEY',
    baseURLVariable: 'MISTRAL_BASE_URL',
    defaultBaseURL: 'https://api.mistral.ai/v1',
    make: async ({ model, ...settings }) =>
      (await loadMistral()).createMistral({ ...settings, fetch: recordingFetch() })(model),
  },
  groq: {
    name: 'Groq',
    keyVariable: 'GROQ_API_KEY',
    baseURLVariable: 'GROQ_BASE_URL',
    defaultBaseURL: 'https://api.groq.com/openai/v1',
    make: async ({ model, ...settings }) =>
      (await loadGroq()).createGroq({ ...settings, fetch: recordingFetch() })(model),
  },
  deepseek: {
    name: 'DeepSeek',
    keyVariable: 'DEEPSEEK_API_KEY',
    baseURLVariable: 'DEEPSEEK_BASE_URL',
    defaultBaseURL: 'https://api.deepseek.com',
    make: async ({ model, ...settings }) =>
      (await loadDeepSeek()).createDeepSeek({ ...settings, fetch: recordingFetch() })(model),
  },
};

/**
 * A model of a provider named by a model string, through its AI SDK package and the bridge, each call recorded to
 * the wire. The key and address are read as the built-in adapters read theirs (the settings, else the provider's
 * variables in `env`), so a missing key fails here; the package itself loads with the first call, and a missing
 * one fails that call with what to install.
 */
export function createNamedAiSdkModel(provider: NamedAiSdkProvider, settings: NamedAiSdkModelSettings): Model {
  const entry = PROVIDERS[provider];
  const apiKey = requireApiKey(entry.name, settings, [entry.keyVariable]);
  const baseURL = baseURLFrom(settings, entry.baseURLVariable, entry.defaultBaseURL);
  let loaded: Promise<Model> | undefined;
  const connect = () =>
    (loaded ??= entry
      .make({ apiKey, baseURL, model: settings.model })
      .then((languageModel) => createAiSdkModel(languageModel, { provider, retry: settings.retry }))
      .catch((error: unknown) => {
        loaded = undefined;
        throw error;
      }));
  const model: Model = {
    specificationVersion: 'v1',
    provider,
    modelId: settings.model,
    pairsCallsById: true,
    generate: async (request: LlmRequest, options?: ModelCallOptions) => (await connect()).generate(request, options),
    async *stream(request: LlmRequest, options?: ModelCallOptions): AsyncGenerator<ModelStreamChunk> {
      const bridged = await connect();
      yield* bridged.stream?.(request, options) ?? [];
    },
  };
  return withoutSecrets(model, [apiKey]);
}
