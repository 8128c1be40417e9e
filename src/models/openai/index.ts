/**
 * @module agentctx/models/openai
 * OpenAI models through Chat Completions, and any server that speaks it (Ollama, llama.cpp server, vLLM…).
 */
export { createOpenAICompatibleModel, createOpenAIModel } from './openai-model.js';
export type { OpenAICompatibleModelSettings, OpenAIModelSettings } from './openai-model.js';
export type { OpenAIPromptCacheSetting } from './openai-prompt-cache.js';
