import type { AgentNode, AgentTree } from '../../contracts/agent.js';
import type { Event } from '../../contracts/event.js';
import { isLlmAgent } from '../agent/agent-tree.js';

/**
 * Which agent answers a new user message (ADK's `_find_agent_to_run`): the agent whose call a function response
 * answers; otherwise the agent that spoke last, if a conversation can stay with it (it and every ancestor are LLM
 * agents that may hand back to their parent); otherwise the root.
 */
export function findAgentToRun(tree: AgentTree, events: readonly Event[]): AgentNode {
  const caller = callerOfPendingResponse(tree, events);
  if (caller !== undefined) return caller;
  for (let index = events.length - 1; index >= 0; index--) {
    const author = (events[index] as Event).author;
    if (author === 'user') continue;
    if (author === tree.root.name) return tree.root;
    const node = tree.findAgent(author);
    if (node !== undefined && canStayWith(node)) return node;
  }
  return tree.root;
}

function canStayWith(node: AgentNode): boolean {
  for (let current: AgentNode | undefined = node; current !== undefined; current = current.parent) {
    const definition = current.definition;
    if (!isLlmAgent(definition) || definition.disallowTransferToParent) return false;
  }
  return true;
}

// When the last event is a function response (a user answering a tool call), the agent that made the call resumes.
function callerOfPendingResponse(tree: AgentTree, events: readonly Event[]): AgentNode | undefined {
  const last = events.at(-1);
  const responseIds = new Set(
    (last?.content?.parts ?? []).flatMap((part) => ('functionResponse' in part ? [part.functionResponse.id] : [])),
  );
  if (responseIds.size === 0) return undefined;
  for (let index = events.length - 2; index >= 0; index--) {
    const event = events[index] as Event;
    if ((event.content?.parts ?? []).some((part) => 'functionCall' in part && responseIds.has(part.functionCall.id)))
      return tree.findAgent(event.author);
  }
  return undefined;
}
