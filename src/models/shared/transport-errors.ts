// Codes Node's sockets and fetch (undici) give a connection that could not be made or was lost: worth another try.
const CONNECTION_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

// Causes are followed this deep at most, so a cause that points back at itself cannot loop.
const MAX_DEPTH = 8;

/**
 * True when the error, or an error in its `cause` chain, is a refused, dropped or timed-out connection. SDKs wrap
 * these differently, and one lost while a stream is read surfaces from fetch itself: `fetch failed` for a request
 * that never got an answer, `terminated` for a body cut off midway.
 */
export function isConnectionFailure(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < MAX_DEPTH && typeof current === 'object' && current !== null; depth++) {
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
    if (current instanceof Error && (current.message === 'fetch failed' || current.message === 'terminated'))
      return true;
    current = cause;
  }
  return false;
}

/** The message of the innermost error of the cause chain (`connect ECONNREFUSED 127.0.0.1:9`, not `fetch failed`). */
export function rootMessage(error: unknown): string {
  let current = error;
  for (let depth = 0; depth < MAX_DEPTH && current instanceof Error && current.cause instanceof Error; depth++)
    current = current.cause;
  return messageOf(current);
}

/** The error's message, and its direct cause's when that adds something: `fetch failed: other side closed`. */
export function messageWithCause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  return cause === undefined || cause === error.message ? error.message : `${error.message}: ${cause}`;
}

/** An Error's message; anything else as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
