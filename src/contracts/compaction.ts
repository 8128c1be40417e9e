import type { Event } from './event.js';
import type { Summarizer } from './summarizer.js';

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

/**
 * When to compact a session's history (ADK's `EventsCompactionConfig`). The sliding window summarizes every
 * `compactionInterval` completed invocations, reaching `overlapSize` invocations back into the previous window; the
 * token trigger summarizes all but the last `eventRetentionSize` events once a prompt reaches `tokenThreshold`
 * tokens. Each pair goes together; either may be used alone (ADK wants the window always); when both fire in a
 * turn, the token trigger wins.
 */
export type EventsCompactionConfig = {
  compactionInterval?: number;
  overlapSize?: number;
  tokenThreshold?: number;
  eventRetentionSize?: number;
  /** Writes the summaries; by default an LLM summarizer on the agent's own model. */
  summarizer?: Summarizer;
};

/** The sliding window's settings, checked (both present). */
export type SlidingWindow = { compactionInterval: number; overlapSize: number };

/** The token trigger's settings, checked (both present). */
export type TokenTrigger = { tokenThreshold: number; eventRetentionSize: number };

/**
 * Token-threshold compaction for one agent, @google/adk's `contextCompactors` entry (`TokenBasedContextCompactor`
 * makes one): summarize all but the last `eventRetentionSize` events once a prompt reaches `tokenThreshold` tokens.
 */
export type ContextCompactor = {
  readonly tokenThreshold: number;
  readonly eventRetentionSize: number;
  /** Writes the summaries; by default an LLM summarizer on the agent's own model. */
  readonly summarizer?: Summarizer | undefined;
};
