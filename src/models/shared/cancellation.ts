import { ModelError } from '../../contracts/errors/model-error.js';

/**
 * The error for a call whose signal has aborted; undefined while it has not. The caller's abort means nobody wants
 * the answer any more: `the call was cancelled`, not retryable. An abort whose reason is a ModelError passes that
 * error on: it is how withRetries ends an attempt that ran out of time (retryable, and saying so).
 */
export function abortedCallError(
  provider: string,
  signal: AbortSignal | undefined,
  cause: unknown,
): ModelError | undefined {
  if (signal?.aborted !== true) return undefined;
  return ModelError.isInstance(signal.reason) ? signal.reason : cancelledError(provider, cause);
}

/** A call the caller cancelled. */
export function cancelledError(provider: string, cause: unknown): ModelError {
  return new ModelError({ provider, message: 'the call was cancelled', retryable: false, cause });
}
