/**
 * @module agentctx/compaction
 * Keeping long sessions affordable: when to compact (ADK's sliding window and token threshold, planned as pure
 * functions), who writes the summary (a model, or the offline extractive summarizer), and the compaction event.
 * `createRunner({ eventsCompactionConfig })` and agents' `contextCompactors` use all of it; `docs/compaction.md` explains it.
 */
export { TokenBasedContextCompactor } from './features/compaction/compaction-config.js';
export type { CompactionTrigger, ContextCompactor, TokenTrigger } from './contracts/compaction.js';
export type { SummarizeOptions, Summarizer, Summary } from './contracts/summarizer.js';
export { DEFAULT_SUMMARY_PROMPT, LlmSummarizer } from './features/compaction/llm-summarizer.js';
export type { LlmSummarizerOptions } from './features/compaction/llm-summarizer.js';
export { ExtractiveSummarizer } from './features/compaction/extractive-summarizer.js';
export type { ExtractiveSummarizerOptions } from './features/compaction/extractive-summarizer.js';
export type { CompactionMoment } from './engine/compaction/plan-due.js';
export { compactionPlugin } from './features/compaction/compaction-plugin.js';
