import type { Content } from './content.js';
import type { StateOp } from './state-op.js';

/** A summary that stands in for the raw events between two timestamps, both included. */
export type EventCompaction = {
  startTimestamp: number;
  endTimestamp: number;
  compactedContent: Content;
  /**
   * The events the summary stands for. When present, exactly these are replaced (ADK replaces every event whose
   * timestamp falls in the range, which loses an event that shares a timestamp with the range's end).
   */
  eventIds?: string[];
};

/** What an event changes besides the conversation. */
export type EventActions = {
  /** State written by this event; keys carry their scope prefix (`app:`, `user:`, `temp:`). */
  stateDelta: Record<string, unknown>;
  /**
   * Operations on state keys (an agentctx extension; absent when there are none), applied in order after
   * `stateDelta`, each atomically to the value the store holds then: they never conflict with another writer.
   * Stores apply none of `temp:` keys (the state view already did); the HTTP API of ADK leaves them out.
   */
  stateOps?: StateOp[];
  /** Artifacts saved by this event: name → version. */
  artifactDelta: Record<string, number>;
  /** The agent the conversation moves to. */
  transferToAgent?: string;
  /** Ends the current agent's turn and hands control up. */
  escalate?: boolean;
  /** The function response is final: the model is not called again to summarize it. */
  skipSummarization?: boolean;
  compaction?: EventCompaction;
  /** Hides this invocation and every event from it up to this one from later requests. */
  rewindBeforeInvocationId?: string;
  /** Tool calls (by call id) waiting for a person's confirmation; kept so compaction does not summarize them away. */
  requestedToolConfirmations?: Record<string, unknown>;
  /** Tool calls (by call id) waiting for credentials. */
  requestedAuthConfigs?: Record<string, unknown>;
};

/**
 * Tokens a model call used, as the provider billed them, in one shape for every provider. `promptTokens` counts every
 * input token, those read from or written to a cache included; `outputTokens` counts every output token, reasoning
 * included. Only the counts the provider gave are present.
 */
export type Usage = {
  promptTokens?: number;
  outputTokens?: number;
  /** Input tokens read from the provider's prompt cache (part of `promptTokens`). */
  cachedTokens?: number;
  /** Input tokens written to the provider's prompt cache (part of `promptTokens`; Anthropic bills them above the base price). */
  cacheWriteTokens?: number;
  /** The part of `cacheWriteTokens` written to entries that live an hour (Anthropic `ttl: "1h"`); the rest live 5 minutes. */
  cacheWrite1hTokens?: number;
  /**
   * Token-hours of explicit cache storage this call started (a Gemini `cachedContents` entry: its tokens × its lifetime
   * in hours), billed per hour by the provider apart from the call's own tokens.
   */
  cacheStorageTokenHours?: number;
  /** Output tokens the model spent thinking (part of `outputTokens`). */
  reasoningTokens?: number;
  totalTokens?: number;
};

/** One entry of a session's history: a message, a tool call or result, a state change, a compaction. */
export type Event = {
  id: string;
  /** The invocation (one user turn and everything it caused) this event belongs to. */
  invocationId: string;
  /** `user`, or the name of the agent that produced the event. */
  author: string;
  /** Dot-separated path of parallel branches; agents only see events on their own branch and its ancestors. */
  branch?: string;
  /** Seconds since the epoch, with a fraction. */
  timestamp: number;
  content?: Content;
  actions: EventActions;
  /**
   * The ids of this event's function calls whose answers come later from the client (ADK's `long_running_tool_ids`):
   * calls of long-running tools, and the confirmation requests a run pauses on. The event is then a final one.
   */
  longRunningToolIds?: string[];
  usage?: Usage;
  /** A streamed chunk, not yet the complete response; never stored. */
  partial?: boolean;
  errorCode?: string;
  errorMessage?: string;
};

/** The fields of an event a caller must supply; the rest have defaults. */
export type EventInput = Omit<Event, 'actions' | 'id' | 'timestamp' | 'invocationId'> & {
  id?: string;
  timestamp?: number;
  invocationId?: string;
  actions?: Partial<EventActions>;
};
