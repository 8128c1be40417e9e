/**
 * @module agentctx/models/openai
 * OpenAI models through Chat Completions, and any server that speaks it (Ollama, llama.cpp server, vLLM…); and
 * through the Responses API, which keeps a reasoning model's reasoning across tool calls.
 */
export { createOpenAICompatibleModel, createOpenAIModel } from './openai-model.js';
export type { OpenAICompatibleModelSettings, OpenAIModelSettings } from './openai-model.js';
export type { OpenAIPromptCacheSetting } from './openai-prompt-cache.js';
export { createOpenAIResponsesModel } from './responses-model.js';
export type { OpenAIResponsesModelSettings } from './responses-model.js';
