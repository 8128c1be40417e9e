import type { DraftMessage } from '../../contracts/draft.js';
import type { Event } from '../../contracts/event.js';
import { buildSettledContents, GENERATED_ID_PREFIX, type ContentsOptions } from './build-contents.js';

type CachedPrefix = { count: number; last: Event; messages: readonly DraftMessage[] };

/**
 * Remembers the messages built from a session's history, per view (agent, branch, format), so that a long
 * session costs only its new events on the next call. Histories only grow, so the messages of a settled prefix
 * (see `buildSettledContents`: as the view shows it, not ending in a response folded back to its call and leaving no
 * call open; with ADK's compaction view, also holding no summary) stay what a full rebuild would give; whenever new
 * events could change earlier messages (a rewind, a compaction, a response to an earlier call) it rebuilds in full.
 * Hold one per session.
 */
export class ContentsCache {
  readonly #entries = new Map<string, CachedPrefix>();

  build(events: readonly Event[], options: ContentsOptions, formatKey: string): DraftMessage[] {
    const view = options.compactionView ?? 'exact';
    // Stryker disable next-line EqualityOperator,ConditionalExpression,BooleanLiteral: a kept prefix leaves no call open in view, so both settings of answerAbandonedCalls give it the same messages (and negating the flag only swaps the labels of its two keys)
    const key = `${options.agentName}\u0000${options.branch ?? ''}\u0000${String(options.preserveFunctionCallIds)}\u0000${options.generatedCallIdPrefix ?? GENERATED_ID_PREFIX}\u0000${view}\u0000${String(options.answerAbandonedCalls === true)}\u0000${formatKey}`;
    const cached = this.#entries.get(key);
    // ADK's view re-sorts the whole history by time around a summary, so a prefix holding one cannot be kept.
    const keepable = (list: readonly Event[]) =>
      view === 'exact' || list.every((event) => event.actions.compaction === undefined);
    let messages: DraftMessage[];
    let settled: boolean;
    let clean: boolean;
    const tail = cached !== undefined && extends_(cached, events) ? events.slice(cached.count) : undefined;
    const appendable =
      tail !== undefined &&
      tail.every((event) => event.actions.rewindBeforeInvocationId === undefined) &&
      answersOwnCalls(tail);
    if (cached !== undefined && appendable && tail.every((event) => event.actions.compaction === undefined)) {
      // The kept prefix was settled, so the whole is settled when the new events are.
      const added = buildSettledContents(tail, options);
      messages = cached.messages.concat(added.messages);
      settled = added.settled;
      clean = true;
    } else {
      ({ messages, settled } = buildSettledContents(events, options));
      // A full build is kept as a first one is, whatever forced it: keeping the old prefix after a rewind or a late
      // response would make every later request rebuild in full, as its tail would always hold that event.
      clean = keepable(events);
    }
    const last = events.at(-1);
    if (clean && settled && last !== undefined) this.#entries.set(key, { count: events.length, last, messages });
    return messages;
  }
}

function extends_(cached: CachedPrefix, events: readonly Event[]): boolean {
  const at = events[cached.count - 1];
  return (
    at !== undefined &&
    (at === cached.last ||
      (at.id === cached.last.id &&
        at.timestamp === cached.last.timestamp &&
        at.invocationId === cached.last.invocationId))
  );
}

// Every response in the new events answers a call among them; otherwise earlier messages may move.
function answersOwnCalls(tail: readonly Event[]): boolean {
  const calls = new Set<string | undefined>();
  for (const event of tail) {
    for (const part of event.content?.parts ?? []) {
      if ('functionCall' in part) calls.add(part.functionCall.id);
      else if ('functionResponse' in part && !calls.has(part.functionResponse.id)) return false;
    }
  }
  return true;
}
