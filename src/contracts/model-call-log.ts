import type { ModelCallOutcome, ModelCallRecord, ModelCallSummary, NewModelCall } from './model-call.js';
import type { SessionKey } from './session.js';

/**
 * Where the model calls of sessions are recorded: the request each call sent, where every byte of it came from, and
 * how it ended. The inspector, `agentctx inspect` and the HTTP API read it; the runner writes it. A contract of its
 * own, apart from `SessionStore`: a store of sessions need not keep calls, and calls may go to a log of their own.
 * The SQL and in-memory session stores implement both (`SessionStoreWithCallLog`). Every implementation must pass
 * `testModelCallLog` (`agentctx/testing`).
 */
export type ModelCallLog = {
  /** `memory`, `sqlite`, `postgres`, or a custom name; shown in errors and the inspector. */
  readonly name: string;

  /**
   * Records one model call of the session and returns its index (1, 2, 3, … per session, in recording order). The
   * runner records a call `pending` before it is sent and completes it with `completeModelCall`; a call given with
   * its status is stored as it is. A log that is also the session store throws `NotFoundError` for an unknown session.
   */
  recordModelCall(input: SessionKey & { call: NewModelCall }): Promise<number>;

  /**
   * Writes how a recorded call ended: its status, latency, response, usage and wire body. Costs the same however long
   * the session is. Throws `NotFoundError` when there is no such call, `ConflictError` when it has already ended.
   */
  completeModelCall(input: SessionKey & { index: number; outcome: ModelCallOutcome }): Promise<void>;

  /** The session's recorded calls without their requests, in order; empty for an unknown session. */
  listModelCalls(input: SessionKey): Promise<ModelCallSummary[]>;

  /** One recorded call, with its request and provenance; `undefined` if there is no such call. */
  getModelCall(input: SessionKey & { index: number }): Promise<ModelCallRecord | undefined>;

  /**
   * Forgets every call of the session; the next one recorded is number 1 again. A store that is also the session
   * store does this when the session is deleted; a log of its own is told by whoever deletes the session (the
   * HTTP API does). No error if there are none.
   */
  deleteModelCalls(input: SessionKey): Promise<void>;

  /** Releases connections and files; the log is unusable afterwards. */
  close(): Promise<void>;
};

/** What reading a log needs: the inspector, `inspect`, `cost` and the HTTP API only read. */
export type ModelCallReader = Pick<ModelCallLog, 'listModelCalls' | 'getModelCall'>;
