/**
 * @module agentctx/models/gemini
 * Gemini models through the Gemini API (`@google/genai`): `createGeminiModel({ model: 'gemini-2.5-flash' })`.
 */
export { createGeminiModel } from './gemini-model.js';
export type { GeminiModelSettings } from './gemini-model.js';
export type { GeminiContextCacheSettings } from './context-cache-settings.js';
