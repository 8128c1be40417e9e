import type { CompactionPlan, EventsCompactionConfig } from '../../contracts/compaction.js';
import type { Event } from '../../contracts/event.js';
import type { Profile } from '../../contracts/profile.js';
import { planSlidingWindow } from './sliding-window.js';
import { planTokenCompaction } from './token-threshold.js';

export type PlanCompactionOptions = {
  /** The prompt size to hold against `tokenThreshold`; the token trigger is not considered without it. */
  promptTokens?: number | undefined;
  /** ADK's rules (`adk`: timestamps instead of listed events, and the current user message may be summarized); `exact` by default. */
  summaries?: Profile['summaries'] | undefined;
  /** An event that must stay raw with everything after it (the running invocation's user message). */
  keepFrom?: string | undefined;
  newId?: () => string;
};

/**
 * The compaction a configuration calls for now, as the runner would make it after an invocation: the token trigger
 * first (it wins the turn), else the sliding window. Plans only; nothing is summarized or written.
 */
export function planCompaction(
  events: readonly Event[],
  config: EventsCompactionConfig,
  options: PlanCompactionOptions = {},
): CompactionPlan | undefined {
  const byIds = options.summaries !== 'adk';
  if (config.tokenThreshold !== undefined && config.eventRetentionSize !== undefined) {
    const trigger = { tokenThreshold: config.tokenThreshold, eventRetentionSize: config.eventRetentionSize };
    const plan = planTokenCompaction(events, trigger, {
      promptTokens: options.promptTokens,
      byIds,
      keepFrom: options.keepFrom,
      ...(options.newId === undefined ? {} : { newId: options.newId }),
    });
    if (plan !== undefined) return plan;
  }
  if (config.compactionInterval === undefined || config.overlapSize === undefined) return undefined;
  return planSlidingWindow(
    events,
    { compactionInterval: config.compactionInterval, overlapSize: config.overlapSize },
    byIds,
  );
}
