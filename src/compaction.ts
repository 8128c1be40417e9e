/**
 * @module agentctx/compaction
 * Keeping long sessions affordable: when to compact (ADK's sliding window and token threshold, planned as pure
 * functions), who writes the summary (a model, or the offline extractive summarizer), and the compaction event.
 * `createRunner({ eventsCompactionConfig })` and agents' `contextCompactors` use all of it; `docs/compaction.md` explains it.
 */
export { parseCompactionConfig, TokenBasedContextCompactor } from './features/compaction/compaction-config.js';
export type { CompactionPlan, CompactionTrigger, ContextCompactor, EventsCompactionConfig, SlidingWindow, TokenTrigger } from './contracts/compaction.js';
export type { SummarizeOptions, Summarizer, Summary } from './contracts/summarizer.js';
export { DEFAULT_SUMMARY_PROMPT, LlmSummarizer } from './features/compaction/llm-summarizer.js';
export type { LlmSummarizerOptions } from './features/compaction/llm-summarizer.js';
export { ExtractiveSummarizer } from './features/compaction/extractive-summarizer.js';
export type { ExtractiveSummarizerOptions } from './features/compaction/extractive-summarizer.js';
export { planDueCompaction } from './engine/compaction/plan-due.js';
export type { CompactionMoment, DueCompaction, DueCompactionOptions } from './engine/compaction/plan-due.js';
export { planCompaction } from './engine/compaction/plan-compaction.js';
export type { PlanCompactionOptions } from './engine/compaction/plan-compaction.js';
export { planSlidingWindow } from './engine/compaction/sliding-window.js';
export { planTokenCompaction } from './engine/compaction/token-threshold.js';
export type { TokenPlanOptions } from './engine/compaction/token-threshold.js';
export { summarizerInput } from './engine/compaction/compaction-plan.js';
export { latestPromptTokens } from './engine/compaction/prompt-tokens.js';
export { compactionEvent } from './features/compaction/compaction-event.js';
export { renderEvents } from './features/compaction/render-events.js';
export { compactionPlugin } from './features/compaction/compaction-plugin.js';
