// bench:scale's verdict, read from the database after the run.
import type { Part, SessionStore } from 'agentctx';
import { type AcknowledgedTurn, type ClientPlan, APP } from './scale-client.js';

export type Verification = {
  /** Events of acknowledged turns missing from their session. */
  lostEvents: number;
  /** Events stored more than once, or acknowledged turns whose message was stored more than once. */
  duplicatedEvents: number;
  /** Acknowledged turns whose events are stored out of the order they were streamed in. */
  outOfOrder: number;
  /** Users whose `user:turns` differs from the count_turn results stored in their sessions. */
  counterMismatches: number;
  /** Turns counted in the database (count_turn results), all users together. */
  countedTurns: number;
  /** Increments of `user:turns` that a later write overwrote: counted turns minus the stored counters, over all users. */
  lostUpdates: number;
};

export async function verify(
  store: SessionStore,
  plans: readonly ClientPlan[],
  acknowledged: readonly AcknowledgedTurn[],
): Promise<Verification> {
  const result: Verification = {
    lostEvents: 0,
    duplicatedEvents: 0,
    outOfOrder: 0,
    counterMismatches: 0,
    countedTurns: 0,
    lostUpdates: 0,
  };
  const sessionKeys = new Map(plans.map((plan) => [`${plan.userId}/${plan.sessionId}`, plan]));
  const positions = new Map<string, Map<string, number>>();
  const counted = new Map<string, number>();
  const states = new Map<string, Record<string, unknown>>();
  for (const plan of sessionKeys.values()) {
    const session = await store.getSession({ appName: APP, userId: plan.userId, sessionId: plan.sessionId });
    const events = session?.events ?? [];
    const seen = new Map<string, number>();
    events.forEach((event, index) => {
      if (seen.has(event.id)) result.duplicatedEvents += 1;
      seen.set(event.id, index);
    });
    positions.set(`${plan.userId}/${plan.sessionId}`, seen);
    // A call a killed server left open may be answered later as interrupted (docs/runner.md): that counted nothing.
    const counts = (part: Part) =>
      'functionResponse' in part &&
      part.functionResponse.name === 'count_turn' &&
      !String(part.functionResponse.response?.['error'] ?? '').startsWith('interrupted:');
    const responses = events.filter((event) => event.content?.parts.some(counts)).length;
    counted.set(plan.userId, (counted.get(plan.userId) ?? 0) + responses);
    result.countedTurns += responses;
    if (session !== undefined) states.set(plan.userId, session.state);
    const messages = new Map<string, number>();
    for (const event of events) {
      const text =
        event.author === 'user'
          ? event.content?.parts.find((part): part is { text: string } => 'text' in part)?.text
          : undefined;
      if (text !== undefined) messages.set(text, (messages.get(text) ?? 0) + 1);
    }
    for (const turn of acknowledged) {
      if (
        `${turn.userId}/${turn.sessionId}` === `${plan.userId}/${plan.sessionId}` &&
        (messages.get(turn.message) ?? 0) > 1
      )
        result.duplicatedEvents += 1;
    }
  }
  for (const turn of acknowledged) {
    const seen = positions.get(`${turn.userId}/${turn.sessionId}`) ?? new Map<string, number>();
    const at = turn.eventIds.map((id) => seen.get(id));
    result.lostEvents += at.filter((position) => position === undefined).length;
    const found = at.filter((position): position is number => position !== undefined);
    if (found.some((position, index) => index > 0 && position <= (found[index - 1] as number))) result.outOfOrder += 1;
  }
  for (const [userId, count] of counted) {
    const stored = Number(states.get(userId)?.['user:turns'] ?? 0);
    if (stored !== count) result.counterMismatches += 1;
    result.lostUpdates += Math.max(0, count - stored);
  }
  return result;
}
