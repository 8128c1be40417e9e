import type { LlmRequest } from '../../contracts/request.js';

/** The JSON form of a request, with a fixed key order so equal requests serialize to equal bytes. */
export function requestToJson(request: LlmRequest): LlmRequest {
  return {
    system: request.system,
    tools: request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }),
    })),
    messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
    config: request.config,
  };
}

/**
 * A deep copy of a request. Assembled requests share unchanged parts with the session's events (no copying on
 * the hot path), so copy one before editing it.
 */
export function cloneRequest(request: LlmRequest): LlmRequest {
  return structuredClone(request);
}
