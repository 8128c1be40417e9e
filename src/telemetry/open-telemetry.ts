import { context, SpanStatusCode, trace, type Span, type TracerProvider } from '@opentelemetry/api';
import type { Telemetry, TelemetrySpan } from '../contracts/telemetry.js';

/** The instrumentation scope of agentctx's spans. */
export const TRACER_NAME = 'agentctx';

export type OpenTelemetryOptions = {
  /** Where spans go; the provider registered globally (`trace.setGlobalTracerProvider`, or an SDK's `register()`) when absent. */
  tracerProvider?: TracerProvider | undefined;
};

// The OpenTelemetry span behind one of ours, so a child can name its parent.
const SPANS = new WeakMap<TelemetrySpan, Span>();

/**
 * Sends the runner's spans through `@opentelemetry/api`: `invocation`, `invoke_agent <agent>`, `chat <model>` and
 * `execute_tool <tool>`, nested, with the GenAI semantic-convention attributes and agentctx's own. The application
 * brings the SDK and its exporter; until one is registered, the API records nothing and no attribute is built. An
 * invocation's span starts under whatever span is active where `runner.run` is iterated.
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Telemetry {
  // Looked up at each span, so an SDK registered after the runner was made is used.
  const tracer = () => (options.tracerProvider ?? trace.getTracerProvider()).getTracer(TRACER_NAME);
  return {
    startSpan(name, parent) {
      const parentSpan = parent === undefined ? undefined : SPANS.get(parent);
      const where = parentSpan === undefined ? context.active() : trace.setSpan(context.active(), parentSpan);
      const span = tracer().startSpan(name, {}, where);
      const ours: TelemetrySpan = {
        recording: span.isRecording(),
        setAttributes: (attributes) =>
          void span.setAttributes(attributes as Record<string, string | number | boolean | string[] | number[]>),
        fail: (error) => {
          if (error instanceof Error) span.recordException(error);
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: error instanceof Error ? error.message : String(error),
          });
        },
        end: () => span.end(),
      };
      SPANS.set(ours, span);
      return ours;
    },
  };
}
