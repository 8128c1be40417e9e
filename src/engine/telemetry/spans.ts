import type { SpanAttributes, Telemetry, TelemetrySpan } from '../../contracts/telemetry.js';

/** A span that records nothing: where no telemetry is configured. */
export const NO_SPAN: TelemetrySpan = Object.freeze({
  recording: false,
  setAttributes: () => undefined,
  fail: () => undefined,
  end: () => undefined,
});

/**
 * Starts a span, with its attributes built only when it records (the GenAI attributes of a model call serialize the
 * whole request, which a span nobody records must not pay for). Never throws: telemetry must not stop a run.
 */
export function openSpan(
  telemetry: Telemetry | undefined,
  name: string,
  parent: TelemetrySpan | undefined,
  attributes: () => SpanAttributes,
): TelemetrySpan {
  if (telemetry === undefined) return NO_SPAN;
  try {
    const span = telemetry.startSpan(name, parent === NO_SPAN ? undefined : parent);
    if (span.recording) span.setAttributes(attributes());
    return span;
  } catch {
    return NO_SPAN;
  }
}

/** Adds attributes to a recording span, built only then. */
export function addAttributes(span: TelemetrySpan, attributes: () => SpanAttributes): void {
  if (!span.recording) return;
  try {
    span.setAttributes(attributes());
  } catch {
    // An attribute that cannot be built is left out; the run goes on.
  }
}
