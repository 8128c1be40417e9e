import type { Event } from '../../contracts/event.js';
import type { Profile } from '../../contracts/profile.js';
import type { AssembledRequest } from '../../contracts/provenance.js';
import type { TokenCounter } from '../../contracts/tokens.js';
import { latestPromptTokens } from '../../engine/compaction/prompt-tokens.js';
import { pythonStr } from '../../engine/python/python-format.js';
import { countRequestTokens } from '../../engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../../engine/tokens/token-counter.js';
import { buildContents } from '../contents/build-contents.js';
import type { CompactionView } from '../contents/compaction-view.js';
import type { ContentsCache } from '../contents/contents-cache.js';

/**
 * A prompt size, and which measure gave it: `billed` (the provider's latest count), `estimate` (ADK's characters / 4),
 * `local` (the local tokenizer's count of the conversation), or `request` (the larger of the local count of the
 * request about to be sent, `local`, and the latest billed count since the last summary, `billed`).
 */
export type PromptMeasure = {
  tokens: number | undefined;
  by: 'billed' | 'estimate' | 'local' | 'request';
  local?: number;
  billed?: number;
};

/**
 * The prompt size a token trigger is held against before a model call. agentctx measures the request about to be sent
 * with the local tokenizer and takes the provider's latest count when larger, so one huge tool result cannot slip
 * through uncompacted; ADK's rule takes the latest billed count, else the conversation's characters divided by four.
 */
export async function promptBeforeCall(
  events: readonly Event[],
  assembled: AssembledRequest,
  profile: Profile,
  agentName: string,
  branch: string | undefined,
): Promise<PromptMeasure> {
  if (profile.promptTokens === 'adk')
    return billedOr(latestPromptTokens(events, true), () => ({
      tokens: estimatePromptTokensAdk(events, agentName, branch),
      by: 'estimate',
    }));
  const local = countRequestTokens(assembled.request, await loadTokenCounter(), assembled.provenance).total;
  const billed = latestPromptTokens(events, false);
  return { tokens: Math.max(local, billed ?? 0), by: 'request', local, ...(billed === undefined ? {} : { billed }) };
}

/**
 * The prompt size after an invocation: the latest billed count (since the last summary, for agentctx), else the local
 * count of the conversation the root agent sees (agentctx) or ADK's characters / 4.
 */
export async function promptAfterInvocation(
  events: readonly Event[],
  profile: Profile,
  rootName: string,
  cache?: ContentsCache,
): Promise<PromptMeasure> {
  if (profile.promptTokens === 'adk')
    return billedOr(latestPromptTokens(events, true), () => ({
      tokens: estimatePromptTokensAdk(events, '', undefined),
      by: 'estimate',
    }));
  const counter = await loadTokenCounter();
  return billedOr(latestPromptTokens(events, false), () => ({
    tokens: countContentsTokens(events, rootName, undefined, counter, 'exact', cache),
    by: 'local',
  }));
}

function billedOr(billed: number | undefined, otherwise: () => PromptMeasure): PromptMeasure {
  return billed === undefined ? otherwise() : { tokens: billed, by: 'billed', billed };
}

/**
 * ADK's fallback estimate when no event carries a count: the characters (code points) of every text part in the
 * contents the agent would see, divided by four; `undefined` for none.
 */
export function estimatePromptTokensAdk(
  events: readonly Event[],
  agentName: string,
  branch: string | undefined,
): number | undefined {
  const messages = buildContents(events, {
    agentName,
    branch,
    preserveFunctionCallIds: false,
    embed: pythonStr,
    compactionView: 'adk',
  });
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
export function countContentsTokens(
  events: readonly Event[],
  agentName: string,
  branch: string | undefined,
  counter: TokenCounter,
  view: CompactionView = 'exact',
  cache?: ContentsCache,
): number {
  const options = { agentName, branch, preserveFunctionCallIds: false, embed: pythonStr, compactionView: view };
  const messages = cache === undefined ? buildContents(events, options) : cache.build(events, options, 'python');
  return countRequestTokens(
    { system: '', tools: [], messages: messages.map((draft) => draft.message), config: {} },
    counter,
  ).total;
}
