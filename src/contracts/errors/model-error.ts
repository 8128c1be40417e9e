import { AgentctxError } from './agentctx-error.js';

export type ModelErrorOptions = {
  /** `google`, `openai`, `anthropic`, `openai-compatible`, … */
  provider: string;
  /** What went wrong, in the provider's words where it gave any. */
  message: string;
  /** HTTP status, when the provider answered. */
  status?: number | undefined;
  /** Worth trying again: rate limits, server errors, timeouts, lost connections. */
  retryable: boolean;
  /** Seconds the provider asked to wait before retrying. */
  retryAfterSeconds?: number | undefined;
  hint?: string | undefined;
  cause?: unknown;
};

/** A model call that failed: the provider refused it, could not be reached, or took too long. */
export class ModelError extends AgentctxError {
  static override readonly errorName: string = 'ModelError';

  readonly provider: string;
  /** The `message` option as given, before `message` put the provider and status in front of it. */
  readonly providerMessage: string;
  readonly status: number | undefined;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | undefined;

  constructor(options: ModelErrorOptions) {
    super({
      code: 'model_error',
      message: `${options.provider}${options.status === undefined ? '' : ` ${options.status}`}: ${options.message}`,
      hint: options.hint,
      cause: options.cause,
    });
    this.provider = options.provider;
    this.providerMessage = options.message;
    this.status = options.status;
    this.retryable = options.retryable;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Rate limits, overload and server errors pass; other client errors (bad request, auth) will fail again. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}
