import type { Event } from '../../contracts/event.js';

/**
 * Cuts a run of events at the first one holding a function call that nothing in the session answers: the call, and
 * everything after it, must reach the model raw, or its response would arrive with no call to pair with. `settled`
 * calls (see {@link abandonedCalls}) do not cut.
 */
export function cutAtPendingCall(
  slice: readonly Event[],
  session: readonly Event[],
  settled: ReadonlySet<string> = NONE,
): Event[] {
  const answered = new Set<string | undefined>(settled);
  for (const event of session) {
    for (const part of event.content?.parts ?? [])
      if ('functionResponse' in part) answered.add(part.functionResponse.id);
  }
  const cut = slice.findIndex((event) =>
    (event.content?.parts ?? []).some((part) => 'functionCall' in part && !answered.has(part.functionCall.id)),
  );
  return cut === -1 ? [...slice] : slice.slice(0, cut);
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Calls left behind by a run that stopped (a crash between storing a call and its response): no event answers them,
 * nobody is asked to (no confirmation or credentials request names them), and the conversation went on past them (a
 * later user message of another invocation). They will get no answer but the runner's `interrupted` one, stored when
 * the session is next run, so summaries may take them in instead of stopping at them for good. (A call still running
 * in another process while this one compacts may be among them; its late result is then left out of requests, as
 * its summarized call is.)
 */
export function abandonedCalls(session: readonly Event[]): Set<string> {
  const answered = new Set<string | undefined>();
  for (const event of session) {
    for (const id of Object.keys(event.actions.requestedToolConfirmations ?? {})) answered.add(id);
    for (const id of Object.keys(event.actions.requestedAuthConfigs ?? {})) answered.add(id);
    // A long-running call waits for the client's answer, however long: never abandoned.
    for (const id of event.longRunningToolIds ?? []) answered.add(id);
    for (const part of event.content?.parts ?? [])
      if ('functionResponse' in part) answered.add(part.functionResponse.id);
  }
  const abandoned = new Set<string>();
  // Walking back: the invocations of the user messages seen so far (two distinct ones tell whether another exists).
  const later: string[] = [];
  for (let index = session.length - 1; index >= 0; index--) {
    const event = session[index] as Event;
    const parts = event.content?.parts ?? [];
    if (event.author === 'user') {
      if (
        event.actions.compaction === undefined &&
        parts.some((part) => 'text' in part) &&
        !later.includes(event.invocationId) &&
        later.length < 2
      )
        later.push(event.invocationId);
      continue;
    }
    // Moved on from: a user message of another invocation after it (or any later one, in histories without ids).
    if (!later.some((id) => id !== event.invocationId || id === '')) continue;
    for (const part of parts) {
      if (
        'functionCall' in part &&
        part.functionCall.id !== undefined &&
        !answered.has(part.functionCall.id) &&
        !part.functionCall.name.startsWith('adk_')
      )
        abandoned.add(part.functionCall.id);
    }
  }
  return abandoned;
}

/**
 * Cuts a run of events at the first request for a person (a tool confirmation or credentials) that no later function
 * response resolves, or at a long-running call the client has not answered yet (a tool's own pending status is no
 * answer): the answer will refer to it.
 */
export function cutAtPendingRequest(slice: readonly Event[], session: readonly Event[]): Event[] {
  const position = new Map(session.map((event, index) => [event, index]));
  const lastAnswer = new Map<string | undefined, number>();
  const clientAnswered = new Set<string | undefined>();
  session.forEach((event, index) => {
    for (const part of event.content?.parts ?? [])
      if ('functionResponse' in part) {
        lastAnswer.set(part.functionResponse.id, index);
        if (event.author === 'user') clientAnswered.add(part.functionResponse.id);
      }
  });
  const cut = slice.findIndex((event) => {
    const ids = [
      ...Object.keys(event.actions.requestedToolConfirmations ?? {}),
      ...Object.keys(event.actions.requestedAuthConfigs ?? {}),
    ];
    const at = position.get(event) ?? -1;
    return (
      ids.some((id) => (lastAnswer.get(id) ?? -1) <= at) ||
      (event.longRunningToolIds ?? []).some((id) => !clientAnswered.has(id))
    );
  });
  return cut === -1 ? [...slice] : slice.slice(0, cut);
}

/** Both cuts, in ADK's order. */
export function cutAtPending(
  slice: readonly Event[],
  session: readonly Event[],
  settled: ReadonlySet<string> = NONE,
): Event[] {
  return cutAtPendingRequest(cutAtPendingCall(slice, session, settled), session);
}

/**
 * Where to split `events` into a summarized head and a raw tail, at `end` or earlier: the first index, walking back,
 * from which every response in the tail has its call in the tail too (ADK's pair-safe split). Responses to
 * `summarized` calls (an earlier summary took the call in) have no call left to keep them company, so they hold
 * nothing back.
 */
export function pairSafeEnd(events: readonly Event[], end: number, summarized: ReadonlySet<string> = NONE): number {
  // Walk back from the end, collecting responses whose calls have not been seen yet; a cut is safe where none is open.
  const open = new Set<string | undefined>();
  for (let index = events.length - 1; index >= 0; index--) {
    const parts = (events[index] as Event).content?.parts ?? [];
    for (const part of parts)
      if (
        'functionResponse' in part &&
        !(part.functionResponse.id !== undefined && summarized.has(part.functionResponse.id))
      )
        open.add(part.functionResponse.id);
    for (const part of parts) if ('functionCall' in part) open.delete(part.functionCall.id);
    if (open.size === 0 && index <= end) return index;
  }
  return 0;
}

/**
 * Shortens a run of events until no function call or response in it has its partner outside it (and outside what
 * earlier summaries already cover): a call answered later, a response to a call left raw, or a call never answered
 * (unless `settled`: abandoned by a run that stopped).
 * ADK only cuts at calls never answered, so a long-running tool answered in a later turn loses its call to a summary
 * and the raw response is left with nothing to pair with.
 */
export function closeOverPairs(
  slice: readonly Event[],
  session: readonly Event[],
  covered: ReadonlySet<string>,
  settled: ReadonlySet<string> = NONE,
): Event[] {
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
        if ('functionCall' in part) {
          const responses = partners(part.functionCall.id).responses;
          return responses.size === 0 && part.functionCall.id !== undefined && settled.has(part.functionCall.id)
            ? false
            : !closed(responses);
        }
        if ('functionResponse' in part) return !closed(partners(part.functionResponse.id).calls);
        return false;
      }),
    );
    if (cut === -1) return head;
    head = head.slice(0, cut);
  }
}

/** The ids of function calls in events an earlier summary stands for. */
export function summarizedCallIds(session: readonly Event[], covered: ReadonlySet<string>): Set<string> {
  const ids = new Set<string>();
  if (covered.size === 0) return ids;
  for (const event of session) {
    if (!covered.has(event.id)) continue;
    for (const part of event.content?.parts ?? [])
      if ('functionCall' in part && part.functionCall.id !== undefined) ids.add(part.functionCall.id);
  }
  return ids;
}
