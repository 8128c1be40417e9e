import { AgentctxError } from './agentctx-error.js';

/** Why a store could not answer. */
export type UnavailableReason =
  /** No connection could be made: the server is down, starting up, or refused one more connection. */
  | 'unreachable'
  /** The connection broke while the request used it: the server restarted or stopped, or the network dropped it. */
  | 'disconnected'
  /** Every pooled connection stayed in use for as long as a request may wait for one. */
  | 'pool_exhausted'
  /** The server canceled a statement that ran past its time limit (`statement_timeout`, `lock_timeout`). */
  | 'timeout';

export type UnavailableErrorOptions = {
  /** The store's name: `postgres`. */
  store: string;
  reason: UnavailableReason;
  message: string;
  hint?: string | undefined;
  /** Seconds worth waiting before a retry. Default 1. */
  retryAfterSeconds?: number | undefined;
  /** The driver's own error. */
  cause?: unknown;
};

/**
 * A store that could not answer for now: its server restarted, cannot be reached, has no connection free, or gave up
 * on a slow statement. Always worth retrying; a transaction it cut off either committed whole or not at all. The
 * servers answer it `503` with `Retry-After`; the runner does not retry it as a conflict.
 */
export class UnavailableError extends AgentctxError {
  static override readonly errorName: string = 'UnavailableError';

  readonly store: string;
  readonly reason: UnavailableReason;
  readonly retryable: true = true;
  readonly retryAfterSeconds: number;

  constructor(options: UnavailableErrorOptions) {
    super({ code: 'store_unavailable', message: options.message, hint: options.hint, cause: options.cause });
    this.store = options.store;
    this.reason = options.reason;
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
  }
}
