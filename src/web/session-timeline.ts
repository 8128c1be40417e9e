import type { Event } from '../contracts/event.js';
import type { ModelCallSummary } from '../contracts/model-call.js';
import { pausedCalls } from '../engine/runner/paused-calls.js';
import { scopeOfKey, type StateScope } from '../engine/state/state-keys.js';
import { nestCalls, type ModelCallItem } from './timeline-nesting.js';
import { orderByTime } from './timeline-order.js';

/** One thing that happened in a session, as the timeline lists it. */
export type TimelineItem =
  | {
      type: 'message';
      eventId: string;
      author: string;
      timestamp: number;
      role: string;
      text: string;
      thought: boolean;
    }
  | {
      type: 'tool-call';
      eventId: string;
      author: string;
      timestamp: number;
      name: string;
      callId: string | null;
      args: string;
      /** A call whose answer comes from the client (a long-running tool's, a confirmation request): still waiting, or answered. */
      person?: 'waiting' | 'answered';
    }
  | {
      type: 'tool-result';
      eventId: string;
      author: string;
      timestamp: number;
      name: string;
      callId: string | null;
      response: string;
    }
  | { type: 'data'; eventId: string; author: string; timestamp: number; text: string }
  | {
      type: 'state';
      eventId: string;
      author: string;
      timestamp: number;
      key: string;
      scope: StateScope;
      value: string;
      operation?: string;
    }
  | { type: 'artifact'; eventId: string; author: string; timestamp: number; name: string; version: number }
  | { type: 'transfer'; eventId: string; author: string; timestamp: number; to: string }
  | { type: 'escalate'; eventId: string; author: string; timestamp: number }
  | {
      type: 'compaction';
      eventId: string;
      author: string;
      timestamp: number;
      startTimestamp: number;
      endTimestamp: number;
      eventIds: string[];
      summary: string;
    }
  | { type: 'error'; eventId: string; author: string; timestamp: number; code: string; message: string }
  | ModelCallItem;

/** The items of one invocation (a user turn and everything it caused), in the order they happened. */
export type InvocationView = { invocationId: string; start: number; items: TimelineItem[] };

/**
 * The session's history as invocations of items: messages, tool calls and results, state changes with their scope,
 * artifacts, transfers, escalations, compactions, errors, and the recorded model calls placed among the events by time,
 * those made inside a tool call (agent tools) nested under it.
 */
export function buildTimeline(events: readonly Event[], calls: readonly ModelCallSummary[]): InvocationView[] {
  const invocations = new Map<string, InvocationView>();
  const at = (invocationId: string, timestamp: number): InvocationView => {
    let invocation = invocations.get(invocationId);
    if (invocation === undefined)
      invocations.set(invocationId, (invocation = { invocationId, start: timestamp, items: [] }));
    return invocation;
  };
  // A call comes just before the event that carried its answer; one whose answer is not among the events (it failed,
  // or the window left it out) is placed by its time.
  const answered = new Map<string, ModelCallSummary[]>();
  const eventIds = new Set(events.map((event) => event.id));
  const timed: ({ call: ModelCallSummary } | { event: Event })[] = events.map((event) => ({ event }));
  const nested: ModelCallItem[] = [];
  for (const call of calls) {
    if (call.parent !== undefined) nested.push(callItem(call));
    else if (call.responseEventId !== undefined && eventIds.has(call.responseEventId))
      answered.set(call.responseEventId, [...(answered.get(call.responseEventId) ?? []), call]);
    else timed.push({ call });
  }
  const time = (entry: (typeof timed)[number]) => ('call' in entry ? entry.call.timestamp : entry.event.timestamp);
  const order = new Map(timed.map((entry, position) => [entry, position]));
  timed.sort((a, b) => time(a) - time(b) || (order.get(a) ?? 0) - (order.get(b) ?? 0));
  const addCall = (call: ModelCallSummary) => at(call.invocationId, call.timestamp).items.push(callItem(call));
  for (const entry of timed) {
    if ('call' in entry) {
      addCall(entry.call);
      continue;
    }
    for (const call of answered.get(entry.event.id) ?? []) addCall(call);
    at(entry.event.invocationId, entry.event.timestamp).items.push(...eventItems(entry.event));
  }
  const list = [...invocations.values()];
  const waiting = new Set(pausedCalls(events).map((paused) => paused.call.id));
  for (const invocation of list)
    for (const item of invocation.items)
      if (item.type === 'tool-call' && item.person !== undefined && item.callId !== null)
        item.person = waiting.has(item.callId) ? 'waiting' : 'answered';
  nestCalls(list, nested, (call) => {
    const invocation = at(call.invocationId, call.timestamp);
    list.push(invocation);
    return invocation;
  });
  // A call is placed before the event that carried its answer, which a clock's skew can put out of time order.
  for (const invocation of list) {
    invocation.items = orderByTime(invocation.items);
    invocation.start = invocation.items.reduce((start, item) => Math.min(start, item.timestamp), invocation.start);
  }
  return list.sort((a, b) => a.start - b.start);
}

