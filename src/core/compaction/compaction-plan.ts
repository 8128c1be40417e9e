import type { Event } from '../session/event.js';

/** What triggered a compaction. */
export type CompactionTrigger = 'token_threshold' | 'sliding_window';

/** A compaction worked out but not yet summarized: what a dry run shows, and what a summarizer receives. */
export type CompactionPlan = {
  readonly trigger: CompactionTrigger;
  /** The raw events the summary will stand for, oldest first; never a compaction event. */
  readonly events: readonly Event[];
  /** The summary this one continues (rolling): a synthetic event at the previous summary's start, shown to the summarizer first. */
  readonly seed?: Event;
  readonly startTimestamp: number;
  readonly endTimestamp: number;
  /** Every event the summary stands for: the seed's events and the new ones. */
  readonly eventIds: readonly string[];
  /** The prompt size that set off a token compaction. */
  readonly promptTokens?: number;
};

/** The events a summarizer receives for a plan: the seed first, when there is one. */
export function summarizerInput(plan: CompactionPlan): Event[] {
  return plan.seed === undefined ? [...plan.events] : [plan.seed, ...plan.events];
}
