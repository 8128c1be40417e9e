import type { Usage } from './event.js';
import type { Provenance } from './provenance.js';
import type { LlmRequest } from './request.js';

/** One model call of a session, as recorded for inspection: the exact request, where it came from, what it cost. */
export type ModelCallRecord = {
  /** 1, 2, 3, … in the order the session's calls were recorded. */
  index: number;
  invocationId: string;
  /** The agent that made the call. */
  agent: string;
  /** Seconds since the epoch. */
  timestamp: number;
  /** The request the model received (after any `beforeModel` callback). */
  request: LlmRequest;
  /** Where each part of the assembled request came from. */
  provenance: Provenance;
  /** True when a `beforeModel` callback changed the request after assembly, so provenance may not match it. */
  editedByCallback: boolean;
  /** The id of the event that carried the model's answer, once known. */
  responseEventId?: string;
  usage?: Usage;
};

/** A recorded call without its request, for listing. */
export type ModelCallSummary = Omit<ModelCallRecord, 'request' | 'provenance'> & {
  /** Length of the request's JSON form, in characters. */
  requestChars: number;
};
