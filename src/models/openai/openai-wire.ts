/**
 * The Chat Completions wire format, as far as agentctx writes and reads it. Written here rather than taken from the
 * SDK so the mappings stay pure; the request types match the SDK's parameter types, and the response types are
 * loose on purpose: OpenAI-compatible servers leave fields out or add their own (`reasoning_content`).
 */

export type OpenAITextPart = { type: 'text'; text: string };
export type OpenAIImagePart = { type: 'image_url'; image_url: { url: string; detail?: 'low' | 'high' | 'auto' } };
export type OpenAIContentPart = OpenAITextPart | OpenAIImagePart;

export type OpenAIToolCall = { id: string; type: 'function'; function: { name: string; arguments: string } };

export type OpenAIMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAIContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAIToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export type OpenAITool = {
  type: 'function';
  function: { name: string; description: string; parameters: { [key: string]: unknown } };
};

/** The body of `POST /chat/completions`, without the streaming flags. */
export type OpenAIRequestBody = {
  model: string;
  messages: OpenAIMessage[];
  tools?: OpenAITool[];
  temperature?: number;
  top_p?: number;
  max_completion_tokens?: number;
  max_tokens?: number;
  stop?: string[];
  response_format?:
    | { type: 'json_object' }
    | { type: 'json_schema'; json_schema: { name: string; schema: { [key: string]: unknown }; strict?: boolean } };
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
  reasoning_effort?: 'minimal' | 'low' | 'medium' | 'high';
  metadata?: Record<string, string>;
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  n?: number;
  /** Search before answering (search models); the settings of the built-in `web_search` tool. */
  web_search_options?: Record<string, unknown>;
  prompt_cache_key?: string;
  prompt_cache_retention?: 'in_memory' | '24h';
};

export type OpenAIUsage = {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  /** `cache_write_tokens`: prompt tokens written to the cache, on models that bill writes. */
  prompt_tokens_details?: { cached_tokens?: number | null; cache_write_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
};

/** A tool call as a response carries it; `custom` calls have no `function` and are not ours. */
export type OpenAIResponseToolCall = {
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
};

export type OpenAIResponseMessage = {
  content?: string | null;
  refusal?: string | null;
  tool_calls?: readonly OpenAIResponseToolCall[] | null;
  /** Reasoning text from DeepSeek, vLLM and llama.cpp (`reasoning_content`) or Ollama (`reasoning`). */
  reasoning_content?: string | null;
  reasoning?: string | null;
};

/** A non-streamed answer. */
export type OpenAICompletion = {
  choices?: readonly { message?: OpenAIResponseMessage | null; finish_reason?: string | null }[] | null;
  usage?: OpenAIUsage | null;
};

export type OpenAIToolCallDelta = {
  index?: number | null;
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
};

/** One chunk of a streamed answer. */
export type OpenAIChunk = {
  choices?:
    | readonly {
        index?: number | null;
        delta?:
          | (Omit<OpenAIResponseMessage, 'tool_calls'> & { tool_calls?: readonly OpenAIToolCallDelta[] | null })
          | null;
        finish_reason?: string | null;
      }[]
    | null;
  usage?: OpenAIUsage | null;
};
