import type { EventActions, Event, EventInput } from '../../contracts/event.js';
import type { StoreClock } from '../../contracts/session-store.js';

/** A complete event from the fields that matter, with a new id and the current time unless given. */
export function createEvent(input: EventInput, clock: StoreClock = {}): Event {
  const { actions, id, timestamp, invocationId, ...rest } = input;
  return {
    ...rest,
    id: id ?? clock.newId?.() ?? crypto.randomUUID(),
    invocationId: invocationId ?? '',
    timestamp: timestamp ?? clock.now?.() ?? Date.now() / 1000,
    actions: { ...emptyActions(), ...actions },
  };
}

export function emptyActions(): EventActions {
  return { stateDelta: {}, artifactDelta: {} };
}
