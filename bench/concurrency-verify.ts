// bench:concurrency's verdict for one (framework, store), read back from the store through the framework's own
// session service after every worker has finished.
import { appendLabel, sessionId, turnLabel, type PhaseResult } from './concurrency-child.js';
import { COUNTER_KEY, SHARED_SESSION, type Side, type StoredEvent } from './concurrency-sides.js';

export type Plan = { processes: number; sessions: number; turns: number; appends: number };

export type CounterVerdict = {
  expected: number;
  final: number;
  /** expected − final: increments that are not in the counter, whatever the reason (errors included). */
  lostUpdates: number;
  /** `bump` responses stored (each one an increment the tool made and the store took). */
  storedIncrements: number;
  /** storedIncrements − final: increments stored as done whose effect another session's write overwrote. */
  overwrittenIncrements: number;
  /** Stored `bump` responses whose counter value another response also has (two sessions read the same value). */
  repeatedCounterValues: number;
  /** Events a planned turn should have left (user message, call, response, answer) that are not stored. */
  lostEvents: number;
  /** Events stored more than once (same id, or same turn and kind). */
  duplicatedEvents: number;
  /** Calls of failed turns that the framework later answered with an `interrupted` error (no increment). */
  interruptedCalls: number;
  /** Stored events that are none of a turn's four (nor an interrupted answer). */
  unexpectedEvents: number;
  acknowledgedTurns: number;
  failedTurns: number;
};

export type AppendsVerdict = {
  expected: number;
  stored: number;
  /** Planned events not stored (failed appends included). */
  lostEvents: number;
  /** Appends that returned without an error but whose event is not stored. */
  lostAcknowledged: number;
  duplicatedEvents: number;
  /** Stored events that no process appended. */
  unexpectedEvents: number;
  /** Events of one process stored before an event it appended earlier. */
  outOfOrder: number;
  acknowledged: number;
  failed: number;
};

const KINDS = ['user', 'call', 'response', 'answer'] as const;

export async function verifyCounter(side: Side, plan: Plan, results: readonly PhaseResult[]): Promise<CounterVerdict> {
  const expected = plan.processes * plan.sessions * plan.turns;
  const events: StoredEvent[] = [];
  let final = 0;
  for (let process = 0; process < plan.processes; process++) {
    for (let session = 0; session < plan.sessions; session++) {
      const stored = await side.read(sessionId(process, session));
      if (stored === undefined) throw new Error(`session ${sessionId(process, session)} is gone`);
      events.push(...stored.events);
      final = Number(stored.state[COUNTER_KEY] ?? 0);
    }
  }
  const copies = new Map<string, number>();
  for (const event of events)
    copies.set(`${event.kind} ${event.label}`, (copies.get(`${event.kind} ${event.label}`) ?? 0) + 1);
  let lostEvents = 0;
  for (let process = 0; process < plan.processes; process++) {
    for (let session = 0; session < plan.sessions; session++) {
      for (let turn = 0; turn < plan.turns; turn++) {
        for (const kind of KINDS) if (!copies.has(`${kind} ${turnLabel(process, session, turn)}`)) lostEvents++;
      }
    }
  }
  const responses = events.filter((event) => event.kind === 'response');
  const values = new Map<number, number>();
  for (const response of responses)
    if (response.counter !== undefined) values.set(response.counter, (values.get(response.counter) ?? 0) + 1);
  const storedIncrements = new Set(responses.map((response) => response.label)).size;
  return {
    expected,
    final,
    lostUpdates: expected - final,
    storedIncrements,
    overwrittenIncrements: storedIncrements - final,
    repeatedCounterValues: [...values.values()].reduce((sum, count) => sum + count - 1, 0),
    lostEvents,
    duplicatedEvents: duplicates(events),
    interruptedCalls: events.filter((event) => event.kind === 'interrupted').length,
    unexpectedEvents: events.filter((event) => event.kind === 'other' || event.label === undefined).length,
    acknowledgedTurns: results.reduce((sum, result) => sum + result.acknowledged, 0),
    failedTurns: results.reduce((sum, result) => sum + result.failed, 0),
  };
}

export async function verifyAppends(side: Side, plan: Plan, results: readonly PhaseResult[]): Promise<AppendsVerdict> {
  const stored = await side.read(SHARED_SESSION);
  if (stored === undefined) throw new Error(`session ${SHARED_SESSION} is gone`);
  const ids = new Set(stored.events.map((event) => event.id));
  const planned = new Set<string>();
  for (let process = 0; process < plan.processes; process++)
    for (let index = 0; index < plan.appends; index++) planned.add(appendLabel(process, index));
  let lostEvents = 0;
  let outOfOrder = 0;
  const position = new Map(stored.events.map((event, index) => [event.label, index]));
  for (let process = 0; process < plan.processes; process++) {
    let previous = -1;
    for (let index = 0; index < plan.appends; index++) {
      const at = position.get(appendLabel(process, index));
      if (at === undefined) {
        lostEvents++;
        continue;
      }
      if (at < previous) outOfOrder++;
      previous = Math.max(previous, at);
    }
  }
  const acknowledgedIds = results.flatMap((result) => result.eventIds);
  return {
    expected: plan.processes * plan.appends,
    stored: stored.events.length,
    lostEvents,
    lostAcknowledged: acknowledgedIds.filter((id) => !ids.has(id)).length,
    duplicatedEvents: duplicates(stored.events),
    unexpectedEvents: stored.events.filter(
      (event) => event.kind !== 'user' || event.label === undefined || !planned.has(event.label),
    ).length,
    outOfOrder,
    acknowledged: results.reduce((sum, result) => sum + result.acknowledged, 0),
    failed: results.reduce((sum, result) => sum + result.failed, 0),
  };
}

/** Stored events beyond the first of each id, or of each (kind, label) when labelled: a copy under a new id counts too. */
function duplicates(events: readonly StoredEvent[]): number {
  const ids = new Set<string>();
  const contents = new Set<string>();
  let extra = 0;
  for (const event of events) {
    const content = event.label === undefined ? undefined : `${event.kind} ${event.label}`;
    if (ids.has(event.id) || (content !== undefined && contents.has(content))) extra++;
    ids.add(event.id);
    if (content !== undefined) contents.add(content);
  }
  return extra;
}
