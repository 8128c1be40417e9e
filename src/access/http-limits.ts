/**
 * How long a client of a local HTTP service (the API server, the inspector) may take to send its request, and how a
 * connection that breaks off or breaks the protocol is answered: with a short JSON error when the socket can still
 * carry one, else by closing it, and never with a stack trace in the log. Shared by both servers, so their limits
 * cannot drift apart. No Node types here: each server wires these to its `node:http` server.
 */

/** Time a client has to send a request's headers, from its first byte: 10 s. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/** Time a client has to send a whole request, headers and body, from its first byte: 30 s (a 1 MiB body at 35 kB/s). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

// The largest delay Node's timers take (2^31 - 1 ms, about 24.8 days).
const MAX_MS = 2_147_483_647;

export type HttpTimeouts = { readonly headersTimeoutMs: number; readonly requestTimeoutMs: number };

/**
 * The timeouts with their defaults filled in, or what is wrong with them: each a whole number of milliseconds from 1,
 * the headers' no longer than the whole request's. Without its own, the headers' limit is the default or the
 * request's, whichever is shorter.
 */
export function resolveHttpTimeouts(given: {
  headersTimeoutMs?: number | undefined;
  requestTimeoutMs?: number | undefined;
}): HttpTimeouts | { problem: string } {
  for (const name of ['headersTimeoutMs', 'requestTimeoutMs'] as const) {
    const value = given[name];
    if (value !== undefined && !(Number.isInteger(value) && value >= 1 && value <= MAX_MS)) {
      return { problem: `${name} must be a whole number of milliseconds from 1 to ${MAX_MS}, got ${String(value)}` };
    }
  }
  const requestTimeoutMs = given.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const headersTimeoutMs = given.headersTimeoutMs ?? Math.min(DEFAULT_HEADERS_TIMEOUT_MS, requestTimeoutMs);
  if (headersTimeoutMs > requestTimeoutMs) {
    return {
      problem: `headersTimeoutMs (${headersTimeoutMs}) must not exceed requestTimeoutMs (${requestTimeoutMs}): the headers are part of the request`,
    };
  }
  return { headersTimeoutMs, requestTimeoutMs };
}

/**
 * The `node:http` server options that enforce the timeouts. Node checks them on a timer (every 30 s by default), so
 * the timer runs often enough for a limit to hold within a quarter of it (at most every second).
 */
export function nodeServerTimeouts(timeouts: HttpTimeouts): {
  headersTimeout: number;
  requestTimeout: number;
  connectionsCheckingInterval: number;
} {
  const shortest = Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs);
  return {
    headersTimeout: timeouts.headersTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(shortest / 4))),
  };
}

/** What a socket of `node:http` offers here. */
type ClientSocket = { readonly writable: boolean; write(data: string): unknown; destroy(): unknown };
type Response = { readonly headersSent: boolean; once(event: 'close', listener: () => void): unknown };

/**
 * Answers the connections Node's HTTP parser gives up on (`clientError`): a request that did not arrive in time (408
 * `request_timeout`), a body cut off by the client closing its side (400 `incomplete_body`), headers too large (431),
 * anything else that is not HTTP (400 `bad_request`); a connection already reset is closed without a word. Nothing
 * is written over a response that has started. `track` must see every request's response (`server.on('request')`).
 */
export function clientErrorAnswers(timeouts: HttpTimeouts): {
  track(socket: object, res: Response): void;
  onClientError(error: Error, socket: ClientSocket): void;
} {
  const responses = new WeakMap<object, Response>();
  return {
    track(socket, res) {
      responses.set(socket, res);
      res.once('close', () => {
        if (responses.get(socket) === res) responses.delete(socket);
      });
    },
    onClientError(error, socket) {
      const reply = clientErrorReply((error as { code?: unknown }).code, timeouts);
      if (reply !== undefined && socket.writable && responses.get(socket)?.headersSent !== true) socket.write(reply);
      socket.destroy();
    },
  };
}

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The raw HTTP/1.1 answer to a parser error, or `undefined` when the peer is gone and nothing should be written. */
export function clientErrorReply(code: unknown, timeouts: HttpTimeouts): string | undefined {
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ETIMEDOUT' || code === 'ERR_STREAM_DESTROYED')
    return undefined;
  const [status, body] = ((): [number, { code: string; message: string; hint?: string }] => {
    switch (code) {
      case 'ERR_HTTP_REQUEST_TIMEOUT':
        return [
          408,
          {
            code: 'request_timeout',
            message: `The request did not arrive in time: its headers must arrive within ${timeouts.headersTimeoutMs} ms, the whole request within ${timeouts.requestTimeoutMs} ms.`,
            hint: 'Send the request at once; the limits are set with --headers-timeout and --request-timeout.',
          },
        ];
      case 'HPE_INVALID_EOF_STATE':
        return [400, { code: 'incomplete_body', message: 'The connection closed before the request was complete.' }];
      case 'HPE_HEADER_OVERFLOW':
        return [431, { code: 'headers_too_large', message: 'The request headers are larger than the server accepts.' }];
      default:
        return [400, { code: 'bad_request', message: 'The request is not valid HTTP/1.1.' }];
    }
  })();
  const text = `${JSON.stringify({ error: body })}\n`;
  const head = [
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${new TextEncoder().encode(text).length}`,
    'connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${text}`;
}
