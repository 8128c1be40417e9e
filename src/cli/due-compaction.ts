import type { EventsCompactionConfig } from '../core/compaction/compaction-config.js';
import type { CompactionPlan } from '../core/compaction/compaction-plan.js';
import { planCompaction } from '../core/compaction/plan-compaction.js';
import type { Event } from '../core/session/event.js';

export type DueOptions = {
  /** The prompt size held against `tokenThreshold`. */
  promptTokens: number | undefined;
  /** ADK's rules: timestamps instead of listed events, and the running turn's user message may be summarized. */
  adk: boolean;
};

/**
 * The compaction due now for a stored history, as the runner would make it: the token trigger first (in agentctx
 * mode never reaching the user message of a turn still running), else the sliding window over the turns that have
 * finished (the runner only slides it after an invocation).
 */
export function planDueCompaction(events: readonly Event[], config: EventsCompactionConfig, options: DueOptions): CompactionPlan | undefined {
  const running = runningTurnStart(events);
  const { tokenThreshold, eventRetentionSize, compactionInterval, overlapSize } = config;
  if (tokenThreshold !== undefined && eventRetentionSize !== undefined) {
    const first = running === undefined ? undefined : events[running];
    const keepFrom = options.adk || first?.author !== 'user' ? undefined : first.id;
    const plan = planCompaction(events, { tokenThreshold, eventRetentionSize }, { promptTokens: options.promptTokens, adkCompatibility: options.adk, keepFrom });
    if (plan !== undefined) return plan;
  }
  if (compactionInterval === undefined || overlapSize === undefined) return undefined;
  const finished = running === undefined ? events : events.filter((event, index) => index < running || event.actions.compaction !== undefined);
  return planCompaction(finished, { compactionInterval, overlapSize }, { adkCompatibility: options.adk });
}

/**
 * Where the turn still running begins (its user message), or `undefined` when the history ends with a finished turn:
 * an agent's answer that calls no tool, an error, an escalation or a final tool response.
 */
export function runningTurnStart(events: readonly Event[]): number | undefined {
  const last = events.findLast((event) => event.actions.compaction === undefined && event.partial !== true && (hasParts(event) || event.errorCode !== undefined));
  if (last === undefined || finishesTurn(last)) return undefined;
  const own = (event: Event) => event.actions.compaction === undefined && event.invocationId === last.invocationId;
  if (last.invocationId !== '') {
    const start = events.findIndex((event) => own(event) && event.author === 'user');
    return start === -1 ? events.findIndex(own) : start;
  }
  // Events without invocation ids (hand-written cases): the turn begins at the latest user text.
  const start = events.findLastIndex((event) => event.actions.compaction === undefined && event.author === 'user' && (event.content?.parts ?? []).some((part) => 'text' in part));
  return start === -1 ? undefined : start;
}

function hasParts(event: Event): boolean {
  return (event.content?.parts.length ?? 0) > 0;
}

function finishesTurn(event: Event): boolean {
  if (event.author === 'user') return false;
  if (event.errorCode !== undefined || event.actions.escalate === true || event.actions.skipSummarization === true) return true;
  return !(event.content?.parts ?? []).some((part) => 'functionCall' in part || 'functionResponse' in part);
}
