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
 * Tool definitions sent with a request but kept out of the model's prompt until a function response of `loader`
 * names them in its `loaded` list (Anthropic's `defer_loading` and `tool_reference`): the provider then puts each
 * definition in the prompt where that response is. Only models with `loadsDeferredTools` receive them from assembly;
 * other adapters offer the loaded ones as ordinary tools (`withDeferredToolsLoaded`).
 */
export type DeferredTools = {
  /** The tool whose responses load definitions (`search_tools`). */
  loader: string;
  declarations: ToolDeclaration[];
};

/**
 * Exactly what one model call receives. Its JSON form (`requestToJson`) is stable: keys in this order,
 * optional fields absent rather than undefined; it is what `agentctx inspect --json` prints.
 */
export type LlmRequest = {
  system: string;
  tools: ToolDeclaration[];
  /** Definitions the provider holds back until a response loads them; absent for most requests. */
  deferredTools?: DeferredTools;
  messages: Message[];
  config: RequestConfig;
};
