import type { FunctionCall, Part } from '../../contracts/content.js';
import type { Source } from '../../contracts/source.js';
import { INTERRUPTED_CALL_ERROR } from '../../engine/runner/interrupted-calls.js';
import { mergeResponseEvents } from './rearrange.js';
import { CONTENTS_PROCESSOR, withParts, type WorkEvent } from './work-event.js';

/**
 * Gives every call a stopped run left open (no response, nobody asked to answer it, and a later turn of another
 * invocation began) the `interrupted` response the runner stores for it once it is sure the call is not still running
 * in another process, right after the call and merged with the responses its neighbours got: so the request never
 * holds a call without its result, and it reads the same before and after that answer is stored.
 */
export function answerAbandonedCalls(events: readonly WorkEvent[]): WorkEvent[] {
  const answered = new Set<string | undefined>();
  for (const event of events) {
    for (const response of event.responses) answered.add(response.id);
    for (const id of Object.keys(event.actions.requestedToolConfirmations ?? {})) answered.add(id);
    for (const id of Object.keys(event.actions.requestedAuthConfigs ?? {})) answered.add(id);
  }
  const open = (event: WorkEvent) => event.calls.filter((call) => call.id !== undefined && !answered.has(call.id));
  // Stryker disable next-line ConditionalExpression,ArrowFunction: a shortcut; with no open call (or never taking it) the loop below returns the same copy
  if (events.every((event) => open(event).length === 0)) return [...events];
  // Walking back: the invocations of later user messages (two distinct ones tell whether another one exists).
  // Stryker disable next-line BooleanLiteral,ArrayDeclaration: the loop below writes every entry before one is read
  const movedOn = new Array<boolean>(events.length).fill(false);
  const later: string[] = [];
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as WorkEvent;
    movedOn[index] = later.some((id) => id !== event.invocationId || id === '');
    const userText =
      event.author === 'user' &&
      event.role === 'user' &&
      event.parts.some((part) => 'text' in part && part.thought !== true);
    // Stryker disable next-line EqualityOperator,ConditionalExpression: `<= 2` (or no bound) is the same, a third distinct id cannot change `later.some(id !== x)` once two differ
    if (userText && !later.includes(event.invocationId) && later.length < 2) later.push(event.invocationId);
  }
  const result: WorkEvent[] = [];
  for (let index = 0; index < events.length; index++) {
    const event = events[index] as WorkEvent;
    result.push(event);
    const calls = open(event);
    if (calls.length === 0 || movedOn[index] !== true) continue;
    const answer = interruptedAnswer(event, calls);
    const next = events[index + 1];
    if (next !== undefined && next.responses.some((response) => event.calls.some((call) => call.id === response.id))) {
      result.push(mergeResponseEvents([next, answer]));
      index += 1;
    } else result.push(answer);
  }
  return result;
}

function interruptedAnswer(event: WorkEvent, calls: readonly FunctionCall[]): WorkEvent {
  const source: Source = {
    kind: 'history',
    processor: CONTENTS_PROCESSOR,
    agent: event.author,
    eventIds: [event.id],
    note: 'no response was stored for this call (its run stopped): answered as interrupted in the request',
  };
  const parts: Part[] = calls.map((call) => ({
    functionResponse: { id: call.id as string, name: call.name, response: { error: INTERRUPTED_CALL_ERROR } },
  }));
  const fields = {
    id: `${event.id}:interrupted`,
    author: event.author,
    timestamp: event.timestamp,
    branch: event.branch,
    invocationId: event.invocationId,
    role: 'user' as const,
    actions: { stateDelta: {}, artifactDelta: {} },
  };
  return withParts(
    fields,
    parts,
    parts.map(() => source),
  );
}
