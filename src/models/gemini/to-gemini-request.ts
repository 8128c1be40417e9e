import type { LlmRequest, ToolDeclaration } from '../../contracts/request.js';
import { withDeferredToolsLoaded } from '../../engine/tools/deferred-tools.js';
import { toGeminiContents } from './gemini-contents.js';
import { toGeminiBuiltInTools, toGeminiGenerationConfig } from './gemini-config.js';
import type { GeminiCountRequest, GeminiFunctionDeclaration, GeminiRequest, GeminiTool } from './gemini-wire.js';

/** Which of Google's APIs a Gemini model is served by: the Gemini API (an API key) or Vertex AI (a project). */
export type GeminiBackend = 'gemini-api' | 'vertex';

/**
 * The request as `models.generateContent` takes it. agentctx's parts use the Gemini API's own field names, so the
 * messages go over 1:1; call ids stay when present, which the API accepts. As ADK does, the Gemini API gets no
 * `labels` and no `displayName` on inline and file data (it rejects both); Vertex AI gets them. The model id is the
 * adapter's: `config.model` names what an agent asked for, not what this adapter serves. The request itself is not
 * changed.
 */
export function toGeminiRequest(
  given: LlmRequest,
  modelId: string,
  backend: GeminiBackend = 'gemini-api',
): GeminiRequest {
  // Gemini cannot hold definitions back: loaded deferred ones go as ordinary tools.
  const request = withDeferredToolsLoaded(given);
  const tools: GeminiTool[] = [
    ...(request.tools.length === 0 ? [] : [{ functionDeclarations: request.tools.map(toFunctionDeclaration) }]),
    ...toGeminiBuiltInTools(request.builtInTools, modelId),
  ];
  return {
    model: modelId,
    contents: toGeminiContents(request.messages, backend),
    config: {
      ...(request.system === '' ? {} : { systemInstruction: { parts: [{ text: request.system }] } }),
      ...(tools.length === 0 ? {} : { tools }),
      ...withoutLabels(toGeminiGenerationConfig(request.config), backend),
    },
  };
}

// ADK's rule (models/google_llm.py): labels are for Vertex AI; the Gemini API refuses them, so they are left out.
function withoutLabels<T extends { labels?: unknown }>(config: T, backend: GeminiBackend): T {
  if (backend === 'vertex' || config.labels === undefined) return config;
  const { labels: _dropped, ...rest } = config;
  return rest as T;
}

/**
 * What `models.countTokens` takes. In Gemini API mode the SDK refuses a system instruction, tools and generation
 * config on a count, so the count covers the messages only.
 */
export function toGeminiCountRequest(
  request: LlmRequest,
  modelId: string,
  backend: GeminiBackend = 'gemini-api',
): GeminiCountRequest {
  return { model: modelId, contents: toGeminiContents(request.messages, backend) };
}

/**
 * `parametersJsonSchema` takes the tool's JSON Schema as it is. `parameters` takes only the OpenAPI subset, which
 * rejects what zod writes (`additionalProperties`, `$schema`, `const`…), so every schema would need rewriting.
 */
function toFunctionDeclaration(tool: ToolDeclaration): GeminiFunctionDeclaration {
  return {
    name: tool.name,
    description: tool.description,
    ...(tool.parameters === undefined ? {} : { parametersJsonSchema: tool.parameters }),
  };
}
