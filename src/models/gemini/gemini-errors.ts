import { isRetryableStatus, ModelError } from '../../contracts/errors/model-error.js';

const PROVIDER = 'google';

// Codes Node's fetch (undici) and sockets give a connection that failed or dropped: worth another attempt.
const CONNECTION_CODES = /^(UND_ERR_(SOCKET|CLOSED|CONNECT_TIMEOUT|HEADERS_TIMEOUT|BODY_TIMEOUT)|ECONNRESET|ECONNREFUSED|ECONNABORTED|EPIPE|ETIMEDOUT|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|ENETDOWN)$/;

/**
 * Any failure of a Gemini call as a `ModelError`. The SDK throws an `ApiError` whose message is the response's
 * JSON (`{ error: { code, message, status } }`); the provider's own message is taken out of it so that it reaches
 * the user. A cancelled call is not retryable; the retry wrapper's per-attempt timeout (a `ModelError` abort
 * reason) is passed on as it is.
 */
export function toGeminiModelError(error: unknown, signal: AbortSignal | undefined): ModelError {
  if (error instanceof ModelError) return error;
  if (signal?.aborted === true) {
    if (signal.reason instanceof ModelError) return signal.reason;
    return new ModelError({ provider: PROVIDER, message: 'the call was cancelled', retryable: false, cause: error });
  }
  const status = apiErrorStatus(error);
  if (status !== undefined) {
    const envelope = parseEnvelope(error instanceof Error ? error.message : String(error));
    return new ModelError({
      provider: PROVIDER,
      status,
      message: envelope.message ?? `HTTP ${status}`,
      retryable: isRetryableStatus(status),
      retryAfterSeconds: envelope.retryAfterSeconds,
      hint: hintFor(status),
      cause: error,
    });
  }
  if (isConnectionError(error)) {
    return new ModelError({ provider: PROVIDER, message: `the Gemini API could not be reached or dropped the connection (${describe(error)})`, retryable: true, cause: error });
  }
  return new ModelError({ provider: PROVIDER, message: describe(error), retryable: false, cause: error });
}

function apiErrorStatus(error: unknown): number | undefined {
  if (!(error instanceof Error) || error.name !== 'ApiError') return undefined;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * The message and retry delay out of Gemini's error envelope. The SDK writes the envelope as the whole message, or
 * after `got status: …. ` for an error sent inside a stream; a body that is not JSON arrives as the message text.
 */
export function parseEnvelope(text: string): { message: string | undefined; retryAfterSeconds: number | undefined } {
  const start = text.indexOf('{');
  let body: unknown;
  try {
    body = start === -1 ? undefined : JSON.parse(text.slice(start));
  } catch {
    body = undefined;
  }
  const inner = isRecord(body) && isRecord(body['error']) ? body['error'] : undefined;
  if (inner === undefined) return { message: text.trim() === '' ? undefined : text, retryAfterSeconds: undefined };
  const message = typeof inner['message'] === 'string' && inner['message'] !== '' ? inner['message'] : undefined;
  const status = typeof inner['status'] === 'string' && inner['status'] !== '' ? inner['status'] : undefined;
  return {
    message: message === undefined ? status : status === undefined ? message : `${message} (${status})`,
    retryAfterSeconds: retryDelay(inner['details']),
  };
}

// A 429 carries `google.rpc.RetryInfo` with a delay such as "37s" among its details.
function retryDelay(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const detail of details) {
    if (!isRecord(detail) || typeof detail['@type'] !== 'string' || !detail['@type'].endsWith('google.rpc.RetryInfo')) continue;
    const delay = detail['retryDelay'];
    const match = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay) : null;
    if (match?.[1] !== undefined) return Number(match[1]);
  }
  return undefined;
}

function hintFor(status: number): string | undefined {
  if (status === 401 || status === 403) return 'Check the API key (GEMINI_API_KEY or GOOGLE_API_KEY) and that it may use this model.';
  if (status === 404) return 'Check the model name.';
  if (status === 429) return 'The quota or rate limit was reached; wait, or lower the request rate.';
  return undefined;
}

function isConnectionError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.test(code)) return true;
    // Node's fetch reports a failed request as `fetch failed` and a body cut off midway as `terminated`.
    if (current instanceof TypeError && (current.message === 'fetch failed' || current.message === 'terminated')) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause === undefined || cause === error.message ? error.message : `${error.message}: ${cause}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
