import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { ModelErrorContext, ProviderFailure } from '../shared/to-model-error.js';
import { isConnectionFailure, messageWithCause } from '../shared/transport-errors.js';
import { StreamedError } from './ai-sdk-stream.js';

// The AI SDK marks its errors with registered symbols (`APICallError.isInstance` reads them), so they are known
// without loading @ai-sdk/provider, and whichever copy of it the provider package brought.
const API_CALL_ERROR = Symbol.for('vercel.ai.error.AI_APICallError');

// What a provider package throws, before sending anything, for a request it cannot express.
const REFUSALS = ['AI_UnsupportedFunctionalityError', 'AI_InvalidPromptError', 'AI_InvalidArgumentError'].map((name) =>
  Symbol.for(`vercel.ai.error.${name}`),
);

/** The fields of the AI SDK's `APICallError` read here. */
type ApiCallError = Error & {
  statusCode?: number;
  isRetryable: boolean;
  responseHeaders?: Record<string, string>;
};

// Error types providers name in a stream's error event that are worth another try.
const RETRYABLE_TYPE = /overloaded|rate_limit|api_error|server_error|timeout|unavailable/i;

export function errorContext(provider: string, signal: AbortSignal | undefined): ModelErrorContext {
  return {
    provider,
    signal,
    classify: (error) =>
      readError(error instanceof StreamedError ? error.error : error, error instanceof StreamedError),
    connectionFailure: (error) => ({ message: messageWithCause(error) }),
  };
}

function marked(error: unknown, marker: symbol): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
}

function isApiCallError(error: unknown): error is ApiCallError {
  return marked(error, API_CALL_ERROR);
}

/**
 * A request the provider package refused to write (a part or setting its provider cannot take) as the refusal it is:
 * a ValidationError, not retried, as the bridge's own refusals are. Undefined for any other error.
 */
export function refusalOf(error: unknown, api: string): ValidationError | undefined {
  if (!REFUSALS.some((marker) => marked(error, marker))) return undefined;
  return new ValidationError({
    subject: `${api} request`,
    issues: [{ path: 'request', message: (error as Error).message }],
    hint: 'Leave it out for this model; docs/providers.md lists what each provider takes.',
    cause: error,
  });
}

/** A provider package's error: an HTTP status with the provider's message, a lost connection, a stream's error. */
function readError(error: unknown, streamed: boolean): ProviderFailure | 'connection' | undefined {
  if (isApiCallError(error)) {
    const status = error.statusCode;
    if (status === undefined)
      return isConnectionFailure(error.cause) || isConnectionFailure(error)
        ? 'connection'
        : { message: error.message, retryable: error.isRetryable };
    const headers = error.responseHeaders ?? {};
    return {
      status,
      message: error.message,
      retryable: error.isRetryable,
      headers: { get: (name) => headers[name.toLowerCase()] ?? null },
      hint:
        status === 401 || status === 403
          ? 'Check the API key given to the provider package and its access to this model.'
          : undefined,
    };
  }
  if (!streamed || error instanceof Error) return undefined;
  // What a provider sent as a stream's error event: { type, message } in most protocols.
  const { type, message } = (typeof error === 'object' && error !== null ? error : {}) as {
    type?: unknown;
    message?: unknown;
  };
  const text = typeof message === 'string' ? message : JSON.stringify(error);
  return typeof type === 'string'
    ? { message: `${type}: ${text}`, retryable: RETRYABLE_TYPE.test(type) }
    : { message: text, retryable: false };
}
