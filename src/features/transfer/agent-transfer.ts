import type { AgentNode, Processor } from '../../contracts/agent.js';
import type { RequestDraft } from '../../contracts/draft.js';
import { isLlmAgent } from '../../engine/agent/agent-tree.js';
import { withSystemBlock, withTool } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import {
  refusedTransfers,
  TRANSFER_TO_AGENT,
  transferToAgentDeclaration,
  transferToAgentTool,
} from './transfer-to-agent.js';

export const AGENT_TRANSFER_PROCESSOR = 'agent-transfer';

/** Where an agent may hand the conversation: its sub-agents, then its parent, then its peers (ADK's order). */
export function transferTargets(node: AgentNode): AgentNode[] {
  const targets = node.children.filter(acceptsTransfers);
  const parent = node.parent;
  const definition = node.definition;
  // ADK looks for the parent's transfer flags; a workflow parent has none, so neither it nor its children are targets.
  if (parent === undefined || !isLlmAgent(parent.definition) || !isLlmAgent(definition)) return targets;
  if (!definition.disallowTransferToParent) targets.push(parent);
  if (!definition.disallowTransferToPeers)
    targets.push(...parent.children.filter((peer) => peer.name !== node.name && acceptsTransfers(peer)));
  return targets;
}

// ADK 2.0: task and single-turn agents are called as tools, never transferred to.
function acceptsTransfers(node: AgentNode): boolean {
  const definition = node.definition;
  return !isLlmAgent(definition) || (definition.mode !== 'task' && definition.mode !== 'single_turn');
}

/** ADK's transfer instructions, byte for byte: targets in order, names sorted by code point in the NOTE line. */
export function transferInstructions(node: AgentNode, targets: readonly AgentNode[]): string {
  const infos = targets
    .map((target) => `\nAgent name: ${target.name}\nAgent description: ${target.definition.description}\n`)
    .join('\n');
  const names = targets
    .map((target) => target.name)
    .sort(compareCodePoints)
    .map((name) => `\`${name}\``)
    .join(', ');
  let text = `
You have a list of other agents to transfer to:

${infos}

If you are the best to answer the question according to your description,
you can answer it.

If another agent is better for answering the question according to its
description, call \`${TRANSFER_TO_AGENT}\` function to transfer the question to that
agent. When transferring, do not generate any text other than the function
call.

**NOTE**: the only available agents for \`${TRANSFER_TO_AGENT}\` function are
${names}.
`;
  const definition = node.definition;
  if (node.parent !== undefined && isLlmAgent(definition) && !definition.disallowTransferToParent) {
    text += `\nIf neither you nor the other agents are best for the question, transfer to your parent agent ${node.parent.name}.\n`;
  }
  return text;
}

// Python sorts strings by code point; JavaScript's default sort compares UTF-16 units, which differs above U+FFFF.
function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const difference = (left[i]?.codePointAt(0) ?? 0) - (right[i]?.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/** The transfer text and the `transfer_to_agent` declaration, when the agent has anywhere to transfer to. */
export const agentTransferProcessor: Processor = defineProcessor({
  name: AGENT_TRANSFER_PROCESSOR,
  process(draft, context): RequestDraft {
    const targets = transferTargets(context.node);
    const refusedBefore = refusedTransfers(context.events, context.invocationId);
    // With nowhere to go, a model that asks to transfer anyway is answered, not left with an unknown tool.
    if (targets.length === 0)
      return {
        ...draft,
        handlers: [...(draft.handlers ?? []), transferToAgentTool(context.node.name, [], refusedBefore)],
      };
    const source = {
      kind: 'transfer' as const,
      processor: AGENT_TRANSFER_PROCESSOR,
      agent: context.agent.name,
      note: `targets ${targets.map((target) => target.name).join(', ')}, with their descriptions`,
    };
    // ADK 2.0 gives task and single-turn agents an empty transfer text, which still leaves a separator behind.
    const ownMode = context.agent.mode;
    const text = ownMode === 'task' || ownMode === 'single_turn' ? '' : transferInstructions(context.node, targets);
    const withText = withSystemBlock(draft, text, source);
    const names = targets.map((target) => target.name);
    const tool = transferToAgentTool(context.node.name, names, refusedBefore);
    const declaration = transferToAgentDeclaration(names, { titles: context.profile.functionDeclarations === 'adk' });
    return withTool(withText, declaration, source, tool);
  },
});
