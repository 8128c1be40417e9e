import type { EventsCompactionConfig, CompactionPlan } from '../contracts/compaction.js';
import { AgentctxError } from '../contracts/errors/agentctx-error.js';
import type { Event } from '../contracts/event.js';
import type { Profile } from '../contracts/profile.js';
import { summarizerInput } from '../engine/compaction/compaction-plan.js';
import { planDueCompaction } from '../engine/compaction/plan-due.js';
import { dueTriggers } from '../features/compaction/compaction-config.js';
import { compactionEvent } from '../features/compaction/compaction-event.js';
import { ExtractiveSummarizer } from '../features/compaction/extractive-summarizer.js';

/** What `agentctx compact` found: the compaction due (if any), how the prompt was measured, and the tokens it saves. */
export type CompactionPreview = {
  plan: CompactionPlan | undefined;
  config: EventsCompactionConfig;
  adk: boolean;
  /** The prompt size held against `tokenThreshold` and how it was measured; absent without a token trigger. */
  prompt?: MeasuredPrompt;
  /** What the token counts below are of: `the request for 'support_agent'`. */
  counted: string;
  tokensBefore: number;
  /** With the extractive summary in place of the planned events. */
  tokensAfter: number | undefined;
  /**
   * Why no request could be built from the history after the plan: ADK's rules may summarize a call whose response
   * stays raw, and then ADK itself fails on the next call (`No function call event found…`); the dry run says so.
   */
  afterFailure?: string;
};

/** A prompt size, as the runner's compaction measures it at that moment, and in words how it was taken. */
export type MeasuredPrompt = { tokens: number | undefined; how: string };

/** How a history is measured for its preview: its prompt (asked only with a token trigger) and what is counted of it. */
export type PreviewMeasure = {
  prompt: () => Promise<MeasuredPrompt>;
  counted: string;
  tokensBefore: number;
  tokensOf: (events: readonly Event[]) => Promise<number>;
};

/** The id and invocation of the compaction event a dry run imagines; never stored. */
export const DRY_RUN_ID = 'dry-run-compaction';

/**
 * The compaction a history is due for, decided by the runner's own `planDueCompaction` at the `stored` moment under
 * the profile's rules, with the tokens before and after the extractive summary. Nothing is written.
 */
export async function previewCompaction(
  events: readonly Event[],
  config: EventsCompactionConfig,
  profile: Profile,
  measure: PreviewMeasure,
): Promise<CompactionPreview> {
  const prompt = config.tokenThreshold === undefined ? undefined : await measure.prompt();
  const plan = planDueCompaction(events, dueTriggers(config), {
    moment: { kind: 'stored' },
    promptTokens: prompt?.tokens,
    summaries: profile.summaries,
  })?.plan;
  const after = plan === undefined ? undefined : await withExtractiveSummary(events, plan);
  let tokensAfter: number | undefined;
  let afterFailure: string | undefined;
  try {
    tokensAfter = after === undefined ? undefined : await measure.tokensOf(after);
  } catch (error) {
    // The plan is right by its rules; what those rules leave behind may be a history no request can be built from.
    if (!AgentctxError.isInstance(error) || error.code !== 'invalid_history') throw error;
    afterFailure = error.message;
  }
  return {
    plan,
    config,
    adk: profile.summaries === 'adk',
    ...(prompt === undefined ? {} : { prompt }),
    counted: measure.counted,
    tokensBefore: measure.tokensBefore,
    tokensAfter,
    ...(afterFailure === undefined ? {} : { afterFailure }),
  };
}

/**
 * The history as it would be after the plan, with the summary the deterministic `ExtractiveSummarizer` writes
 * (offline, free), stamped with the latest event's time so the result never depends on the clock.
 */
export async function withExtractiveSummary(
  events: readonly Event[],
  plan: CompactionPlan,
): Promise<Event[] | undefined> {
  const summary = await new ExtractiveSummarizer().summarize(summarizerInput(plan), {
    seeded: plan.seed !== undefined,
  });
  if (summary === undefined) return undefined;
  const latest = Math.max(plan.endTimestamp, ...events.map((event) => event.timestamp));
  return [...events, compactionEvent(plan, summary, DRY_RUN_ID, { now: () => latest, newId: () => DRY_RUN_ID })];
}
