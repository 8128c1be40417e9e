import type { Model } from '../../contracts/model.js';
import { SUMMARIZER_AGENT } from '../../engine/runner/side-call.js';
import type {
  AgentDefinition,
  AgentNode,
  AgentTree,
  InvocationContext,
  Plugin,
  PluginHooks,
} from '../../contracts/agent.js';
import type {
  CompactionPlan,
  ContextCompactor,
  EventsCompactionConfig,
  TokenTrigger,
} from '../../contracts/compaction.js';
import type { Event } from '../../contracts/event.js';
import type { Summarizer } from '../../contracts/summarizer.js';
import { isLlmAgent } from '../../engine/agent/agent-tree.js';
import { summarizerInput } from '../../engine/compaction/compaction-plan.js';
import { planDueCompaction } from '../../engine/compaction/plan-due.js';
import { CONTENTS_MEMO } from '../contents/contents-processor.js';
import { compactionTriggers, dueTriggers } from './compaction-config.js';
import { compactionEventInput } from './compaction-event.js';
import { LlmSummarizer } from './llm-summarizer.js';
import { promptAfterInvocation, promptBeforeCall } from './measure-prompt.js';

/**
 * Compaction for a runner, as a plugin: ADK's app-level `EventsCompactionConfig` (a sliding window after
 * invocations, a token threshold before each model call and after invocations) and each agent's `contextCompactors`,
 * which take the token trigger's place for that agent. `createRunner` registers it last among the plugins, when
 * anything is configured. Given the agents, it hooks only what they and the configuration need: before calls when a
 * token trigger applies to some agent, after invocations when the runner has a trigger. The configuration is checked
 * here, so a bad one fails when the runner is made, not in the middle of a conversation.
 */
export function compactionPlugin(
  config: EventsCompactionConfig | undefined,
  agents?: AgentDefinition | AgentTree,
): Plugin {
  const triggers = compactionTriggers(config);
  const afterInvocation = dueTriggers(config);
  const beforeCalls =
    triggers.token !== undefined ||
    agents === undefined ||
    hasCompactors('root' in agents ? agents.root.definition : agents);
  const afterRuns = triggers.token !== undefined || triggers.window !== undefined;
  // Whether a token compaction ran before one of the invocation's calls: then it has had its turn.
  const tokenCompacted = new WeakSet<InvocationContext>();
  const hooks: PluginHooks = {
    async afterAssembly({ agent, branch, context, assembled }) {
      const definition = agent.definition;
      const agentTriggers: readonly (TokenTrigger & { summarizer?: Summarizer | undefined })[] =
        definition.contextCompactors ?? (triggers.token === undefined ? [] : [triggers.token]);
      if (agentTriggers.length === 0) return undefined;
      const { events, profile } = context;
      const promptTokens = (await promptBeforeCall(events, assembled, profile, agent.name, branch)).tokens;
      const runningTurn = events.find(
        (event) => event.invocationId === context.invocationId && event.author === 'user',
      )?.id;
      const due = planDueCompaction(
        events,
        { token: agentTriggers },
        {
          moment: { kind: 'before-call', runningTurn },
          promptTokens,
          summaries: profile.summaries,
          newId: () => context.newId(),
        },
      );
      if (due === undefined) return undefined;
      const compactor = agentTriggers[due.trigger ?? 0] as ContextCompactor;
      const event = await summarizeAndStore(context, due.plan, compactor.summarizer ?? triggers.summarizer, agent);
      if (event === undefined) return undefined;
      tokenCompacted.add(context);
      // A compaction changes the history, so the request is built again from it.
      return { reassemble: event.actions.compaction !== undefined };
    },
    async afterRun({ context }) {
      const root = context.agents.nodes.find((node) => isLlmAgent(node.definition));
      if (root === undefined || (triggers.token === undefined && triggers.window === undefined)) return;
      const fired = tokenCompacted.has(context);
      const { events, profile } = context;
      const promptTokens =
        triggers.token === undefined || fired
          ? undefined
          : (await promptAfterInvocation(events, profile, root.name, context.memo.get(CONTENTS_MEMO))).tokens;
      const due = planDueCompaction(events, afterInvocation, {
        moment: { kind: 'after-invocation', tokenCompacted: fired },
        promptTokens,
        summaries: profile.summaries,
        newId: () => context.newId(),
      });
      if (due !== undefined) await summarizeAndStore(context, due.plan, triggers.summarizer, root);
    },
  };
  return Object.freeze({
    name: 'compaction',
    hooks: Object.freeze({
      ...(beforeCalls ? { afterAssembly: hooks.afterAssembly } : {}),
      ...(afterRuns ? { afterRun: hooks.afterRun } : {}),
    }),
  });
}

// Whether any agent, in the tree or run as an agent tool, compacts on its own (`contextCompactors`).
function hasCompactors(agent: AgentDefinition, seen: Set<AgentDefinition> = new Set()): boolean {
  if (seen.has(agent)) return false;
  seen.add(agent);
  if (agent.kind === 'llm') {
    if ((agent.contextCompactors?.length ?? 0) > 0) return true;
    for (const tool of [...agent.tools, ...agent.extensions.flatMap((extension) => extension.tools ?? [])]) {
      if (tool.agent !== undefined && hasCompactors(tool.agent as AgentDefinition, seen)) return true;
    }
  }
  return agent.subAgents.some((child) => hasCompactors(child, seen));
}

// The summary, as a stored compaction event; a summarizer that fails leaves the history as it was, and says so.
async function summarizeAndStore(
  context: InvocationContext,
  plan: CompactionPlan,
  summarizer: Summarizer | undefined,
  node: AgentNode,
): Promise<Event | undefined> {
  // A model's summary is a call like any other: recorded (its request, answer, usage, wire), priced and traced.
  const record = (model: Model) => context.recordedModel(model, SUMMARIZER_AGENT, 'the history to summarize');
  const chosen =
    summarizer === undefined
      ? new LlmSummarizer({ model: record(await context.modelFor(node)), profile: context.profile })
      : summarizer instanceof LlmSummarizer
        ? summarizer.withModel(record(summarizer.model))
        : summarizer;
  let summary;
  try {
    summary = await chosen.summarize(summarizerInput(plan), {
      signal: context.signal,
      seeded: plan.seed !== undefined,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = `Compaction (${plan.trigger}) of ${plan.events.length} events was skipped: the ${chosen.name} summarizer failed: ${reason}`;
    return context.appendEvent({ author: 'user', errorCode: 'compaction_failed', errorMessage: message });
  }
  if (summary === undefined) return undefined;
  return context.appendEvent(compactionEventInput(plan, summary));
}
