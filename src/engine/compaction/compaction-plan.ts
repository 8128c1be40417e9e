import type { CompactionPlan } from '../../contracts/compaction.js';
import type { Event } from '../../contracts/event.js';

/** The events a summarizer receives for a plan: the seed first, when there is one. */
export function summarizerInput(plan: CompactionPlan): Event[] {
  return plan.seed === undefined ? [...plan.events] : [plan.seed, ...plan.events];
}
