import type { Part, Role } from '../session/content.js';

/** A JSON Schema (draft 2020-12 subset) describing tool parameters. */
export type JsonSchema = { [key: string]: unknown };

/** What the model is told about one tool. */
export type ToolDeclaration = {
  name: string;
  description: string;
  /** JSON Schema of the arguments; absent for a tool without parameters. */
  parameters?: JsonSchema;
};

/** One turn of the conversation the model sees. */
export type Message = {
  role: Role;
  content: Part[];
};

/** Generation settings passed through to the provider. */
export type RequestConfig = {
  model?: string;
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
};

/**
 * Exactly what one model call receives. Its JSON form (`requestToJson`) is stable: keys in this order,
 * optional fields absent rather than undefined; it is what `agentctx inspect --json` prints.
 */
export type LlmRequest = {
  system: string;
  tools: ToolDeclaration[];
  messages: Message[];
  config: RequestConfig;
};

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
