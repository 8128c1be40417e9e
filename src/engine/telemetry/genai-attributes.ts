import type { Part } from '../../contracts/content.js';
import type { Usage } from '../../contracts/event.js';
import type { ModelCallOutcome, NewModelCall } from '../../contracts/model-call.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { Message, ToolDeclaration } from '../../contracts/request.js';
import type { SessionKey } from '../../contracts/session.js';
import type { SpanAttributes } from '../../contracts/telemetry.js';
import { referencedDeferredTools } from '../tools/deferred-tools.js';

/*
 * Span attributes in OpenTelemetry's GenAI semantic conventions (`gen_ai.*`: operation, provider, model, tokens,
 * system instructions, input and output messages as JSON, tool definitions, finish reasons), and agentctx's own
 * (`agentctx.*`: the call's number in the session, where each piece of the request came from, cache tokens, cost).
 */

/** A model call as it starts: what was asked of which model, for which agent and session. */
export function modelCallAttributes(
  call: Omit<NewModelCall, 'timestamp' | 'status' | 'parent'>,
  key: SessionKey,
  index: number | undefined,
): SpanAttributes {
  const { request } = call;
  const tools = [...request.tools, ...referencedDeferredTools(request)];
  const attributes: SpanAttributes = {
    'gen_ai.operation.name': call.operation ?? 'chat',
    'gen_ai.provider.name': call.model?.provider ?? 'unknown',
    'gen_ai.request.model': call.model?.modelId ?? request.config.model ?? 'unknown',
    'gen_ai.conversation.id': key.sessionId,
    'gen_ai.agent.name': call.agent,
    'gen_ai.input.messages': JSON.stringify(request.messages.map(toSemconvMessage)),
    'agentctx.app': key.appName,
    'agentctx.invocation.id': call.invocationId,
    // No index for a call recorded nowhere (a runner with no call log).
    ...(index === undefined ? {} : { 'agentctx.call.index': index }),
    'agentctx.request.edited_by_callback': call.editedByCallback,
    'agentctx.provenance': JSON.stringify(provenanceSummary(call.provenance)),
  };
  if (request.system !== '')
    attributes['gen_ai.system_instructions'] = JSON.stringify([{ type: 'text', content: request.system }]);
  if (tools.length > 0) attributes['gen_ai.tool.definitions'] = JSON.stringify(tools.map(toSemconvTool));
  if (request.deferredTools !== undefined)
    attributes['agentctx.request.deferred_tools'] = request.deferredTools.declarations.length;
  const { temperature, topP, topK, maxOutputTokens, stopSequences } = request.config;
  if (temperature !== undefined) attributes['gen_ai.request.temperature'] = temperature;
  if (topP !== undefined) attributes['gen_ai.request.top_p'] = topP;
  if (topK !== undefined) attributes['gen_ai.request.top_k'] = topK;
  if (maxOutputTokens !== undefined) attributes['gen_ai.request.max_tokens'] = maxOutputTokens;
  if (stopSequences !== undefined && stopSequences.length > 0)
    attributes['gen_ai.request.stop_sequences'] = stopSequences;
  const { seed, presencePenalty, frequencyPenalty, candidateCount } = request.config;
  if (seed !== undefined) attributes['gen_ai.request.seed'] = seed;
  if (presencePenalty !== undefined) attributes['gen_ai.request.presence_penalty'] = presencePenalty;
  if (frequencyPenalty !== undefined) attributes['gen_ai.request.frequency_penalty'] = frequencyPenalty;
  if (candidateCount !== undefined) attributes['gen_ai.request.choice.count'] = candidateCount;
  return attributes;
}

/**
 * What a call cost in USD, from its model and usage; `undefined` when the price is not known. Given by whoever
 * composes the runner (the preset's is the built-in price table), so the engine holds no prices of its own.
 */
export type CallPricer = (model: { provider: string; modelId: string } | undefined, usage: Usage) => number | undefined;

