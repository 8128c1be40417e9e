import type { ModelCallRecord } from '../../contracts/model-call.js';
import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import type { SessionKey } from '../../contracts/session.js';
import type { SpanAttributes } from '../../contracts/telemetry.js';
import type { Runner } from '../../engine/runner/runner.js';
import { NO_MODEL_CALLS } from '../../engine/session/call-log-of.js';
import { defaultCallPricer } from '../../presets/call-pricer.js';
import { modelCallAttributes, modelOutcomeAttributes } from '../../engine/telemetry/genai-attributes.js';
import { toUsageMetadata } from './adk-json.js';
import type { AdkHandler } from './adk-context.js';

/*
 * ADK's trace routes, answered from what agentctx records of every model call: the exact request (system text, tools,
 * messages), the answer, the usage and the time. Spans follow ADK's shape (`name`, hex `span_id` and `trace_id`,
 * `parent_span_id`, nanosecond times, flat `attributes`): an `invocation` per invocation, an `invoke_agent <agent>` per
 * agent in it, and a `call_llm` per model call with the OpenTelemetry GenAI attributes and ADK's own
 * `gcp.vertex.agent.llm_request`/`llm_response`, which the dev UI shows. No attribute is ever null (the UI drops a
 * trace that has one).
 */

export type AdkSpan = {
  name: string;
  span_id: string;
  trace_id: string;
  parent_span_id: string | null;
  start_time: number;
  end_time: number;
  attributes: SpanAttributes;
};

/**
 * `GET /debug/trace/session/{id}` (and under `/dev/apps/{app}`) → the session's spans; `[]` for one not seen. The route
 * names no user: when users of this server each have a session of that id, the spans of all of them are answered,
 * as ADK's exporter, which keeps spans by session id, answers them.
 */
export const adkSessionTrace: AdkHandler = async (context) => {
  const spans: AdkSpan[] = [];
  for (const key of context.seen.withId(context.params['session'] ?? '', context.params['app'])) {
    const runner = context.apps.get(key.appName);
    if (runner !== undefined) spans.push(...sessionSpans(key, await callsOf(runner, key), context.inspectorLink));
  }
  return { status: 200, body: spans };
};

/** `GET /debug/trace/{eventId}` (and under `/dev/apps/{app}`) → the attributes of the model call that event answered. */
export const adkEventTrace: AdkHandler = async (context) => {
  const eventId = context.params['event'] ?? '';
  for (const key of context.seen.all()) {
    const runner = context.apps.get(key.appName);
    if (runner === undefined) continue;
    for (const span of sessionSpans(key, await callsOf(runner, key), context.inspectorLink)) {
      if (span.name === 'call_llm' && span.attributes['gcp.vertex.agent.event_id'] === eventId)
        return { status: 200, body: { ...span.attributes, trace_id: span.trace_id, span_id: span.span_id } };
    }
  }
  throw new NotFoundError({
    resource: 'trace',
    id: eventId,
    message: 'Trace not found',
    hint: `No recorded model call answered event ${eventId} in the sessions this server has served.`,
  });
};

async function callsOf(runner: Runner, key: SessionKey): Promise<ModelCallRecord[]> {
  const log = runner.calls ?? NO_MODEL_CALLS;
  const summaries = await log.listModelCalls(key);
  const records = await Promise.all(summaries.map((summary) => log.getModelCall({ ...key, index: summary.index })));
  return records.filter((record): record is ModelCallRecord => record !== undefined);
}

