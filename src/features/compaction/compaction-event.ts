import type { CompactionPlan } from '../../contracts/compaction.js';
import type { Event, EventInput } from '../../contracts/event.js';
import type { StoreClock } from '../../contracts/session-store.js';
import type { Summary } from '../../contracts/summarizer.js';
import { createEvent } from '../../engine/session/create-event.js';

/**
 * The event that records a compaction: by the user (as in ADK), without content of its own, holding the summary, the
 * time range and the ids of the events it stands for, and the summarizer's usage so its cost is on record.
 */
export function compactionEvent(
  plan: CompactionPlan,
  summary: Summary,
  invocationId: string,
  clock: StoreClock = {},
): Event {
  return createEvent({ ...compactionEventInput(plan, summary), invocationId }, clock);
}

/** The fields of a compaction event, for a runner to give an id, a time and its invocation. */
export function compactionEventInput(plan: CompactionPlan, summary: Summary): Omit<EventInput, 'invocationId'> {
  return {
    author: 'user',
    actions: {
      compaction: {
        startTimestamp: plan.startTimestamp,
        endTimestamp: plan.endTimestamp,
        compactedContent: { role: 'model', parts: summary.content.parts },
        eventIds: [...plan.eventIds],
      },
    },
    ...(summary.usage === undefined ? {} : { usage: summary.usage }),
  };
}
