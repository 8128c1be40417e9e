import type { AgentNode } from '../agent/agent-tree.js';
import { isLlmAgent, type LlmAgentDefinition } from '../agent/agent.js';
import { compactionEvent } from '../compaction/compaction-event.js';
import { summarizerInput, type CompactionPlan } from '../compaction/compaction-plan.js';
import { LlmSummarizer } from '../compaction/llm-summarizer.js';
import { countContentsTokens, estimatePromptTokensAdk, latestPromptTokens } from '../compaction/prompt-tokens.js';
import { planSlidingWindow } from '../compaction/sliding-window.js';
import type { Summarizer } from '../compaction/summarizer.js';
import { planTokenCompaction, type TokenTrigger } from '../compaction/token-threshold.js';
import type { AssembledRequest } from '../request/assemble.js';
import type { Event } from '../session/event.js';
import { countRequestTokens } from '../tokens/count-request-tokens.js';
import { loadTokenCounter } from '../tokens/token-counter.js';
import type { AgentRun, Invocation } from './invocation.js';

type Trigger = TokenTrigger & { summarizer?: Summarizer | undefined };

/**
 * Before a model call: the token trigger of the agent about to be asked (its `contextCompactors`, else the runner's
 * `eventsCompactionConfig`). agentctx measures the request about to be sent with the local tokenizer, and takes the
 * provider's latest count when larger, so one huge tool result cannot slip through uncompacted; ADK compatibility
 * uses ADK's count (the latest billed one, else characters / 4). Returns the compaction event, stored, if one was made.
 */
export async function compactBeforeCall(run: AgentRun, assembled: AssembledRequest): Promise<Event | undefined> {
  const { invocation, node, branch } = run;
  const agent = node.definition as LlmAgentDefinition;
  const triggers: readonly Trigger[] = agent.contextCompactors ?? (invocation.settings.compaction.token === undefined ? [] : [invocation.settings.compaction.token]);
  if (triggers.length === 0) return undefined;
  const events = invocation.session.events;
  const adk = invocation.settings.adkCompatibility;
  let promptTokens: number | undefined;
  if (adk) promptTokens = latestPromptTokens(events, true) ?? estimatePromptTokensAdk(events, agent.name, branch);
  else {
    const local = countRequestTokens(assembled.request, await loadTokenCounter(), assembled.provenance).total;
    promptTokens = Math.max(local, latestPromptTokens(events, false) ?? 0);
  }
  const keepFrom = adk ? undefined : events.find((event) => event.invocationId === invocation.id && event.author === 'user')?.id;
  for (const trigger of triggers) {
    const plan = planTokenCompaction(events, trigger, { promptTokens, byIds: !adk, keepFrom, newId: invocation.settings.newId });
    if (plan === undefined) continue;
    const event = await summarizeAndStore(invocation, plan, trigger.summarizer, node);
    if (event !== undefined) invocation.tokenCompacted = true;
    return event;
  }
  return undefined;
}

/**
 * After an invocation: the token trigger, unless it already fired during the invocation; then, if it did not fire,
 * the sliding window. (ADK runs the window even after a request-time token compaction; agentctx lets the token
 * trigger win the turn, except in ADK compatibility.)
 */
export async function compactAfterInvocation(invocation: Invocation): Promise<Event | undefined> {
  const { compaction, adkCompatibility: adk, tree } = invocation.settings;
  const events = invocation.session.events;
  const root = tree.nodes.find((node) => isLlmAgent(node.definition));
  if (root === undefined) return undefined;
  if (compaction.token !== undefined && !invocation.tokenCompacted) {
    const promptTokens = adk
      ? (latestPromptTokens(events, true) ?? estimatePromptTokensAdk(events, '', undefined))
      : (latestPromptTokens(events, false) ?? countContentsTokens(events, root.name, undefined, await loadTokenCounter(), 'exact', invocation.contents));
    const plan = planTokenCompaction(events, compaction.token, { promptTokens, byIds: !adk, newId: invocation.settings.newId });
    if (plan !== undefined) return summarizeAndStore(invocation, plan, undefined, root);
  }
  if (compaction.window === undefined || (invocation.tokenCompacted && !adk)) return undefined;
  const plan = planSlidingWindow(events, compaction.window, !adk);
  return plan === undefined ? undefined : summarizeAndStore(invocation, plan, undefined, root);
}

// The summary, as a stored compaction event; a summarizer that fails leaves the history as it was, and says so.
async function summarizeAndStore(invocation: Invocation, plan: CompactionPlan, summarizer: Summarizer | undefined, node: AgentNode): Promise<Event | undefined> {
  const settings = invocation.settings;
  const chosen = summarizer ?? settings.compaction.summarizer ?? new LlmSummarizer({ model: await settings.modelFor(node.definition as LlmAgentDefinition, node), adkCompatibility: settings.adkCompatibility });
  let summary;
  try {
    summary = await chosen.summarize(summarizerInput(plan), { signal: invocation.signal, seeded: plan.seed !== undefined });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `Compaction (${plan.trigger}) of ${plan.events.length} events was skipped: the ${chosen.name} summarizer failed: ${reason}`;
    return invocation.persist(invocation.event({ author: 'user', errorCode: 'compaction_failed', errorMessage: message }));
  }
  if (summary === undefined) return undefined;
  return invocation.persist(compactionEvent(plan, summary, invocation.id, { now: settings.now, newId: settings.newId }));
}
