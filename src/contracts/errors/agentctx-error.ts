const PREFIX = 'agentctx.error.';
// What releases before per-class markers put on every AgentctxError; still set and read, so they and this one
// recognise each other's errors as AgentctxErrors.
const LEGACY_MARKER = Symbol.for('agentctx.error');

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
  | 'mcp_error'
  | 'store_unavailable'
  | 'missing_credentials'
  | 'missing_package'
  | 'invalid_history'
  | 'usage';

export type AgentctxErrorOptions = {
  code: AgentctxErrorCode;
  message: string;
  /** What the caller can do about it, in one sentence. */
  hint?: string | undefined;
  cause?: unknown;
};

/** Any constructor of AgentctxError or of a subclass, as `isInstance` and `instanceof` see it. */
export type AgentctxErrorClass = abstract new (...args: never[]) => AgentctxError;

/**
 * Base class of every error agentctx throws on purpose.
 *
 * Two installs of the package (a library bundling its own copy, say) have two copies of each class, and plain
 * `instanceof` would fail between them. So every instance carries one marker per class of its chain
 * (`Symbol.for('agentctx.error.<errorName>')`), and both `X.isInstance(value)` and `value instanceof X` check for
 * X's marker: an error made by any copy passes for its own class and every class above it, never for a subclass.
 */
export class AgentctxError extends Error {
  /** The class's name in its marker and in `name`; each subclass sets its own (class names do not survive minifiers). */
  static readonly errorName: string = 'AgentctxError';

  readonly code: AgentctxErrorCode;
  readonly hint: string | undefined;

  constructor(options: AgentctxErrorOptions) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    for (let type: AgentctxErrorClass = new.target; ; type = Object.getPrototypeOf(type) as AgentctxErrorClass) {
      Object.defineProperty(this, markerOf(type), { value: true });
      if (type === AgentctxError) break;
    }
    Object.defineProperty(this, LEGACY_MARKER, { value: true });
    this.name = nameOf(new.target);
    this.code = options.code;
    this.hint = options.hint;
  }

  /** True for an instance of this class (or a subclass) made by any copy of agentctx. */
  static isInstance<T extends AgentctxErrorClass>(this: T, value: unknown): value is InstanceType<T> {
    if (typeof value !== 'object' || value === null) return false;
    const marks = value as Record<symbol, unknown>;
    if (marks[markerOf(this)] === true) return true;
    return (this as AgentctxErrorClass) === AgentctxError && marks[LEGACY_MARKER] === true;
  }

  static override [Symbol.hasInstance]<T extends AgentctxErrorClass>(
    this: T,
    value: unknown,
  ): value is InstanceType<T> {
    return AgentctxError.isInstance.call(this, value);
  }

  /** The message and the hint on one line, as the CLI prints it: two sentences, so the message ends with a stop. */
  describe(): string {
    if (this.hint === undefined) return this.message;
    return `${this.message}${/[.!?:]$/.test(this.message) ? '' : '.'} ${this.hint}`;
  }
}

// A subclass written outside agentctx that sets no errorName of its own is known by its class name instead of
// borrowing its parent's marker (which would let it accept the parent's instances).
function nameOf(type: AgentctxErrorClass): string {
  return Object.hasOwn(type, 'errorName') ? (type as unknown as typeof AgentctxError).errorName : type.name;
}

function markerOf(type: AgentctxErrorClass): symbol {
  return Symbol.for(`${PREFIX}${nameOf(type)}`);
}
