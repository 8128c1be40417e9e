import type { Part, Role } from './content.js';

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
