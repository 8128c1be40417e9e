/**
 * @module agentctx/telemetry
 * OpenTelemetry traces of runs: an `invocation` span per user message, `invoke_agent <agent>` per agent run,
 * `chat <model>` per model call (the GenAI semantic conventions: model, tokens in, out and cached, system
 * instructions, input and output messages, tool definitions, finish reasons; and agentctx's: the call's number,
 * where each piece of the request came from, cache tokens, cost) and `execute_tool <tool>` per tool call. Runners
 * send them through `@opentelemetry/api` by default; nothing is recorded until the application registers an SDK.
 */
export { openTelemetry } from './open-telemetry.js';
export type { OpenTelemetryOptions } from './open-telemetry.js';
export type { Telemetry, TelemetrySpan } from '../contracts/telemetry.js';
