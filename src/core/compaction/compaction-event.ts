import { createEvent } from '../session/create-event.js';
import type { Event } from '../session/event.js';
import type { StoreClock } from '../session/session-store.js';
import type { CompactionPlan } from './compaction-plan.js';
import type { Summary } from './summarizer.js';

/**
 * The event that records a compaction: by the user (as in ADK), without content of its own, holding the summary, the
 * time range and the ids of the events it stands for, and the summarizer's usage so its cost is on record.
 */
export function compactionEvent(plan: CompactionPlan, summary: Summary, invocationId: string, clock: StoreClock = {}): Event {
  return createEvent(
    {
      author: 'user',
      invocationId,
      actions: {
        compaction: {
          startTimestamp: plan.startTimestamp,
          endTimestamp: plan.endTimestamp,
          compactedContent: { role: 'model', parts: summary.content.parts },
          eventIds: [...plan.eventIds],
        },
      },
      ...(summary.usage === undefined ? {} : { usage: summary.usage }),
    },
    clock,
  );
}
