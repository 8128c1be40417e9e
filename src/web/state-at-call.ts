import type { Event } from '../contracts/event.js';
import type { ModelCallSummary } from '../contracts/model-call.js';
import type { StateOp } from '../contracts/state-op.js';
import { applyStateOp, canonicalJson } from '../engine/state/apply-state-op.js';
import { isTempKey, scopeOfKey, type StateScope } from '../engine/state/state-keys.js';
import { showValue } from './session-timeline.js';

/** One state key as the page lists it. */
export type StateEntry = { key: string; scope: StateScope; value: string };

/**
 * A key of the state at a call, with the event that wrote the value shown (null: none of this session's did).
 * `known: false` (with an empty value): this session's events changed the key with operations before the call, but
 * what they applied to cannot be read back from the session (a shared key other sessions also write, or changes
 * after the call that cannot be undone on paper).
 */
export type StateAtCallEntry = StateEntry & { eventId: string | null; known?: false };

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
export function eventsBeforeCall(
  events: readonly Event[],
  call: Pick<ModelCallSummary, 'timestamp' | 'responseEventId'>,
): Event[] {
  const answer =
    call.responseEventId === undefined ? -1 : events.findIndex((event) => event.id === call.responseEventId);
  return events.slice(0, answer < 0 ? events.length : answer).filter((event) => event.timestamp <= call.timestamp);
}

/** One change of a key by an event: a value set, or an operation. */
type Write = { eventId: string; set: unknown } | { eventId: string; op: StateOp };
const NOT_KNOWN = Symbol('not known');

/**
 * The state as it was when a call was sent, from the session's stored state and events: a key an event wrote before
 * the call has the value it left then (the last value set, with the operations stored after it applied); a key only
 * changed by operations has its value now with the later operations taken back, where that can be done exactly (`add`,
 * and `append` of what the list ends with) on a key of this session alone; a key first written after the call is left
 * out; any other key (the session's initial state, or shared `app:`/`user:` state this session never wrote) has its
 * value now. `temp:` keys are never stored, so they cannot be shown.
 */
export function stateAtCall(
  state: Record<string, unknown>,
  events: readonly Event[],
  call: Pick<ModelCallSummary, 'timestamp' | 'responseEventId'>,
): StateAtCallEntry[] {
  const before = new Set(eventsBeforeCall(events, call));
  // Each key's changes in the order stores apply them: event by event, its values set, then its operations.
  const changes = new Map<string, { before: Write[]; after: Write[] }>();
  const note = (key: string, event: Event, write: Write) => {
    if (isTempKey(key)) return;
    let entry = changes.get(key);
    if (entry === undefined) changes.set(key, (entry = { before: [], after: [] }));
    (before.has(event) ? entry.before : entry.after).push(write);
  };
  for (const event of events) {
    for (const [key, value] of Object.entries(event.actions.stateDelta))
      note(key, event, { eventId: event.id, set: value });
    for (const op of event.actions.stateOps ?? []) note(op.key, event, { eventId: event.id, op });
  }
  const values: Record<string, unknown> = {};
  const writers = new Map<string, string>();
  // Keys no event of this session changed: their value now.
  for (const [key, value] of Object.entries(state)) if (!isTempKey(key) && !changes.has(key)) values[key] = value;
  for (const [key, { before: earlier, after: later }] of changes) {
    const last = earlier.at(-1);
    if (last === undefined) continue;
    writers.set(key, last.eventId);
    values[key] = valueAtCall(key, state, earlier, later);
  }
  return Object.keys(values)
    .sort(naturalKeyOrder)
    .map((key) => {
      const value = values[key];
      const entry = {
        key,
        scope: scopeOfKey(key),
        value: value === NOT_KNOWN ? '' : showValue(value),
        eventId: writers.get(key) ?? null,
      };
      return value === NOT_KNOWN ? { ...entry, known: false as const } : entry;
    });
}

// The value a key had when the call was sent, given its changes before and after it (some before), or NOT_KNOWN.
function valueAtCall(
  key: string,
  state: Record<string, unknown>,
  earlier: readonly Write[],
  later: readonly Write[],
): unknown {
  const lastSet = earlier.findLastIndex((write) => 'set' in write);
  let value: unknown;
  if (lastSet >= 0) value = (earlier[lastSet] as { set: unknown }).set;
  else {
    // Only operations before the call: what they applied to is not in the events. Other sessions also change a
    // shared key, so its value now says nothing exact of then; a session's own key is its value now, less what
    // this session's later changes did, when each can be taken back.
    if (scopeOfKey(key) !== 'session' || !Object.hasOwn(state, key)) return NOT_KNOWN;
    value = state[key];
    for (let index = later.length - 1; index >= 0; index--) {
      value = undo(value, later[index] as Write);
      if (value === NOT_KNOWN) return NOT_KNOWN;
    }
    return value;
  }
  for (const write of earlier.slice(lastSet + 1)) {
    try {
      value = applyStateOp(value, (write as { op: StateOp }).op);
    } catch {
      // A store refuses such an operation with its event; one found stored is taken as not applied.
    }
  }
  return value;
}

// The value before `write`, from the value after it: exact for `add` and for an `append` of what the list ends with.
function undo(value: unknown, write: Write): unknown {
  if (!('op' in write)) return NOT_KNOWN;
  const { op } = write;
  if (op.op === 'add' && typeof value === 'number') {
    const before = value - op.by;
    // Only when adding back gives the value again: floating-point subtraction does not always undo an addition.
    return before + op.by === value ? before : NOT_KNOWN;
  }
  if (op.op === 'append' && Array.isArray(value) && value.length >= op.items.length) {
    const kept = value.slice(0, value.length - op.items.length);
    const tail = value.slice(value.length - op.items.length);
    return canonicalJson(tail) === canonicalJson(op.items) ? kept : NOT_KNOWN;
  }
  return NOT_KNOWN;
}
