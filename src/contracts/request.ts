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

/** Which tools the model may or must call: any or none (`auto`), none, at least one (`required`), or the one named. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** How much the model thinks before it answers, and whether its thoughts come back. */
export type ThinkingConfig = {
  /** Tokens the model may spend thinking (Gemini's `thinkingBudget`, Anthropic's `budget_tokens`); 0 turns thinking off. */
  budgetTokens?: number;
  /** A level instead of a budget (Gemini's `thinkingLevel`, OpenAI's `reasoning_effort`, Anthropic's `effort`). */
  effort?: 'minimal' | 'low' | 'medium' | 'high';
  /** Whether the answer carries the model's thoughts (as `thought` parts). */
  includeThoughts?: boolean;
};

/** A category of harm and how much of it to block, in Gemini's terms (`HARM_CATEGORY_HATE_SPEECH`, `BLOCK_ONLY_HIGH`). */
export type SafetySetting = { category: string; threshold: string };

/**
 * A tool the provider runs itself rather than agentctx: Gemini's `googleSearch`, `urlContext` and `codeExecution`,
 * Anthropic's server tools (`web_search_20250305`…), OpenAI's web search. Sent as its provider spells it; another
 * provider's adapter refuses it.
 */
export type BuiltInTool = {
  /** The provider it belongs to, as `Model.provider` names it: `google`, `anthropic`, `openai`. */
  provider: string;
  /** Its name in that provider's API: `googleSearch`, `web_search_20250305`, `web_search`. */
  type: string;
  /** Its settings, sent as given (Anthropic's `name` and `max_uses`, Gemini's `dynamicRetrievalConfig`…). */
  settings?: Record<string, unknown>;
};

/**
 * Generation settings. Each adapter maps every field to its provider's wire form, or refuses the call in one line
 * naming a field its provider has no equivalent for (docs/providers.md lists each refusal); none is dropped silently.
 */
export type RequestConfig = {
  model?: string;
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  /** The JSON Schema the answer must match (ADK's `output_schema`); the answer is then JSON text. */
  responseSchema?: JsonSchema;
  /** The answer's type: `text/plain`, or `application/json` (JSON, matching `responseSchema` when there is one). */
  responseMimeType?: string;
  toolChoice?: ToolChoice;
  thinking?: ThinkingConfig;
  safetySettings?: SafetySetting[];
  /** Key-value pairs the provider keeps with the call, for its billing and logs (Gemini's `labels`, OpenAI's `metadata`). */
  labels?: Record<string, string>;
  /** A seed for sampling, so repeated calls may answer alike. */
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** How many answers to generate; agentctx uses the first. */
  candidateCount?: number;
  /** How finely images and video are read: fewer tokens at `low`. */
  mediaResolution?: 'low' | 'medium' | 'high';
  /**
   * Settings for one provider, by provider name (`google`, `openai`, `anthropic`), merged into that provider's request
   * as given (over what the fields above wrote) and ignored by the others: for what no field here names.
   */
  providerOptions?: Record<string, Record<string, unknown>>;
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
  /** Tools the provider runs itself; absent when there are none. */
  builtInTools?: BuiltInTool[];
  messages: Message[];
  config: RequestConfig;
};
