/** A span attribute's value, as OpenTelemetry takes it: never null. */
export type SpanAttributeValue = string | number | boolean | readonly string[] | readonly number[];
export type SpanAttributes = Record<string, SpanAttributeValue>;

/** One span while it is open. */
export type TelemetrySpan = {
  /** False for a span nobody records (no SDK installed, or not sampled): costly attributes are then not built. */
  readonly recording: boolean;
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span failed, with the error. */
  fail(error: unknown): void;
  end(): void;
};

/**
 * Where the runner's spans go: an invocation, each agent run in it, each model call and each tool call, nested.
 * `openTelemetry()` (`agentctx/telemetry`, the default) sends them through `@opentelemetry/api`, which records nothing
 * until the application registers an SDK.
 */
export type Telemetry = {
  /** Starts a span under `parent` (or under whatever span is active, for the invocation's own). */
  startSpan(name: string, parent: TelemetrySpan | undefined): TelemetrySpan;
};
