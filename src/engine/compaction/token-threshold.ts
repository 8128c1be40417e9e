import type { CompactionPlan, TokenTrigger } from '../../contracts/compaction.js';
import type { Event } from '../../contracts/event.js';
import { afterCompaction, coveredEventIds, coversEvent, latestCompaction } from './compaction-ranges.js';
import { abandonedCalls, closeOverPairs, cutAtPending, pairSafeEnd, summarizedCallIds } from './pending-calls.js';

export type TokenPlanOptions = {
  /** The prompt size to compare with the threshold; no compaction when unknown. */
  promptTokens: number | undefined;
  /** Compare by the events compactions list (agentctx) or by timestamps only (ADK). Default true. */
  byIds?: boolean;
  /**
   * An event that must stay raw, with everything after it: the user message of the running invocation. ADK may
   * summarize it at request time; agentctx never does.
   */
  keepFrom?: string | undefined;
  /** Id for the synthetic seed event. */
  newId?: () => string;
};

/**
 * The token-threshold compaction due now (ADK's `_run_compaction_for_token_threshold`): when the prompt has reached
 * `tokenThreshold` tokens, summarize every event since the latest summary except the last `eventRetentionSize`,
 * moving the split earlier so a kept response keeps its call, and stopping before calls still waiting. A previous
 * summary is carried in as the seed, so the new one replaces it.
 */
export function planTokenCompaction(
  events: readonly Event[],
  trigger: TokenTrigger,
  options: TokenPlanOptions,
): CompactionPlan | undefined {
  const promptTokens = options.promptTokens;
  if (promptTokens === undefined || promptTokens < trigger.tokenThreshold) return undefined;
  const byIds = options.byIds ?? true;
  const previous = latestCompaction(events, byIds);
  const isNew = afterCompaction(events, previous?.compaction, byIds);
  const candidates = events.filter((event, index) => event.actions.compaction === undefined && isNew(event, index));
  if (candidates.length <= trigger.eventRetentionSize) return undefined;
  // agentctx's rules plan past calls a stopped run abandoned, and past responses to calls already summarized.
  const covered = byIds ? coveredEventIds(events) : new Set<string>();
  const settled = byIds ? abandonedCalls(events) : undefined;
  const summarized = byIds ? summarizedCallIds(events, covered) : undefined;
  const split =
    trigger.eventRetentionSize === 0
      ? candidates.length
      : pairSafeEnd(candidates, candidates.length - trigger.eventRetentionSize, summarized);
  let head = cutAtPending(candidates.slice(0, split), events, settled);
  const keep = options.keepFrom === undefined ? -1 : head.findIndex((event) => event.id === options.keepFrom);
  if (keep !== -1) head = head.slice(0, keep);
  if (byIds) head = closeOverPairs(head, events, covered, settled);
  if (head.length === 0) return undefined;
  const seed = previous === undefined ? undefined : seedEvent(previous.event, previous.compaction, options.newId);
  const previousIds =
    previous === undefined
      ? []
      : (previous.compaction.eventIds ??
        events
          .filter((event) => event.actions.compaction === undefined && coversEvent(previous.compaction, event))
          .map((event) => event.id));
  return {
    trigger: 'token_threshold',
    events: head,
    ...(seed === undefined ? {} : { seed }),
    startTimestamp: (seed ?? (head[0] as Event)).timestamp,
    endTimestamp: (head.at(-1) as Event).timestamp,
    eventIds: [...previousIds, ...head.map((event) => event.id)],
    promptTokens,
  };
}

// The previous summary, dressed as the model's turn at the time its range began (ADK's seed event).
function seedEvent(
  event: Event,
  compaction: NonNullable<Event['actions']['compaction']>,
  newId: (() => string) | undefined,
): Event {
  return {
    id: `seed-${event.id}`,
    invocationId: newId?.() ?? crypto.randomUUID(),
    author: 'model',
    timestamp: compaction.startTimestamp,
    content: compaction.compactedContent,
    actions: { stateDelta: {}, artifactDelta: {} },
  };
}
