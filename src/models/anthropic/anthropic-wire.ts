// The Messages API's request shapes, as this adapter sends them.

/** A breakpoint: the prefix up to and including the block it marks is cached, for 5 minutes unless `ttl` says 1 hour. */
export type CacheControl = { type: 'ephemeral'; ttl?: '1h' };

/** A content block of the Messages API, as this adapter sends it (a cache breakpoint may mark any but thinking). */
export type AnthropicBlock = (
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content: string | AnthropicToolReference[] }
  | {
      type: 'image';
      source: { type: 'base64'; media_type: AnthropicImageType; data: string } | { type: 'url'; url: string };
    }
  | {
      type: 'document';
      source: { type: 'base64'; media_type: 'application/pdf'; data: string } | { type: 'url'; url: string };
    }
) & { cache_control?: CacheControl };

export type AnthropicImageType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';

export type AnthropicMessage = { role: 'user' | 'assistant'; content: AnthropicBlock[] };

/** A tool result's pointer to a deferred tool: the API puts that tool's definition in the prompt there. */
export type AnthropicToolReference = { type: 'tool_reference'; tool_name: string };

/** A tool definition; `defer_loading` keeps it out of the prompt until a `tool_reference` names it. */
export type AnthropicTool = {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
  defer_loading?: true;
  cache_control?: CacheControl;
};

/** A server tool Anthropic runs itself (`{ type: 'web_search_20250305', name: 'web_search' }`), with its settings. */
export type AnthropicServerTool = { type: string; cache_control?: CacheControl; [setting: string]: unknown };

/** A system text block; the system goes as blocks when a breakpoint marks where its stable part ends. */
export type AnthropicSystemBlock = { type: 'text'; text: string; cache_control?: CacheControl };

/** The body of `POST /v1/messages` (without `stream`). */
export type AnthropicRequestBody = {
  model: string;
  max_tokens: number;
  /** Automatic placement: one breakpoint on the last cacheable block. */
  cache_control?: CacheControl;
  system?: string | AnthropicSystemBlock[];
  tools?: (AnthropicTool | AnthropicServerTool)[];
  messages: AnthropicMessage[];
  stop_sequences?: string[];
  tool_choice?: { type: 'auto' | 'none' | 'any' } | { type: 'tool'; name: string };
  thinking?:
    | { type: 'enabled'; budget_tokens: number; display?: 'summarized' | 'omitted' }
    | { type: 'adaptive'; display?: 'summarized' | 'omitted' }
    | { type: 'disabled' };
  output_config?: {
    effort?: 'low' | 'medium' | 'high';
    format?: { type: 'json_schema'; schema: { [key: string]: unknown } };
  };
};

/** The body of `POST /v1/messages/count_tokens`: the same input, without the generation settings. */
export type AnthropicCountTokensBody = Omit<
  AnthropicRequestBody,
  'max_tokens' | 'stop_sequences' | 'tool_choice' | 'thinking' | 'output_config'
>;
