import type { ModelErrorContext, ProviderFailure } from '../shared/to-model-error.js';
import { messageWithCause } from '../shared/transport-errors.js';

/**
 * How a Gemini call's failures are told (`toModelError`). The SDK throws an `ApiError` whose message is the
 * response's JSON (`{ error: { code, message, status } }`); the provider's own message is taken out of it so that it
 * reaches the user.
 */
export function geminiErrorContext(signal: AbortSignal | undefined): ModelErrorContext {
  return {
    provider: 'google',
    signal,
    classify: readApiError,
    connectionFailure: (error) => ({
      message: `the Gemini API could not be reached or dropped the connection (${messageWithCause(error)})`,
    }),
    describe: messageWithCause,
  };
}

function readApiError(error: unknown): ProviderFailure | undefined {
  if (!(error instanceof Error) || error.name !== 'ApiError') return undefined;
  const status = (error as { status?: unknown }).status;
  if (typeof status !== 'number') return undefined;
  const envelope = parseEnvelope(error.message);
  return {
    status,
    message: envelope.message ?? `HTTP ${status}`,
    retryAfterSeconds: envelope.retryAfterSeconds,
    hint: hintFor(status),
  };
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
    if (!isRecord(detail) || typeof detail['@type'] !== 'string' || !detail['@type'].endsWith('google.rpc.RetryInfo'))
      continue;
    const delay = detail['retryDelay'];
    const match = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay) : null;
    if (match?.[1] !== undefined) return Number(match[1]);
  }
  return undefined;
}

function hintFor(status: number): string | undefined {
  if (status === 401 || status === 403)
    return 'Check the API key (GEMINI_API_KEY or GOOGLE_API_KEY) and that it may use this model.';
  if (status === 404) return 'Check the model name.';
  if (status === 429) return 'The quota or rate limit was reached; wait, or lower the request rate.';
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