/** How the call ended: its answer, tokens (cached ones too), cost under `price` when given, status and times. */
export function modelOutcomeAttributes(
  model: { provider: string; modelId: string } | undefined,
  outcome: ModelCallOutcome,
  price?: CallPricer,
): SpanAttributes {
  const attributes: SpanAttributes = {
    'agentctx.call.status': outcome.status,
    'agentctx.call.latency_ms': outcome.latencyMs,
  };
  const { response, usage } = outcome;
  if (outcome.firstTokenMs !== undefined) attributes['agentctx.call.first_token_ms'] = outcome.firstTokenMs;
  if (response?.finishReason !== undefined) attributes['gen_ai.response.finish_reasons'] = [response.finishReason];
  if (response?.content !== undefined) {
    const message = toSemconvMessage({ role: response.content.role, content: response.content.parts });
    attributes['gen_ai.output.messages'] = JSON.stringify([
      { ...message, ...(response.finishReason === undefined ? {} : { finish_reason: response.finishReason }) },
    ]);
  }
  if (usage?.promptTokens !== undefined) attributes['gen_ai.usage.input_tokens'] = usage.promptTokens;
  if (usage?.outputTokens !== undefined) attributes['gen_ai.usage.output_tokens'] = usage.outputTokens;
  if (usage?.cachedTokens !== undefined) {
    attributes['gen_ai.usage.cache_read.input_tokens'] = usage.cachedTokens;
    attributes['agentctx.usage.cache_read_tokens'] = usage.cachedTokens;
  }
  if (usage?.cacheWriteTokens !== undefined) {
    attributes['gen_ai.usage.cache_creation.input_tokens'] = usage.cacheWriteTokens;
    attributes['agentctx.usage.cache_write_tokens'] = usage.cacheWriteTokens;
  }
  if (usage?.reasoningTokens !== undefined) attributes['agentctx.usage.reasoning_tokens'] = usage.reasoningTokens;
  const usd = usage === undefined ? undefined : price?.(model, usage);
  if (usd !== undefined) attributes['agentctx.cost.usd'] = usd;
  if (outcome.error !== undefined) attributes['error.type'] = outcome.status;
  if (response?.errorCode !== undefined) attributes['error.type'] = response.errorCode;
  return attributes;
}

/** A message in the conventions' JSON form: `role` (`assistant` for the model's, `tool` for tool results) and typed parts. */
export function toSemconvMessage(message: Message): { role: string; parts: Record<string, unknown>[] } {
  const parts = message.content.map(toSemconvPart);
  const allResults = message.content.length > 0 && message.content.every((part) => 'functionResponse' in part);
  return { role: message.role === 'model' ? 'assistant' : allResults ? 'tool' : 'user', parts };
}

function toSemconvPart(part: Part): Record<string, unknown> {
  if ('text' in part) return { type: part.thought === true ? 'reasoning' : 'text', content: part.text };
  if ('functionCall' in part)
    return {
      type: 'tool_call',
      ...(part.functionCall.id === undefined ? {} : { id: part.functionCall.id }),
      name: part.functionCall.name,
      arguments: part.functionCall.args ?? {},
    };
  if ('functionResponse' in part)
    return {
      type: 'tool_call_response',
      ...(part.functionResponse.id === undefined ? {} : { id: part.functionResponse.id }),
      response: part.functionResponse.response ?? {},
    };
  // Inline bytes are named with their size, not copied into the span.
  if ('inlineData' in part)
    return {
      type: 'blob',
      mime_type: part.inlineData.mimeType,
      size: Math.floor((part.inlineData.data.length * 3) / 4),
    };
  if ('fileData' in part)
    return {
      type: 'uri',
      uri: part.fileData.fileUri,
      ...(part.fileData.mimeType === undefined ? {} : { mime_type: part.fileData.mimeType }),
    };
  if ('executableCode' in part) return { type: 'text', content: part.executableCode.code };
  return { type: 'text', content: part.codeExecutionResult.output ?? '' };
}

function toSemconvTool(tool: ToolDeclaration): Record<string, unknown> {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    ...(tool.parameters === undefined ? {} : { parameters: tool.parameters }),
  };
}

/** How many pieces of each kind of source the request holds, per section: `{ system: { instruction: 2 }, tools: { function: 3 }, … }`. */
export function provenanceSummary(provenance: Provenance): Record<string, Record<string, number>> {
  const count = (kinds: readonly string[]) => {
    const counts: Record<string, number> = {};
    for (const kind of kinds) counts[kind] = (counts[kind] ?? 0) + 1;
    return counts;
  };
  return {
    system: count(provenance.system.map((block) => block.source.kind)),
    // A function tool's source names no origin of its own (its kind is plain `tool`).
    tools: count(
      provenance.tools.map((source) => source.tool?.kind ?? (source.kind === 'tool' ? 'function' : source.kind)),
    ),
    messages: count(provenance.messages.flat().map((source) => source.kind)),
  };
}
