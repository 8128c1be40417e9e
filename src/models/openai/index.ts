/**
 * @module agentctx/models/openai
 * OpenAI models through Chat Completions, and any server that speaks it (Ollama, llama.cpp server, vLLM…).
 */
export { createOpenAICompatibleModel, createOpenAIModel } from './openai-model.js';
export type { OpenAICompatibleModelSettings, OpenAIModelSettings } from './openai-model.js';
export { toOpenAIMessages, toOpenAIRequest, toOpenAITool, generatedCallId } from './to-openai-request.js';
export type { OpenAIRequestOptions } from './to-openai-request.js';
export { openAICacheFields } from './openai-prompt-cache.js';
export type { OpenAICacheFields, OpenAIPromptCacheSetting } from './openai-prompt-cache.js';
export { createStreamAssembler, fromOpenAICompletion, fromOpenAIUsage, parseToolArguments } from './from-openai-response.js';
export type { StreamAssembler } from './from-openai-response.js';
export type {
  OpenAIChunk,
  OpenAICompletion,
  OpenAIContentPart,
  OpenAIMessage,
  OpenAIRequestBody,
  OpenAITool,
  OpenAIToolCall,
} from './openai-wire.js';
