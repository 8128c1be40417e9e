import type {
  JSONObject,
  LanguageModelV2,
  LanguageModelV3,
  LanguageModelV4,
  LanguageModelV4CallOptions,
  LanguageModelV4Message,
} from '@ai-sdk/provider';

/**
 * A language model of the AI SDK's provider specification (`@ai-sdk/provider`), in any version the bridge speaks:
 * what `anthropic('claude-…')`, `createOpenAICompatible(…)('…')`, `mistral('…')` and the other `@ai-sdk/*` packages
 * return.
 */
export type AiSdkLanguageModel = LanguageModelV2 | LanguageModelV3 | LanguageModelV4;

export type SpecVersion = AiSdkLanguageModel['specificationVersion'];

/**
 * The call options the bridge builds, in the newest version's shape; `forVersion` (to-ai-sdk-call.ts) turns them into
 * an older version's where the two differ.
 */
export type AiSdkCall = LanguageModelV4CallOptions;
export type AiSdkMessage = LanguageModelV4Message;

/** Provider options as the specification types them: JSON objects by provider name. */
export type AiSdkProviderOptions = Record<string, JSONObject>;
