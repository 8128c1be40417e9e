const marker = Symbol.for('agentctx.error');

/** Machine-readable reason for an error; stable across releases. */
export type AgentctxErrorCode =
  | 'invalid_input'
  | 'unsupported_version'
  | 'missing_state_key'
  | 'missing_artifact'
  | 'artifact_store_missing'
  | 'artifact_not_text'
  | 'not_found'
  | 'already_exists'
  | 'stale_session'
  | 'stale_shared_state'
  | 'processor_failed'
  | 'extension_failed'
  | 'model_error'
  | 'missing_credentials'
  | 'invalid_history'
  | 'usage';

export type AgentctxErrorOptions = {
  code: AgentctxErrorCode;
  message: string;
  /** What the caller can do about it, in one sentence. */
  hint?: string | undefined;
  cause?: unknown;
};

/**
 * Base class of every error agentctx throws on purpose.
 * `isInstance` works across duplicate installs of the package, where `instanceof` would not.
 */
export class AgentctxError extends Error {
  readonly code: AgentctxErrorCode;
  readonly hint: string | undefined;

  constructor(options: AgentctxErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    Object.defineProperty(this, marker, { value: true });
    this.name = new.target.name;
    this.code = options.code;
    this.hint = options.hint;
  }

  static isInstance(value: unknown): value is AgentctxError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[marker] === true;
  }

  /** The message and the hint on one line, as the CLI prints it. */
  describe(): string {
    return this.hint === undefined ? this.message : `${this.message} ${this.hint}`;
  }
}
