import type { Part } from '../../contracts/content.js';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import type { Source } from '../../contracts/source.js';
import { pythonRepr } from '../../engine/python/python-format.js';
import {
  functionCalls,
  functionResponses,
  hasFunctionCall,
  hasFunctionResponse,
  withParts,
  type WorkEvent,
} from './work-event.js';

/** The history cannot be turned into a valid conversation (ADK raises `ValueError` with these messages). */
function invalidHistory(message: string): AgentctxError {
  return new AgentctxError({
    code: 'invalid_history',
    message,
    hint: 'Every function response must follow the function call it answers; check the events of the session.',
  });
}

// Python prints these as sets; sorted so the message does not depend on hash order.
function setRepr(ids: Iterable<string | undefined>): string {
  return `{${[...new Set(ids)]
    .map((id) => pythonRepr(id ?? null))
    .sort()
    .join(', ')}}`;
}

/**
 * When the latest event answers calls made earlier than the event just before it (a long-running tool finishing),
 * everything between the call and the end is folded into one response right after the call.
 */
export function rearrangeLatestResponse(events: WorkEvent[]): WorkEvent[] {
  const last = events.at(-1);
  if (events.length < 2 || last === undefined || !hasFunctionResponse(last)) return events;
  let responseIds = new Set(functionResponses(last).map((response) => response.id));
  const previous = events[events.length - 2] as WorkEvent;
  if (functionCalls(previous).some((call) => responseIds.has(call.id))) return events;

  let callIndex = -1;
  for (let index = events.length - 2; index >= 0 && callIndex === -1; index--) {
    const calls = functionCalls(events[index] as WorkEvent);
    if (!calls.some((call) => responseIds.has(call.id))) continue;
    callIndex = index;
    const callIds = new Set(calls.map((call) => call.id));
    if (![...responseIds].every((id) => callIds.has(id))) {
      throw invalidHistory(
        `Last response event should only contain the responses for the function calls in the same function call event. Function call ids found : ${setRepr(callIds)}, function response ids provided: ${setRepr(responseIds)}`,
      );
    }
    responseIds = callIds;
  }
  if (callIndex === -1)
    throw invalidHistory(`No function call event found for function responses ids: ${setRepr(responseIds)}`);

  const responseEvents = events
    .slice(callIndex + 1, -1)
    .filter((event) => functionResponses(event).some((response) => responseIds.has(response.id)));
  responseEvents.push(last);
  return [...events.slice(0, callIndex + 1), mergeResponseEvents(responseEvents)];
}

/** Places each call's (latest) response right after it; responses elsewhere and intermediate ones disappear. */
export function rearrangeAsyncResponses(events: readonly WorkEvent[]): WorkEvent[] {
  const lastResponseIndex = new Map<string | undefined, number>();
  events.forEach((event, index) => {
    for (const response of functionResponses(event)) lastResponseIndex.set(response.id, index);
  });
  const result: WorkEvent[] = [];
  for (const event of events) {
    if (hasFunctionResponse(event)) continue;
    result.push(event);
    // Stryker disable next-line ConditionalExpression: a shortcut; an event without calls finds no response below and continues there
    if (!hasFunctionCall(event)) continue;
    const indices = new Set<number>();
    for (const call of functionCalls(event)) {
      const index = lastResponseIndex.get(call.id);
      if (index !== undefined) indices.add(index);
    }
    if (indices.size === 0) continue;
    const ordered = [...indices].sort((a, b) => a - b).map((index) => events[index] as WorkEvent);
    result.push(ordered.length === 1 ? (ordered[0] as WorkEvent) : mergeResponseEvents(ordered));
  }
  return result;
}

/** One event from several response events: a later response replaces the one with its id in place, other parts append. */
export function mergeResponseEvents(events: readonly WorkEvent[]): WorkEvent {
  const first = events[0];
  if (first === undefined) throw invalidHistory('At least one function_response event is required.');
  if (first.parts.length === 0) throw invalidHistory('There should be at least one function_response part.');
  const parts: Part[] = [...first.parts];
  const sources: Source[] = [...first.sources];
  const positions = new Map<string | undefined, number>();
  parts.forEach((part, index) => {
    if ('functionResponse' in part) positions.set(part.functionResponse.id, index);
  });
  for (const event of events.slice(1)) {
    if (event.parts.length === 0) throw invalidHistory('There should be at least one function_response part.');
    event.parts.forEach((part, index) => {
      const source = event.sources[index] as Source;
      const position = 'functionResponse' in part ? positions.get(part.functionResponse.id) : undefined;
      if (position !== undefined) {
        parts[position] = part;
        sources[position] = source;
        return;
      }
      parts.push(part);
      sources.push(source);
      if ('functionResponse' in part) positions.set(part.functionResponse.id, parts.length - 1);
    });
  }
  return withParts(first, parts, sources);
}
