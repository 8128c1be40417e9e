import type { Content, ProviderMetadata } from './content.js';
import type { Usage } from './event.js';
import type { LlmRequest } from './request.js';

/** What a model call returns. */
export type ModelResponse = {
  /** The model's message: text, thoughts, function calls. */
  content?: Content;
  usage?: Usage;
  /** The provider's reason for stopping (`STOP`, `MAX_TOKENS`, `tool_use`…), as given. */
  finishReason?: string;
  /** Set when the provider answered with an error instead of content. */
  errorCode?: string;
  errorMessage?: string;
  /** Opaque data of the whole response (a response id), by provider; recorded with the call. */
  providerMetadata?: ProviderMetadata;
};

/** One streamed piece: partial ones carry new text to show; the last one (not partial) is the whole response. */
export type ModelStreamChunk = ModelResponse & { partial: boolean };

/** One HTTP request an adapter sent for a call (each retry sends another). */
export type WireRequest = {
  /** The endpoint, with any credential in its query removed. */
  url: string;
  method: string;
  /** The exact body sent, as text: for every built-in adapter, the JSON the provider received. */
  body: string;
};

/** What came back for a `WireRequest`. */
export type WireResponse = {
  status: number;
  /** The provider's own usage object (its field names, its counts), as it came; for a stream, the last one sent. */
  usage?: unknown;
};

/**
 * Told what an adapter puts on the wire, so what was sent can be recorded exactly. `request` is called before each
 * HTTP request goes out, `response` when its answer (for a stream: its usage) has come. Models that send nothing
 * over HTTP (scripted ones) never call it.
 */
export type WireObserver = {
  request(sent: WireRequest): void;
  response(received: WireResponse): void;
};

/**
 * The part of a request expected to lead the agent's next call unchanged, where prompt caching puts its marks: the
 * tools, the first `systemChars` characters of `system` and the first `messages` messages. Derived from where each
 * piece came from (`stablePrefixOf`): pages, memory and text a hook wrote end it; a dynamic instruction or a page
 * placed among the messages ends the messages before it.
 */
export type StablePrefix = {
  systemChars: number;
  messages: number;
};

/** The session a call is made for; adapters derive cache keys from it and never send it otherwise. */
export type CallSession = {
  appName: string;
  userId: string;
  sessionId: string;
};

export type ModelCallOptions = {
  signal?: AbortSignal | undefined;
  /** The agent making the call; for logs and scripted models, never sent to a provider. */
  agentName?: string | undefined;
  /** Told what the adapter sends and receives; the runner records it with the call. */
  wire?: WireObserver | undefined;
  /**
   * Reads the session state as the call sees it (scoped keys with their prefix); for scripted models and logs, never
   * sent to a provider.
   */
  readState?: ((key: string) => unknown) | undefined;
  /** Where the request's stable prefix ends; without it, all of the request counts as stable. */
  stablePrefix?: StablePrefix | undefined;
  session?: CallSession | undefined;
};

/** What an embedding call is for and how long its vectors are; a call's abort signal and wire observer too. */
export type EmbedOptions = Pick<ModelCallOptions, 'signal' | 'wire'> & {
  /** The vectors' length, for models that can shorten theirs (OpenAI's `dimensions`, Gemini's `outputDimensionality`). */
  dimensions?: number | undefined;
  /** What the texts are for: `query` (a search) or `document` (what is searched); Gemini tunes its vectors to it. */
  purpose?: 'query' | 'document' | undefined;
};

/** One vector per text, in the texts' order, and what the provider counted. */
export type EmbedResponse = {
  embeddings: number[][];
  /** `promptTokens`: the input tokens billed; absent when the provider reports none (Gemini's API). */
  usage?: Usage;
};

/**
 * A language model behind any provider. Implementations must not change the request they are given, must honour
 * the abort signal, and must throw (rather than return) when the call itself failed.
 */
export type Model = {
  readonly specificationVersion: 'v1';
  /** `google`, `openai`, `anthropic`, `scripted`, … */
  readonly provider: string;
  readonly modelId: string;
  /**
   * The model whose bill this one's usage stands for, when it is not its own: a scripted model whose usage a billing
   * simulator computed as that provider would bill it (`withSimulatedBilling` in agentctx/testing). Recorded with each
   * call, which is then priced as that model; the call still names this model as the one that answered.
   */
  readonly billedAs?: { provider: string; modelId: string };
  /**
   * The provider pairs function responses with calls by id, so the request must keep every call id (including
   * generated `adk-…` ones, which are otherwise hidden as ADK hides them).
   */
  readonly pairsCallsById?: boolean;
  /**
   * The provider takes `request.deferredTools` itself (Anthropic): assembly then sends deferred tools there and lets
   * `search_tools` responses load them by reference, so the tools array stays the same on every call.
   */
  readonly loadsDeferredTools?: boolean;
  /** The provider's own count of the request's input tokens, for providers with a count endpoint. */
  countTokens?(request: LlmRequest, options?: ModelCallOptions): Promise<number>;
  generate(request: LlmRequest, options?: ModelCallOptions): Promise<ModelResponse>;
  /** Streams the response; ends with one chunk that is not partial and holds the whole response. */
  stream?(request: LlmRequest, options?: ModelCallOptions): AsyncIterable<ModelStreamChunk>;
  /**
   * Turns texts into vectors (an embedding model: `text-embedding-3-small`, `gemini-embedding-001`), for semantic
   * search. Priced like a call: its usage under the model's input price (`costOfCall`).
   */
  embed?(texts: readonly string[], options?: EmbedOptions): Promise<EmbedResponse>;
};

/** One call as a middleware sees it: the request and options it was made with, and the model it wraps. */
export type ModelMiddlewareCall<Result> = {
  request: LlmRequest;
  options: ModelCallOptions | undefined;
  /** Calls the wrapped model's method, with this request and these options or others. */
  next: (request: LlmRequest, options?: ModelCallOptions) => Result;
  /** The wrapped model (for its `provider` and `modelId`). */
  model: Model;
};

/**
 * Behaviour put around a model by `wrapModel`: each method given wraps the model's method of that name; those not
 * given pass straight through. A method the model lacks stays absent, whatever the middleware has.
 */
export type ModelMiddleware = {
  generate?: (call: ModelMiddlewareCall<Promise<ModelResponse>>) => Promise<ModelResponse>;
  stream?: (call: ModelMiddlewareCall<AsyncIterable<ModelStreamChunk>>) => AsyncIterable<ModelStreamChunk>;
  countTokens?: (call: ModelMiddlewareCall<Promise<number>>) => Promise<number>;
  embed?: (call: {
    texts: readonly string[];
    options: EmbedOptions | undefined;
    next: (texts: readonly string[], options?: EmbedOptions) => Promise<EmbedResponse>;
    model: Model;
  }) => Promise<EmbedResponse>;
};
