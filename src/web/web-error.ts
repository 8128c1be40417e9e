/** An answer other than 200, with a stable code and a sentence saying what to do; the page shows the message. */
export class WebError extends Error {
  readonly status: 400 | 401 | 403 | 404 | 405;
  readonly code: string;
  readonly headers: Record<string, string>;

  constructor(status: WebError['status'], code: string, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'WebError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

/** A positive whole number from a path or query parameter, or a 400 naming the parameter. */
export function parseIndex(value: string | undefined, name: string): number {
  const index = value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (!(index >= 1))
    throw new WebError(400, 'invalid_parameter', `${name} must be a whole number from 1, got '${value ?? ''}'.`);
  return index;
}
