import type { Content, ProviderMetadata } from './content.js';
import type { Usage } from './event.js';
import type { Provenance } from './provenance.js';
import type { LlmRequest } from './request.js';

/**
 * Where a call stands: recorded `pending` before the model is asked, then `answered`, `failed` (the model or its
 * adapter failed), `aborted` (the run was cancelled) or `timed_out` (no complete answer within `modelTimeoutMs`). A
 * call left `pending` belongs to a process that died during it.
 */
export type ModelCallStatus = 'pending' | 'answered' | 'failed' | 'aborted' | 'timed_out';

/** The tool call a nested call was made for: an agent tool (or an agent a tool ran), run by the call `callIndex`. */
export type ModelCallParent = {
  /** The recorded call whose response asked for the tool; absent when a `beforeModel` hook answered in its place. */
  callIndex?: number;
  /** The id of that response's function call. */
  functionCallId: string;
  tool: string;
};

/** What a model answered, as it came from the model (before any `afterModel` callback). */
export type RecordedResponse = {
  content?: Content;
  finishReason?: string;
  errorCode?: string;
  errorMessage?: string;
  providerMetadata?: ProviderMetadata;
};

/** What the adapter put on the wire for the call (its last attempt), credentials removed. */
export type WireRecord = {
  url: string;
  method: string;
  /** The exact body sent. */
  body: string;
  /** The HTTP status of the answer, once there was one. */
  status?: number;
  /** The provider's raw usage object. */
  usage?: unknown;
  /** HTTP requests sent for the call: more than 1 when it was retried. */
  attempts: number;
};

/** How a call ended; written once, when it did. */
export type ModelCallOutcome = {
  status: Exclude<ModelCallStatus, 'pending'>;
  /** Milliseconds from sending to the complete answer (or to the failure). */
  latencyMs: number;
  /** Milliseconds to the first streamed piece, when the call streamed. */
  firstTokenMs?: number;
  response?: RecordedResponse;
  usage?: Usage;
  /** Why it failed, timed out or was aborted. */
  error?: string;
  wire?: WireRecord;
  /** The id of the event that carried the answer (or the failure). */
  responseEventId?: string;
};

/** One model call of a session, as recorded for inspection: the exact request, where it came from, what came back. */
export type ModelCallRecord = {
  /** 1, 2, 3, … in the order the session's calls were recorded. */
  index: number;
  invocationId: string;
  /** The agent that made the call. */
  agent: string;
  /** When the call was sent: seconds since the epoch. */
  timestamp: number;
  /**
   * The model asked: its provider and id, and the model whose bill its usage stands for when that is another one
   * (`Model.billedAs`: a scripted model billed as a provider would bill it), by which the call is priced.
   */
  model?: { provider: string; modelId: string; billedAs?: { provider: string; modelId: string } };
  /** Set on calls made inside a tool call of another recorded call (agent tools). */
  parent?: ModelCallParent;
  /** The request the model received (after any `beforeModel` callback). */
  request: LlmRequest;
  /** Where each part of the request came from, edits by callbacks and plugins included. */
  provenance: Provenance;
  /** True when a `beforeModel` callback or plugin changed the request after assembly (see `provenance.edits`). */
  editedByCallback: boolean;
  /**
   * What assembly warned of for this request, when it did: a toolset that could not list its tools, a tool left out
   * (its name or schema unusable), tool definitions over the agent's budget.
   */
  warnings?: string[];
  /**
   * `embeddings` for a call of `Model.embed`: its `request` holds the texts (one user message, a text part each) and
   * the model; its outcome the usage and wire record (not the vectors). Absent for a chat call.
   */
  operation?: 'embeddings';
  status: ModelCallStatus;
} & Partial<Omit<ModelCallOutcome, 'status'>>;

/** A call to record: the outcome may come with it (a call recorded after the fact) or later (`completeModelCall`). */
export type NewModelCall = Omit<ModelCallRecord, 'index' | 'status'> & { status?: ModelCallStatus };

/** A recorded call without its request, response and wire body, for listing. */
export type ModelCallSummary = Omit<ModelCallRecord, 'request' | 'provenance' | 'response' | 'wire'> & {
  /** Length of the request's JSON form, in characters. */
  requestChars: number;
};
