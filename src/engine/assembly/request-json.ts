import type { BuiltInTool, LlmRequest, ToolDeclaration } from '../../contracts/request.js';

/** The JSON form of a request, with a fixed key order so equal requests serialize to equal bytes. */
export function requestToJson(request: LlmRequest): LlmRequest {
  return {
    system: request.system,
    tools: request.tools.map(declarationJson),
    ...(request.deferredTools === undefined
      ? {}
      : {
          deferredTools: {
            loader: request.deferredTools.loader,
            declarations: request.deferredTools.declarations.map(declarationJson),
          },
        }),
    ...(request.builtInTools === undefined ? {} : { builtInTools: request.builtInTools.map(builtInJson) }),
    messages: request.messages.map((message) => ({ role: message.role, content: message.content })),
    config: request.config,
  };
}

function builtInJson(tool: BuiltInTool): BuiltInTool {
  return {
    provider: tool.provider,
    type: tool.type,
    ...(tool.settings === undefined ? {} : { settings: tool.settings }),
  };
}

function declarationJson(tool: ToolDeclaration): ToolDeclaration {
  return {
    name: tool.name,
    description: tool.description,
    ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }),
  };
}

/**
 * A deep copy of a request. Assembled requests share unchanged parts with the session's events (no copying on
 * the hot path), so copy one before editing it.
 */
export function cloneRequest(request: LlmRequest): LlmRequest {
  return structuredClone(request);
}
