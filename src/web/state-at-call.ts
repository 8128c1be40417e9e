import type { Event } from '../contracts/event.js';
import type { ModelCallSummary } from '../contracts/model-call.js';
import { isTempKey, scopeOfKey, type StateScope } from '../engine/state/state-keys.js';
import { showValue } from './session-timeline.js';

/** One state key as the page lists it. */
export type StateEntry = { key: string; scope: StateScope; value: string };

/** A key of the state at a call, with the event that wrote the value shown (null: none of this session's did). */
export type StateAtCallEntry = StateEntry & { eventId: string | null };

const collator = new Intl.Collator('en', { numeric: true });

/** Keys in natural order: batch-2 before batch-10; plain order decides what the collator calls equal (a1, a01). */
export function naturalKeyOrder(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** A state as rows, keys in natural order. */
export function stateEntries(state: Record<string, unknown>): StateEntry[] {
  return Object.keys(state)
    .sort(naturalKeyOrder)
    .map((key) => ({ key, scope: scopeOfKey(key), value: showValue(state[key]) }));
}

/**
 * The events stored before a call was sent: those before the event that carried its answer (when it is among them),
 * and no later than the call's time, so a parallel branch's event stored meanwhile is not counted.
 */
export function eventsBeforeCall(events: readonly Event[], call: Pick<ModelCallSummary, 'timestamp' | 'responseEventId'>): Event[] {
  const answer = call.responseEventId === undefined ? -1 : events.findIndex((event) => event.id === call.responseEventId);
  return events.slice(0, answer < 0 ? events.length : answer).filter((event) => event.timestamp <= call.timestamp);
}

/**
 * The state as it was when a call was sent, from the session's stored state and events: a key an event wrote before
 * the call has the last value written then; a key first written after it is left out; any other key (the session's
 * initial state, or shared `app:`/`user:` state this session never wrote) has its value now. `temp:` keys are never
 * stored, so they cannot be shown.
 */
export function stateAtCall(state: Record<string, unknown>, events: readonly Event[], call: Pick<ModelCallSummary, 'timestamp' | 'responseEventId'>): StateAtCallEntry[] {
  const before = new Set(eventsBeforeCall(events, call));
  const replayed: Record<string, unknown> = {};
  const writers = new Map<string, string>();
  const later = new Set<string>();
  for (const event of events) {
    for (const [key, value] of Object.entries(event.actions.stateDelta)) {
      if (isTempKey(key)) continue;
      if (!before.has(event)) later.add(key);
      else {
        replayed[key] = value;
        writers.set(key, event.id);
      }
    }
  }
  const untouched = Object.fromEntries(Object.entries(state).filter(([key]) => !isTempKey(key) && !writers.has(key) && !later.has(key)));
  return stateEntries({ ...untouched, ...replayed }).map((entry) => ({ ...entry, eventId: writers.get(entry.key) ?? null }));
}
