import type { DraftMessage } from '../../contracts/draft.js';
import type { Event } from '../../contracts/event.js';
import { buildContents, GENERATED_ID_PREFIX, type ContentsOptions } from './build-contents.js';

type CachedPrefix = { count: number; last: Event; messages: readonly DraftMessage[] };

/**
 * Remembers the messages built from a session's history, per view (agent, branch, format), so that a long
 * session costs only its new events on the next call. Histories only grow, so the messages of a "closed" prefix
 * (not ending in a function response that answers calls further back; with ADK's compaction view, holding no
 * summary) stay what a full rebuild would give; whenever new events could change earlier messages (a rewind, a
 * compaction, a response to an earlier call) it rebuilds in full.
 * Hold one per session.
 */
export class ContentsCache {
  readonly #entries = new Map<string, CachedPrefix>();

  build(events: readonly Event[], options: ContentsOptions, formatKey: string): DraftMessage[] {
    const view = options.compactionView ?? 'exact';
    const key = `${options.agentName}\u0000${options.branch ?? ''}\u0000${String(options.preserveFunctionCallIds)}\u0000${options.generatedCallIdPrefix ?? GENERATED_ID_PREFIX}\u0000${view}\u0000${String(options.answerAbandonedCalls === true)}\u0000${formatKey}`;
    const cached = this.#entries.get(key);
    // ADK's view re-sorts the whole history by time around a summary, so a prefix holding one cannot be kept.
    const keepable = (list: readonly Event[]) => view === 'exact' || list.every((event) => event.actions.compaction === undefined);
    let messages: DraftMessage[];
    let clean: boolean;
    const tail = cached !== undefined && extends_(cached, events) ? events.slice(cached.count) : undefined;
    const appendable = tail !== undefined && tail.every((event) => event.actions.rewindBeforeInvocationId === undefined) && answersOwnCalls(tail);
    if (cached !== undefined && appendable && tail.every((event) => event.actions.compaction === undefined)) {
      // Stryker disable next-line ConditionalExpression: concat of an empty tail's (empty) messages gives the same copy
      messages = tail.length === 0 ? [...cached.messages] : cached.messages.concat(buildContents(tail, options));
      clean = true;
    } else {
      messages = buildContents(events, options);
      // Start again from a full build when nothing was kept, or when only a new summary forced it.
      clean = (tail === undefined || appendable) && keepable(events);
    }
    const last = events.at(-1);
    // A call still without a response may later be shown answered (as interrupted), which changes earlier messages.
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a kept prefix leaves no call open, so the tail alone and all the events give the same answer
    const settled = () => !hasOpenCalls(tail !== undefined && appendable ? tail : events);
    if (clean && last !== undefined && closesCleanly(events) && settled()) this.#entries.set(key, { count: events.length, last, messages });
    return messages;
  }
}

// A prefix can be kept when ADK's "latest response" rearrangement leaves it as it is, whatever follows: it does not end
// in a function response, or the one it ends in answers calls of the event right before (the usual tool loop).
function closesCleanly(events: readonly Event[]): boolean {
  const responses = (events.at(-1)?.content?.parts ?? []).flatMap((part) => ('functionResponse' in part ? [part.functionResponse.id] : []));
  if (responses.length === 0) return true;
  const calls = new Set((events.at(-2)?.content?.parts ?? []).flatMap((part) => ('functionCall' in part ? [part.functionCall.id] : [])));
  return responses.some((id) => calls.has(id));
}

function extends_(cached: CachedPrefix, events: readonly Event[]): boolean {
  const at = events[cached.count - 1];
  return at !== undefined && (at === cached.last || (at.id === cached.last.id && at.timestamp === cached.last.timestamp && at.invocationId === cached.last.invocationId));
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

// Whether some call has no response among these events (a kept prefix never has one, so a tail is checked alone).
function hasOpenCalls(events: readonly Event[]): boolean {
  const open = new Set<string | undefined>();
  for (const event of events) {
    for (const part of event.content?.parts ?? []) {
      if ('functionCall' in part) open.add(part.functionCall.id);
      else if ('functionResponse' in part) open.delete(part.functionResponse.id);
    }
  }
  return open.size > 0;
}
