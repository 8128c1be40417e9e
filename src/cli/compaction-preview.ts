import type { EventsCompactionConfig, SlidingWindow, TokenTrigger } from '../contracts/compaction.js';
import { compactionTriggers } from '../features/compaction/compaction-config.js';
import { compactionEvent } from '../features/compaction/compaction-event.js';
import { summarizerInput } from '../engine/compaction/compaction-plan.js';
import { type CompactionPlan } from '../contracts/compaction.js';
import { ExtractiveSummarizer } from '../features/compaction/extractive-summarizer.js';
import type { Event } from '../contracts/event.js';

/** What `agentctx compact` found: the compaction due (if any), how the prompt was measured, and the tokens it saves. */
export type CompactionPreview = {
  plan: CompactionPlan | undefined;
  config: EventsCompactionConfig;
  adk: boolean;
  /** The prompt size held against `tokenThreshold` and how it was measured; absent without a token trigger. */
  prompt?: { tokens: number | undefined; how: string };
  /** What the token counts below are of: `the request for 'support_agent'`. */
  counted: string;
  tokensBefore: number;
  /** With the extractive summary in place of the planned events. */
  tokensAfter: number | undefined;
};

/** The id and invocation of the compaction event a dry run imagines; never stored. */
export const DRY_RUN_ID = 'dry-run-compaction';

/**
 * The history as it would be after the plan, with the summary the deterministic `ExtractiveSummarizer` writes
 * (offline, free), stamped with the latest event's time so the result never depends on the clock.
 */
export async function withExtractiveSummary(events: readonly Event[], plan: CompactionPlan): Promise<Event[] | undefined> {
  const summary = await new ExtractiveSummarizer().summarize(summarizerInput(plan), { seeded: plan.seed !== undefined });
  if (summary === undefined) return undefined;
  const latest = Math.max(plan.endTimestamp, ...events.map((event) => event.timestamp));
  return [...events, compactionEvent(plan, summary, DRY_RUN_ID, { now: () => latest, newId: () => DRY_RUN_ID })];
}

/** A configuration's triggers, as `planDueCompaction` takes them. */
export function dueTriggers(config: EventsCompactionConfig): { token?: TokenTrigger[]; window?: SlidingWindow } {
  const { token, window } = compactionTriggers(config);
  return { ...(token === undefined ? {} : { token: [token] }), ...(window === undefined ? {} : { window }) };
}
