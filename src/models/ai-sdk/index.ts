/**
 * @module agentctx/models/ai-sdk
 * Every provider of the Vercel AI SDK's `@ai-sdk/*` packages as an agentctx model: a bridge over their language
 * models (specification versions 2 to 4), and the fetch that lets each call's HTTP request be recorded exactly.
 */
export { createAiSdkModel } from './ai-sdk-model.js';
export type { AiSdkModelSettings } from './ai-sdk-model.js';
export type { AiSdkLanguageModel } from './ai-sdk-spec.js';
export { recordingFetch } from './recording-fetch.js';
