import type { Event } from '../../contracts/event.js';

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

/**
 * Shortens a run of events until no function call or response in it has its partner outside it (and outside what
 * earlier summaries already cover): a call answered later, a response to a call left raw, or a call never answered.
 * ADK only cuts at calls never answered, so a long-running tool answered in a later turn loses its call to a summary
 * and the raw response is left with nothing to pair with.
 */
export function closeOverPairs(slice: readonly Event[], session: readonly Event[], covered: ReadonlySet<string>): Event[] {
  const owner = new Map<string, { calls: Set<string>; responses: Set<string> }>();
  const partners = (id: string | undefined) => {
    const key = id ?? '';
    let entry = owner.get(key);
    if (entry === undefined) owner.set(key, (entry = { calls: new Set(), responses: new Set() }));
    return entry;
  };
  for (const event of session) {
    for (const part of event.content?.parts ?? []) {
      if ('functionCall' in part) partners(part.functionCall.id).calls.add(event.id);
      else if ('functionResponse' in part) partners(part.functionResponse.id).responses.add(event.id);
    }
  }
  let head = [...slice];
  for (;;) {
    const inside = new Set(head.map((event) => event.id));
    const closed = (ids: Set<string>) => ids.size > 0 && [...ids].every((id) => inside.has(id) || covered.has(id));
    const cut = head.findIndex((event) =>
      (event.content?.parts ?? []).some((part) => {
        if ('functionCall' in part) return !closed(partners(part.functionCall.id).responses);
        if ('functionResponse' in part) return !closed(partners(part.functionResponse.id).calls);
        return false;
      }),
    );
    if (cut === -1) return head;
    head = head.slice(0, cut);
  }
}
