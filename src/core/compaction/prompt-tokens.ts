import { buildContents } from '../processors/contents/build-contents.js';
import type { CompactionView } from '../processors/contents/compaction-view.js';
import type { ContentsCache } from '../processors/contents/contents-cache.js';
import type { Event } from '../session/event.js';
import { pythonStr } from '../state/template/python-format.js';
import { countRequestTokens } from '../tokens/count-request-tokens.js';
import type { TokenCounter } from '../tokens/token-counter.js';

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

/**
 * ADK's fallback estimate when no event carries a count: the characters (code points) of every text part in the
 * contents the agent would see, divided by four; `undefined` for none.
 */
export function estimatePromptTokensAdk(events: readonly Event[], agentName: string, branch: string | undefined): number | undefined {
  const messages = buildContents(events, { agentName, branch, preserveFunctionCallIds: false, embed: pythonStr, compactionView: 'adk' });
  let chars = 0;
  for (const { message } of messages) {
    for (const part of message.content) if ('text' in part) for (const _ of part.text) chars++;
  }
  return chars === 0 ? undefined : Math.floor(chars / 4);
}

/**
 * The local tokenizer's count of the conversation an agent would see (no system text or tools). With the session's
 * `ContentsCache`, a long session costs only its new events.
 */
export function countContentsTokens(events: readonly Event[], agentName: string, branch: string | undefined, counter: TokenCounter, view: CompactionView = 'exact', cache?: ContentsCache): number {
  const options = { agentName, branch, preserveFunctionCallIds: false, embed: pythonStr, compactionView: view };
  const messages = cache === undefined ? buildContents(events, options) : cache.build(events, options, 'python');
  return countRequestTokens({ system: '', tools: [], messages: messages.map((draft) => draft.message), config: {} }, counter).total;
}
