import type { FunctionCall } from '../../contracts/content.js';
import type { Event } from '../../contracts/event.js';
import type { MemoKey } from '../../contracts/memo.js';

/** A model event and those of its function calls that nothing answers. */
export type UnansweredCalls = { readonly event: Event; readonly calls: readonly FunctionCall[] };

// Calls of the framework's own protocols (credentials, confirmations) wait for a person, not for a tool.
const WAITING_FOR_A_PERSON = new Set(['adk_framework', 'adk_request_credential', 'adk_request_confirmation']);

/**
 * The function calls of model events that no later event on their branch answers, oldest first, grouped by event.
 * Left out: calls without an id (nothing could pair an answer with them), calls waiting for a person (a confirmation
 * or credentials request, or a call one of those names), calls of rewound invocations, and `answered` ids (those the
 * message about to be stored answers). The runner keeps an `UnansweredIndex` per session instead of calling this.
 */
export function findUnansweredCalls(
  events: readonly Event[],
  answered: ReadonlySet<string> = new Set(),
): UnansweredCalls[] {
  return new UnansweredIndex().find(events, answered);
}

type Open = { event: Event; calls: FunctionCall[] };

/**
 * `findUnansweredCalls` kept up to date as a session grows. The check runs before every turn; reading the whole
 * history each time made a long session pay for all of it on every turn. Here each event is read once: a call
 * opens an entry, a later response on a related branch closes it, a rewind hides what it names. A history that is
 * not the one read so far (a session loaded anew) is read again from the start.
 */
export class UnansweredIndex {
  #read = 0;
  #lastId: string | undefined;
  readonly #open = new Map<number, Open>();
  readonly #openById = new Map<string, number[]>();
  readonly #waiting = new Set<string>();
  readonly #hidden = new Set<number>();
  readonly #firstOfInvocation = new Map<string, number>();
  // Rewinds whose invocation had no event yet: they hide only themselves until one appears after them.
  readonly #rewindsWaiting = new Map<string, number[]>();

  /** What `findUnansweredCalls(events, answered)` returns, reading only the events added since the last call. */
  find(events: readonly Event[], answered: ReadonlySet<string> = new Set()): UnansweredCalls[] {
    if (events.length < this.#read || (this.#read > 0 && events[this.#read - 1]?.id !== this.#lastId)) this.#reset();
    for (let index = this.#read; index < events.length; index++) this.#add(events[index] as Event, index);
    this.#read = events.length;
    this.#lastId = events.at(-1)?.id;
    const found: UnansweredCalls[] = [];
    // Entries were opened in the order of their events, so this is oldest first.
    for (const [index, { event, calls }] of this.#open) {
      if (this.#hidden.has(index)) continue;
      const left = calls.filter((call) => !this.#waiting.has(call.id as string) && !answered.has(call.id as string));
      if (left.length > 0) found.push({ event, calls: left });
    }
    return found;
  }

  #add(event: Event, index: number): void {
    const invocation = event.invocationId;
    if (!this.#firstOfInvocation.has(invocation)) {
      this.#firstOfInvocation.set(invocation, index);
      for (const rewind of this.#rewindsWaiting.get(invocation) ?? []) this.#hidden.delete(rewind);
      this.#rewindsWaiting.delete(invocation);
    }
    const target = event.actions.rewindBeforeInvocationId;
    if (target !== undefined) {
      const first = this.#firstOfInvocation.get(target);
      if (first === undefined) {
        this.#hidden.add(index);
        this.#rewindsWaiting.set(target, [...(this.#rewindsWaiting.get(target) ?? []), index]);
      } else {
        for (let at = first; at <= index; at++) this.#hidden.add(at);
      }
    }
    for (const id of Object.keys(event.actions.requestedToolConfirmations ?? {})) this.#waiting.add(id);
    for (const id of Object.keys(event.actions.requestedAuthConfigs ?? {})) this.#waiting.add(id);
    // A long-running call's answer comes from the client, whenever it comes: it is never interrupted.
    for (const id of event.longRunningToolIds ?? []) this.#waiting.add(id);
    // Responses first: one answers only calls of earlier events.
    for (const part of event.content?.parts ?? []) {
      if ('functionResponse' in part && part.functionResponse.id !== undefined)
        this.#close(part.functionResponse.id, event.branch);
    }
    if (event.author === 'user' || event.partial === true || event.content?.role !== 'model') return;
    const calls = event.content.parts.flatMap((part) => {
      if (!('functionCall' in part)) return [];
      const call = part.functionCall;
      return call.id === undefined || call.id === '' || WAITING_FOR_A_PERSON.has(call.name) ? [] : [call];
    });
    if (calls.length === 0) return;
    this.#open.set(index, { event, calls });
    for (const call of calls)
      this.#openById.set(call.id as string, [...(this.#openById.get(call.id as string) ?? []), index]);
  }

  #close(id: string, branch: string | undefined): void {
    const indexes = this.#openById.get(id);
    if (indexes === undefined) return;
    const kept = indexes.filter((index) => {
      const entry = this.#open.get(index) as Open;
      if (!related(entry.event.branch, branch)) return true;
      entry.calls = entry.calls.filter((call) => call.id !== id);
      if (entry.calls.length === 0) this.#open.delete(index);
      return false;
    });
    if (kept.length === 0) this.#openById.delete(id);
    else this.#openById.set(id, kept);
  }

  #reset(): void {
    this.#read = 0;
    this.#lastId = undefined;
    for (const map of [this.#open, this.#openById, this.#firstOfInvocation, this.#rewindsWaiting]) map.clear();
    this.#waiting.clear();
    this.#hidden.clear();
  }
}

// One branch sees the other's events: the same branch, an ancestor, or the root (ADK's branch rule, both ways).
function related(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || a === '' || b === undefined || b === '') return true;
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}

/** The session's index, kept in the runner's memo of the session. */
export const UNANSWERED_CALLS: MemoKey<UnansweredIndex> = {
  name: 'runner.unansweredCalls',
  create: () => new UnansweredIndex(),
};
