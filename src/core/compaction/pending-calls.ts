import type { Event } from '../session/event.js';

/**
 * Cuts a run of events at the first one holding a function call that nothing in the session answers: the call, and
 * everything after it, must reach the model raw, or its response would arrive with no call to pair with.
 */
export function cutAtPendingCall(slice: readonly Event[], session: readonly Event[]): Event[] {
  const answered = new Set<string | undefined>();
  for (const event of session) {
    for (const part of event.content?.parts ?? []) if ('functionResponse' in part) answered.add(part.functionResponse.id);
  }
  const cut = slice.findIndex((event) => (event.content?.parts ?? []).some((part) => 'functionCall' in part && !answered.has(part.functionCall.id)));
  return cut === -1 ? [...slice] : slice.slice(0, cut);
}

/**
 * Cuts a run of events at the first request for a person (a tool confirmation or credentials) that no later function
 * response resolves: the person's answer will refer to it.
 */
export function cutAtPendingRequest(slice: readonly Event[], session: readonly Event[]): Event[] {
  const position = new Map(session.map((event, index) => [event, index]));
  const lastAnswer = new Map<string | undefined, number>();
  session.forEach((event, index) => {
    for (const part of event.content?.parts ?? []) if ('functionResponse' in part) lastAnswer.set(part.functionResponse.id, index);
  });
  const cut = slice.findIndex((event) => {
    const ids = [...Object.keys(event.actions.requestedToolConfirmations ?? {}), ...Object.keys(event.actions.requestedAuthConfigs ?? {})];
    const at = position.get(event) ?? -1;
    return ids.some((id) => (lastAnswer.get(id) ?? -1) <= at);
  });
  return cut === -1 ? [...slice] : slice.slice(0, cut);
}

/** Both cuts, in ADK's order. */
export function cutAtPending(slice: readonly Event[], session: readonly Event[]): Event[] {
  return cutAtPendingRequest(cutAtPendingCall(slice, session), session);
}

/**
 * Where to split `events` into a summarized head and a raw tail, at `end` or earlier: the first index, walking back,
 * from which every response in the tail has its call in the tail too (ADK's pair-safe split).
 */
export function pairSafeEnd(events: readonly Event[], end: number): number {
  // Walk back from the end, collecting responses whose calls have not been seen yet; a cut is safe where none is open.
  const open = new Set<string | undefined>();
  for (let index = events.length - 1; index >= 0; index--) {
    const parts = (events[index] as Event).content?.parts ?? [];
    for (const part of parts) if ('functionResponse' in part) open.add(part.functionResponse.id);
    for (const part of parts) if ('functionCall' in part) open.delete(part.functionCall.id);
    if (open.size === 0 && index <= end) return index;
  }
  return 0;
}