function callItem(call: ModelCallSummary): ModelCallItem {
  return {
    type: 'model-call',
    index: call.index,
    agent: call.agent,
    invocationId: call.invocationId,
    timestamp: call.timestamp,
    responseEventId: call.responseEventId ?? null,
    promptTokens: call.usage?.promptTokens ?? null,
    outputTokens: call.usage?.outputTokens ?? null,
    requestChars: call.requestChars,
    status: call.status,
    latencyMs: call.latencyMs ?? null,
    firstTokenMs: call.firstTokenMs ?? null,
    model: call.model === undefined ? null : `${call.model.provider}/${call.model.modelId}`,
    error: call.error ?? null,
    parent: call.parent ?? null,
    depth: 0,
  };
}

function eventItems(event: Event): TimelineItem[] {
  const base = { eventId: event.id, author: event.author, timestamp: event.timestamp };
  const items: TimelineItem[] = [];
  for (const part of event.content?.parts ?? []) {
    if ('text' in part)
      items.push({
        ...base,
        type: 'message',
        role: event.content?.role ?? '',
        text: part.text,
        thought: part.thought === true,
      });
    else if ('functionCall' in part)
      items.push({
        ...base,
        type: 'tool-call',
        name: part.functionCall.name,
        callId: part.functionCall.id ?? null,
        args: JSON.stringify(part.functionCall.args ?? {}, null, 2),
        ...((event.longRunningToolIds ?? []).includes(part.functionCall.id ?? '')
          ? { person: 'answered' as const }
          : {}),
      });
    else if ('functionResponse' in part)
      items.push({
        ...base,
        type: 'tool-result',
        name: part.functionResponse.name,
        callId: part.functionResponse.id ?? null,
        response: JSON.stringify(part.functionResponse.response ?? {}, null, 2),
      });
    else if ('inlineData' in part)
      items.push({
        ...base,
        type: 'data',
        text: `${part.inlineData.displayName ?? 'inline data'} (${part.inlineData.mimeType})`,
      });
    else if ('fileData' in part)
      items.push({
        ...base,
        type: 'data',
        text: `${part.fileData.displayName ?? part.fileData.fileUri} (${part.fileData.mimeType ?? 'file'})`,
      });
    else if ('executableCode' in part) items.push({ ...base, type: 'data', text: part.executableCode.code });
    else
      items.push({ ...base, type: 'data', text: part.codeExecutionResult.output ?? part.codeExecutionResult.outcome });
  }
  for (const [key, value] of Object.entries(event.actions.stateDelta)) {
    items.push({ ...base, type: 'state', key, scope: scopeOfKey(key), value: showValue(value) });
  }
  // An operation shows what it does, not a value: `user:turns += 1`, `user:log append ["x"]`.
  for (const op of event.actions.stateOps ?? []) {
    const [operation, value] =
      op.op === 'add'
        ? [op.by < 0 ? '-=' : '+=', Math.abs(op.by)]
        : op.op === 'setField'
          ? [`.${op.field} =`, op.value]
          : [op.op, op.items];
    items.push({ ...base, type: 'state', key: op.key, scope: scopeOfKey(op.key), value: showValue(value), operation });
  }
  for (const [name, version] of Object.entries(event.actions.artifactDelta))
    items.push({ ...base, type: 'artifact', name, version });
  if (event.actions.transferToAgent !== undefined)
    items.push({ ...base, type: 'transfer', to: event.actions.transferToAgent });
  if (event.actions.escalate === true) items.push({ ...base, type: 'escalate' });
  const compaction = event.actions.compaction;
  if (compaction !== undefined) {
    items.push({
      ...base,
      type: 'compaction',
      startTimestamp: compaction.startTimestamp,
      endTimestamp: compaction.endTimestamp,
      eventIds: [...(compaction.eventIds ?? [])],
      summary: compaction.compactedContent.parts.map((part) => ('text' in part ? part.text : '')).join(''),
    });
  }
  if (event.errorCode !== undefined || event.errorMessage !== undefined)
    items.push({ ...base, type: 'error', code: event.errorCode ?? '', message: event.errorMessage ?? '' });
  return items;
}

/** A state value as text: strings as they are, anything else as JSON. */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return value;
  const json = JSON.stringify(value, null, 2) as string | undefined;
  return json ?? String(value);
}