/** The spans of a session's recorded calls, parents before children, in the order the calls were made. */
export function sessionSpans(
  key: SessionKey,
  calls: readonly ModelCallRecord[],
  inspectorLink?: (key: SessionKey, call: number) => string,
): AdkSpan[] {
  const spans: AdkSpan[] = [];
  const invocations = new Map<string, AdkSpan>();
  const agents = new Map<string, AdkSpan>();
  for (const call of calls) {
    const start = nanoseconds(call.timestamp);
    const end = start + Math.round((call.latencyMs ?? 0) * 1e6);
    const traceId = hexId(`trace\u0000${key.sessionId}\u0000${call.invocationId}`, 32);
    let invocation = invocations.get(call.invocationId);
    if (invocation === undefined) {
      invocation = {
        name: 'invocation',
        span_id: hexId(`invocation\u0000${key.sessionId}\u0000${call.invocationId}`, 16),
        trace_id: traceId,
        parent_span_id: null,
        start_time: start,
        end_time: end,
        attributes: { 'gcp.vertex.agent.invocation_id': call.invocationId, 'gen_ai.conversation.id': key.sessionId },
      };
      invocations.set(call.invocationId, invocation);
      spans.push(invocation);
    }
    const agentKey = `${call.invocationId}\u0000${call.agent}`;
    let agent = agents.get(agentKey);
    if (agent === undefined) {
      agent = {
        name: `invoke_agent ${call.agent}`,
        span_id: hexId(`agent\u0000${key.sessionId}\u0000${agentKey}`, 16),
        trace_id: traceId,
        parent_span_id: invocation.span_id,
        start_time: start,
        end_time: end,
        attributes: {
          'gen_ai.operation.name': 'invoke_agent',
          'gen_ai.agent.name': call.agent,
          'gen_ai.conversation.id': key.sessionId,
          'gcp.vertex.agent.invocation_id': call.invocationId,
        },
      };
      agents.set(agentKey, agent);
      spans.push(agent);
    }
    invocation.end_time = Math.max(invocation.end_time, end);
    agent.end_time = Math.max(agent.end_time, end);
    const attributes = callAttributes(key, call);
    if (inspectorLink !== undefined) attributes['agentctx.inspector'] = inspectorLink(key, call.index);
    spans.push({
      name: 'call_llm',
      span_id: hexId(`call\u0000${key.sessionId}\u0000${call.index}`, 16),
      trace_id: traceId,
      parent_span_id: agent.span_id,
      start_time: start,
      end_time: end,
      attributes,
    });
  }
  return spans;
}

// The attributes agentctx's OpenTelemetry spans carry (the same builders), and ADK's own, which its dev UI reads.
function callAttributes(key: SessionKey, call: ModelCallRecord): AdkSpan['attributes'] {
  const { request, response, usage } = call;
  const ended =
    call.status === 'pending' ? undefined : { ...call, status: call.status, latencyMs: call.latencyMs ?? 0 };
  return {
    ...modelCallAttributes(call, key, call.index),
    ...(ended === undefined
      ? { 'agentctx.call.status': 'pending' }
      : modelOutcomeAttributes(call.model, ended, defaultCallPricer)),
    'gen_ai.system': call.model?.provider ?? 'agentctx',
    'gcp.vertex.agent.invocation_id': call.invocationId,
    'gcp.vertex.agent.session_id': key.sessionId,
    // A call whose answer never became an event (it failed, or is still pending) is still shown, under its number.
    'gcp.vertex.agent.event_id': call.responseEventId ?? `call-${call.index}`,
    'gcp.vertex.agent.llm_request': JSON.stringify({
      model: call.model?.modelId ?? request.config.model ?? 'unknown',
      contents: request.messages.map((message) => ({ role: message.role, parts: message.content })),
      config: {
        ...(request.system === '' ? {} : { systemInstruction: request.system }),
        ...(request.tools.length === 0 ? {} : { tools: [{ functionDeclarations: request.tools }] }),
      },
    }),
    'gcp.vertex.agent.llm_response': JSON.stringify({
      ...(response ?? {}),
      ...(usage === undefined ? {} : { usageMetadata: toUsageMetadata(usage) }),
    }),
  };
}

function nanoseconds(seconds: number): number {
  return Math.round(seconds * 1e6) * 1e3;
}

// Ids the same on every request for the same call (FNV-1a, 64 bits per 16 hex digits), so a trace can be re-read.
function hexId(text: string, digits: 16 | 32): string {
  let out = '';
  for (let round = 0; out.length < digits; round++) {
    let hash = 0xcbf29ce484222325n ^ BigInt(round);
    for (let index = 0; index < text.length; index++) {
      hash ^= BigInt(text.charCodeAt(index));
      hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
    }
    out += hash.toString(16).padStart(16, '0');
  }
  return out.slice(0, digits);
}
