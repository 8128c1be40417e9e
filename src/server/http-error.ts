import type { ServerResponse } from 'node:http';
import { AgentctxError, type AgentctxErrorCode } from '../contracts/errors/agentctx-error.js';
import { ConflictError } from '../contracts/errors/conflict-error.js';
import { NotFoundError } from '../contracts/errors/not-found-error.js';
import { UnavailableError } from '../contracts/errors/unavailable-error.js';
import { ValidationError, type ValidationIssue } from '../contracts/errors/validation-error.js';

/** The body of every error response: a stable `code`, a message naming what is wrong, and what to do about it. */
export type ErrorBody = {
  error: {
    code: string;
    message: string;
    hint?: string;
    /** Every problem found in a request body or query, each at its path. */
    issues?: readonly ValidationIssue[];
  };
};

/** A request the server refuses for an HTTP reason: bad JSON, a body too large, an unknown route, no token. */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string | undefined;
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { hint?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.hint = options.hint;
    this.headers = options.headers ?? {};
  }
}

// Deliberate errors by code; an unlisted code is still the server's own refusal, answered as 500 with its message.
const STATUS_BY_CODE: Partial<Record<AgentctxErrorCode, number>> = {
  invalid_input: 400,
  unsupported_version: 400,
  usage: 400,
  not_found: 404,
  already_exists: 409,
  stale_session: 409,
  model_error: 502,
  // The server was started without an optional package this request needs (a provider's SDK): its operator installs it.
  missing_package: 501,
  // The database restarted, is out of connections or timed out a statement: the server is fine, retry shortly.
  store_unavailable: 503,
};

export type ErrorReply = {
  status: number;
  body: ErrorBody;
  headers: Readonly<Record<string, string>>;
  /** A bug, not a refusal: log it. Its message never reaches the client. */
  unexpected: boolean;
};

/** How an error is answered. Only errors agentctx does not know get a 500, and their details stay in the log. */
export function errorReply(error: unknown): ErrorReply {
  if (error instanceof HttpError) {
    return {
      status: error.status,
      body: errorBody(error.code, error.message, error.hint),
      headers: error.headers,
      unexpected: false,
    };
  }
  if (AgentctxError.isInstance(error)) {
    const body = errorBody(error.code, error.message, error.hint);
    if (error instanceof ValidationError) body.error.issues = error.issues;
    const headers = UnavailableError.isInstance(error) ? { 'retry-after': String(error.retryAfterSeconds) } : {};
    return { status: STATUS_BY_CODE[error.code] ?? statusByClass(error), body, headers, unexpected: false };
  }
  return {
    status: 500,
    body: errorBody(
      'internal_error',
      'The server failed while handling this request.',
      'This is a bug in agentctx or in the agent’s code; the server log has the details.',
    ),
    headers: {},
    unexpected: true,
  };
}

// Codes added later still land right by their class (a new kind of conflict is still a 409).
function statusByClass(error: AgentctxError): number {
  if (error instanceof ConflictError) return 409;
  if (error instanceof NotFoundError) return 404;
  if (error instanceof ValidationError) return 400;
  if (error instanceof UnavailableError) return 503;
  return 500;
}

export function errorBody(code: string, message: string, hint?: string): ErrorBody {
  return { error: { code, message, ...(hint === undefined ? {} : { hint }) } };
}

/** Writes a JSON response (or an empty 204) with its length. */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (status === 204) {
    res.writeHead(204, headers);
    res.end();
    return;
  }
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  res.end(text);
}
