import type { Part } from '../../contracts/content.js';
import type { DraftMessage } from '../../contracts/draft.js';
import type { Event } from '../../contracts/event.js';
import type { Source } from '../../contracts/source.js';
import { answerAbandonedCalls } from './abandoned-calls.js';
import { substituteCompactions, type CompactionView } from './compaction-view.js';
import { applyRewinds, shouldIncludeEvent } from './event-visibility.js';
import { findOtherAgentEvents, isOtherAgentReply, presentOtherAgentEvent, type EmbedValue } from './other-agent.js';
import { rearrangeAsyncResponses, rearrangeLatestResponse } from './rearrange.js';
import { toWorkEvent, type WorkEvent } from './work-event.js';

export type ContentsOptions = {
  /** The agent the request is for; its own turns stay model turns, every other agent's are retold. */
  agentName: string;
  branch: string | undefined;
  /** Keep generated function call ids (see `generatedCallIdPrefix`), for providers that pair calls by id. */
  preserveFunctionCallIds: boolean;
  /** The prefix of ids the runner generated for calls that came without one (`adk-`, as ADK does); hidden unless preserved. */
  generatedCallIdPrefix?: string | undefined;
  /** How retold tool arguments and results are written. */
  embed: EmbedValue;
  /** How summaries replace what they stand for: agentctx's exact substitution (default) or ADK's. */
  compactionView?: CompactionView | undefined;
  /**
   * Answer, in the request only, calls a stopped run left open once a later turn began, as the runner will when it is
   * sure they are not running (agentctx's rules; ADK sends them open, and strict providers refuse the request).
   */
  answerAbandonedCalls?: boolean | undefined;
};

/**
 * The conversation an agent sees, built from session events exactly as ADK's `_get_contents` does: rewinds,
 * then visibility (empty, other branch, framework calls), compaction summaries, other agents' turns retold as
 * context, and function responses placed right after their calls. Parts are shared with the events, not copied.
 */
export function buildContents(events: readonly Event[], options: ContentsOptions): DraftMessage[] {
  return buildSettledContents(events, options).messages;
}

/**
 * {@link buildContents}, telling also whether later events that neither rewind, summarize nor answer an earlier call
 * can only add messages after these (what `ContentsCache` may keep): judged on the events shown, not on the raw
 * ones, the history does not end in a response that ADK's latest-response rearrangement folded back to its call
 * (with more events it would not be), and every call shown has its response (an open one may later be answered as
 * interrupted).
 */
export function buildSettledContents(
  events: readonly Event[],
  options: ContentsOptions,
): { messages: DraftMessage[]; settled: boolean } {
  const visible = applyRewinds(events.map(toWorkEvent)).filter((event) => shouldIncludeEvent(options.branch, event));
  // Stryker disable next-line StringLiteral: substituteCompactions treats every view but 'adk' as exact
  const processed = visible.some((event) => event.actions.compaction !== undefined)
    ? substituteCompactions(visible, options.compactionView ?? 'exact')
    : visible;
  const others = findOtherAgentEvents(options.agentName, processed);
  const presented: WorkEvent[] = [];
  for (const event of processed) {
    if (!others.has(event)) {
      presented.push(event);
      continue;
    }
    const retold = presentOtherAgentEvent(event, options.embed);
    if (retold !== undefined) presented.push(retold);
  }
  const latest = rearrangeLatestResponse(presented);
  const rearranged = rearrangeAsyncResponses(latest);
  const settled = latest === presented && !leavesCallsOpen(rearranged);
  const arranged = options.answerAbandonedCalls === true ? answerAbandonedCalls(rearranged) : rearranged;
  const messages: DraftMessage[] = [];
  const prefix = options.generatedCallIdPrefix ?? GENERATED_ID_PREFIX;
  for (const event of arranged) {
    if (event.role === undefined) continue;
    const content =
      options.preserveFunctionCallIds || !event.parts.some((part) => hasGeneratedId(part, prefix))
        ? event.parts
        : event.parts.map((part) => withoutGeneratedId(part, prefix));
    messages.push({ message: { role: event.role, content: content as Part[] }, sources: event.sources as Source[] });
  }
  return { messages, settled };
}

// Whether some call has no response after it (calls without an id pair with responses without one).
function leavesCallsOpen(events: readonly WorkEvent[]): boolean {
  const open = new Set<string | undefined>();
  for (const event of events) {
    for (const call of event.calls) open.add(call.id);
    for (const response of event.responses) open.delete(response.id);
  }
  return open.size > 0;
}

/**
 * The events of the current turn, for `includeContents: 'none'`: from the latest visible event by the user or by
 * another agent. A user's function response also starts a turn there, which leaves it without its call (as in ADK).
 */
export function currentTurnEvents(
  events: readonly Event[],
  agentName: string,
  branch: string | undefined,
): readonly Event[] {
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (!shouldIncludeEvent(branch, toWorkEvent(event))) continue;
    if (event.author === 'user' || isOtherAgentReply(agentName, event.author)) return events.slice(index);
  }
  return [];
}

// ADK generates `adk-<uuid>` ids for calls that came without one and hides them from the model.
export const GENERATED_ID_PREFIX = 'adk-';

function hasGeneratedId(part: Part, prefix: string): boolean {
  if ('functionCall' in part) return part.functionCall.id?.startsWith(prefix) === true;
  if ('functionResponse' in part) return part.functionResponse.id?.startsWith(prefix) === true;
  return false;
}

function withoutGeneratedId(part: Part, prefix: string): Part {
  if ('functionCall' in part && part.functionCall.id?.startsWith(prefix) === true) {
    const { id: _id, ...call } = part.functionCall;
    return { ...part, functionCall: call };
  }
  if ('functionResponse' in part && part.functionResponse.id?.startsWith(prefix) === true) {
    const { id: _id, ...response } = part.functionResponse;
    return { ...part, functionResponse: response };
  }
  return part;
}

/**
 * Places messages made before the history (the dynamic instruction beside a static one) just before the trailing run
 * of plain user messages, so they never land between a call and its response (ADK's `_add_instructions_to_user_content`).
 */
export function insertInstructionMessages(
  messages: readonly DraftMessage[],
  instructionMessages: readonly DraftMessage[],
): DraftMessage[] {
  // Stryker disable next-line ConditionalExpression: a shortcut; the general path returns the same copy when there is nothing to insert
  if (instructionMessages.length === 0) return [...messages];
  let insertAt = messages.length;
  for (let index = messages.length - 1; index >= 0; index--) {
    const { message } = messages[index] as DraftMessage;
    if (message.role !== 'user' || message.content.some((part) => 'functionResponse' in part)) {
      insertAt = index + 1;
      break;
    }
    insertAt = index;
  }
  return [...messages.slice(0, insertAt), ...instructionMessages, ...messages.slice(insertAt)];
}
