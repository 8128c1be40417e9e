import type { Event } from '../../contracts/event.js';

/**
 * The prompt size the provider billed most recently. ADK takes the last event in list order that carries one,
 * compaction events included, whose usage is the summarizer's own call (`adk` true). agentctx skips compaction
 * events and any count older than the latest compaction, which measured a history that is no longer sent.
 */
export function latestPromptTokens(events: readonly Event[], adk: boolean): number | undefined {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (!adk && event.actions.compaction !== undefined) return undefined;
    if (event.usage?.promptTokens !== undefined) return event.usage.promptTokens;
  }
  return undefined;
}
