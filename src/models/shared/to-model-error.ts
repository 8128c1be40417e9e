import { isRetryableStatus, ModelError } from '../../contracts/errors/model-error.js';
import { abortedCallError, cancelledError } from './cancellation.js';
import { retryAfterSeconds, type HeaderReader } from './retry-after.js';
import { isConnectionFailure, messageOf, messageWithCause } from './transport-errors.js';

/** What a provider read out of an error of its SDK that carries the provider's answer. */
export type ProviderFailure = {
  /** The provider's own words. */
  message: string;
  status?: number | undefined;
  /** Default: by the status (`isRetryableStatus`); false without one. */
  retryable?: boolean | undefined;
  /** Default: read from `headers`. */
  retryAfterSeconds?: number | undefined;
  headers?: HeaderReader | undefined;
  hint?: string | undefined;
};

/**
 * How one provider reads its SDK's errors: a `ProviderFailure`, `cancelled` for the SDK's own abort error,
 * `connection` for its connection errors, undefined for an error it does not know (which may still be a lost
 * connection, found by its cause chain).
 */
export type ErrorClassifier = (error: unknown) => ProviderFailure | 'cancelled' | 'connection' | undefined;

export type ModelErrorContext = {
  provider: string;
  /** The signal the call was made with. */
  signal?: AbortSignal | undefined;
  classify?: ErrorClassifier | undefined;
  /** How a refused or lost connection is told; default `the connection failed: …`. */
  connectionFailure?: ((error: unknown) => { message: string; hint?: string | undefined }) | undefined;
  /** The message for an error nobody recognised; default its own message. */
  describe?: ((error: unknown) => string) | undefined;
};

/**
 * Any failure of a model call as a ModelError, in this order: a ModelError as it is; an aborted call (cancelled,
 * or the retry wrapper's timeout); what the provider's classifier reads; a connection that failed (retryable);
 * anything else, not retryable.
 */
export function toModelError(error: unknown, context: ModelErrorContext): ModelError {
  if (ModelError.isInstance(error)) return error;
  const { provider } = context;
  const aborted = abortedCallError(provider, context.signal, error);
  if (aborted !== undefined) return aborted;
  const failure = context.classify?.(error);
  if (failure === 'cancelled') return cancelledError(provider, error);
  if (failure === 'connection' || (failure === undefined && isConnectionFailure(error))) {
    const told = context.connectionFailure?.(error) ?? { message: `the connection failed: ${messageWithCause(error)}` };
    return new ModelError({ provider, message: told.message, hint: told.hint, retryable: true, cause: error });
  }
  if (failure === undefined)
    return new ModelError({
      provider,
      message: (context.describe ?? messageOf)(error),
      retryable: false,
      cause: error,
    });
  const { status } = failure;
  return new ModelError({
    provider,
    status,
    message: failure.message,
    retryable: failure.retryable ?? (status !== undefined && isRetryableStatus(status)),
    retryAfterSeconds: failure.retryAfterSeconds ?? retryAfterSeconds(failure.headers),
    hint: failure.hint,
    cause: error,
  });
}
