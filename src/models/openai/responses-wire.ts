/**
 * The Responses API wire format (`POST /v1/responses`), as far as agentctx writes and reads it. Written here rather
 * than taken from the SDK so the mappings stay pure; the request types are assignable to the SDK's parameter types,
 * the response types are loose on purpose (fields may be absent, and kinds of item agentctx does not read are kept
 * as `type` alone).
 */

export type ResponsesInputContent =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'low' | 'high' | 'auto' }
  | { type: 'input_file'; filename: string; file_data: string };

/**
 * A reasoning item as it came, sent back so the model keeps its reasoning across a tool call: with its encrypted
 * content, or (when OpenAI stores the responses) by its id alone.
 */
export type ResponsesReasoningItem = {
  type: 'reasoning';
  id: string;
  encrypted_content?: string;
  summary: { type: 'summary_text'; text: string }[];
};

export type ResponsesInputItem =
  | { role: 'user'; content: string | ResponsesInputContent[] }
  | { role: 'assistant'; content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string }
  | ResponsesReasoningItem;

/** Function tools are flat (no nested `function`); `strict` is sent either way, since Responses defaults it to true. */
export type ResponsesFunctionTool = {
  type: 'function';
  name: string;
  description: string;
  parameters: { [key: string]: unknown };
  strict: boolean;
};

/** A tool OpenAI runs itself (`web_search`, `file_search`, `code_interpreter`…), with its settings as given. */
export type ResponsesBuiltInTool = { type: string; [setting: string]: unknown };

export type ResponsesTextFormat =
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: { [key: string]: unknown }; strict?: boolean };

/** The body of `POST /responses`, without the streaming flag. */
export type ResponsesRequestBody = {
  model: string;
  instructions?: string;
  input: ResponsesInputItem[];
  tools?: (ResponsesFunctionTool | ResponsesBuiltInTool)[];
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; name: string };
  temperature?: number;
  top_p?: number;
  max_output_tokens?: number;
  text?: { format: ResponsesTextFormat };
  reasoning?: { effort?: 'minimal' | 'low' | 'medium' | 'high'; summary?: 'auto' };
  metadata?: Record<string, string>;
  /** False (the default): nothing is kept on OpenAI's side, and every request carries the whole conversation. */
  store: boolean;
  /** With `store`: the response the conversation continues, which OpenAI holds; `input` is then only what is new. */
  previous_response_id?: string;
  include?: 'reasoning.encrypted_content'[];
  prompt_cache_key?: string;
  prompt_cache_retention?: 'in_memory' | '24h';
};

export type ResponsesUsage = {
  input_tokens?: number | null;
  output_tokens?: number | null;
  total_tokens?: number | null;
  /** `cache_write_tokens`: input tokens written to the cache, on models that bill writes. */
  input_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
  output_tokens_details?: { reasoning_tokens?: number | null } | null;
};

/** One item of a response's `output`. */
export type ResponsesOutputItem = {
  type?: string | null;
  id?: string | null;
  /** `message`: its content parts (`output_text`, `refusal`). */
  content?: readonly { type?: string | null; text?: string | null; refusal?: string | null }[] | null;
  /** `reasoning`: the summaries and the encrypted reasoning. */
  summary?: readonly { type?: string | null; text?: string | null }[] | null;
  encrypted_content?: string | null;
  /** `function_call`. */
  call_id?: string | null;
  name?: string | null;
  arguments?: string | null;
};

/** A response, non-streamed or as the terminal event of a stream carries it. */
export type ResponsesResponse = {
  id?: string | null;
  status?: string | null;
  output?: readonly ResponsesOutputItem[] | null;
  incomplete_details?: { reason?: string | null } | null;
  error?: { code?: string | null; message?: string | null } | null;
  usage?: ResponsesUsage | null;
};

/** One server-sent event of a streamed response. */
export type ResponsesStreamEvent = {
  type: string;
  output_index?: number;
  item?: ResponsesOutputItem;
  delta?: string;
  response?: ResponsesResponse;
  /** `error` events. */
  code?: string | null;
  message?: string | null;
};
