import type { CompactionPlan, SlidingWindow, TokenTrigger } from '../../contracts/compaction.js';
import type { Event } from '../../contracts/event.js';
import type { Profile } from '../../contracts/profile.js';
import { planSlidingWindow } from './sliding-window.js';
import { planTokenCompaction } from './token-threshold.js';

/**
 * When compaction is considered: before an agent's model call (token triggers only; `runningTurn` is the invocation's
 * user message, never summarized under agentctx's rules), after an invocation (the token trigger unless it already
 * fired during the invocation, then the sliding window), or for a stored history that may end mid-turn (`agentctx
 * compact`: as after an invocation, with the turn still running kept out of the window and its question kept raw).
 */
export type CompactionMoment =
  | { readonly kind: 'before-call'; readonly runningTurn: string | undefined }
  | { readonly kind: 'after-invocation'; readonly tokenCompacted: boolean }
  | { readonly kind: 'stored' };

export type DueCompactionOptions = {
  readonly moment: CompactionMoment;
  /** The prompt size held against a token threshold; token triggers are not considered without it. */
  readonly promptTokens: number | undefined;
  /** The profile's rules for summaries (`exact` or ADK's). */
  readonly summaries: Profile['summaries'];
  readonly newId?: () => string;
};

/** The compaction due now, and which token trigger (by position) set it off: `undefined` for the sliding window. */
export type DueCompaction = { readonly plan: CompactionPlan; readonly trigger: number | undefined };

/**
 * The one decision of when to compact and what, shared by the runner and `agentctx compact`: the token triggers in
 * order (the first that plans something wins), then the sliding window, as the moment allows. Plans only; nothing is
 * summarized or written.
 */
export function planDueCompaction(
  events: readonly Event[],
  triggers: { token?: readonly TokenTrigger[]; window?: SlidingWindow | undefined },
  options: DueCompactionOptions,
): DueCompaction | undefined {
  const byIds = options.summaries === 'exact';
  const { moment } = options;
  const newId = options.newId === undefined ? {} : { newId: options.newId };
  const running = moment.kind === 'stored' ? runningTurnStart(events) : undefined;
  // Stryker disable next-line OptionalChaining: equivalent, running is undefined or the index of an event of `events` (runningTurnStart finds it there), so events[running] is never undefined where it is read
  const keepFrom = !byIds
    ? undefined
    : moment.kind === 'before-call'
      ? moment.runningTurn
      : running !== undefined && events[running]?.author === 'user'
        ? events[running]?.id
        : undefined;
  const tokenAllowed = moment.kind !== 'after-invocation' || !moment.tokenCompacted;
  if (tokenAllowed) {
    // Stryker disable next-line ArrayDeclaration: equivalent, an entry with no tokenThreshold or eventRetentionSize never plans (pairSafeEnd to a NaN end keeps no event), so the window decides as with no entry
    const tokens = triggers.token ?? [];
    for (let index = 0; index < tokens.length; index++) {
      const plan = planTokenCompaction(events, tokens[index] as TokenTrigger, {
        promptTokens: options.promptTokens,
        byIds,
        keepFrom,
        ...newId,
      });
      if (plan !== undefined) return { plan, trigger: index };
    }
  }
  if (moment.kind === 'before-call' || triggers.window === undefined) return undefined;
  // agentctx lets a token compaction win its turn; ADK slides the window after it all the same.
  if (moment.kind === 'after-invocation' && moment.tokenCompacted && byIds) return undefined;
  const finished =
    running === undefined
      ? events
      : events.filter((event, index) => index < running || event.actions.compaction !== undefined);
  const plan = planSlidingWindow(finished, triggers.window, byIds);
  return plan === undefined ? undefined : { plan, trigger: undefined };
}

/**
 * Where the turn still running begins (its user message), or `undefined` when the history ends with a finished turn:
 * an agent's answer that calls no tool, an error, an escalation or a final tool response.
 */
export function runningTurnStart(events: readonly Event[]): number | undefined {
  const last = events.findLast(
    (event) =>
      event.actions.compaction === undefined &&
      event.partial !== true &&
      (hasParts(event) || event.errorCode !== undefined),
  );
  if (last === undefined || finishesTurn(last)) return undefined;
  const own = (event: Event) => event.actions.compaction === undefined && event.invocationId === last.invocationId;
  if (last.invocationId !== '') {
    const start = events.findIndex((event) => own(event) && event.author === 'user');
    return start === -1 ? events.findIndex(own) : start;
  }
  // Events without invocation ids (hand-written cases): the turn begins at the latest user text.
  const start = events.findLastIndex(
    (event) =>
      event.actions.compaction === undefined &&
      event.author === 'user' &&
      (event.content?.parts ?? []).some((part) => 'text' in part),
  );
  return start === -1 ? undefined : start;
}

function hasParts(event: Event): boolean {
  return (event.content?.parts.length ?? 0) > 0;
}

function finishesTurn(event: Event): boolean {
  if (event.author === 'user') return false;
  if (event.errorCode !== undefined || event.actions.escalate === true || event.actions.skipSummarization === true)
    return true;
  // Stryker disable next-line OptionalChaining,ArrayDeclaration: equivalent, only the last event with parts reaches here (one with only an error code returned above), so content.parts is always there
  return !(event.content?.parts ?? []).some((part) => 'functionCall' in part || 'functionResponse' in part);
}
