import type { LlmRequest, ToolDeclaration } from '../../contracts/request.js';
import { withDeferredToolsLoaded } from '../../engine/tools/deferred-tools.js';
import { toGeminiContents } from './gemini-contents.js';
import { toGeminiBuiltInTools, toGeminiGenerationConfig } from './gemini-config.js';
import type { GeminiCountRequest, GeminiFunctionDeclaration, GeminiRequest, GeminiTool } from './gemini-wire.js';

/**
 * The request as `models.generateContent` takes it. agentctx's parts use the Gemini API's own field names, so the
 * messages go over 1:1 (through `toGeminiContents`, which drops the `displayName` the API rejects); call ids stay
 * when present, which the API accepts. The model id is the adapter's: `config.model` names what an agent asked
 * for, not what this adapter serves. The request itself is not changed.
 */
export function toGeminiRequest(given: LlmRequest, modelId: string): GeminiRequest {
  // Gemini cannot hold definitions back: loaded deferred ones go as ordinary tools.
  const request = withDeferredToolsLoaded(given);
  const tools: GeminiTool[] = [
    ...(request.tools.length === 0 ? [] : [{ functionDeclarations: request.tools.map(toFunctionDeclaration) }]),
    ...toGeminiBuiltInTools(request.builtInTools, modelId),
  ];
  return {
    model: modelId,
    contents: toGeminiContents(request.messages),
    config: {
      ...(request.system === '' ? {} : { systemInstruction: { parts: [{ text: request.system }] } }),
      ...(tools.length === 0 ? {} : { tools }),
      ...toGeminiGenerationConfig(request.config),
    },
  };
}

/**
 * What `models.countTokens` takes. In Gemini API mode the SDK refuses a system instruction, tools and generation
 * config on a count, so the count covers the messages only.
 */
export function toGeminiCountRequest(request: LlmRequest, modelId: string): GeminiCountRequest {
  return { model: modelId, contents: toGeminiContents(request.messages) };
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
