import type { AgentTree } from '../contracts/agent.js';
import { isLlmAgent } from '../engine/agent/agent-tree.js';

/**
 * The tools of a tree that are declared without an implementation (an agent file's `{ name, description, parameters }`),
 * by agent: the model can call them, and gets an error result each time. `run` and `serve` say so at start.
 */
export function unboundTools(tree: AgentTree): { agent: string; tool: string }[] {
  const found: { agent: string; tool: string }[] = [];
  for (const node of tree.nodes) {
    const agent = node.definition;
    if (!isLlmAgent(agent)) continue;
    for (const tool of agent.tools) {
      // An agent tool runs its agent; any other tool runs its `execute`.
      if (tool.execute === undefined && tool.agent === undefined) found.push({ agent: agent.name, tool: tool.name });
    }
  }
  return found;
}

/** The start-up warning for them, or undefined when every declared tool runs. */
export function unboundToolsWarning(tree: AgentTree): string | undefined {
  const found = unboundTools(tree);
  if (found.length === 0) return undefined;
  const names = found.map((each) => `${each.tool} (${each.agent})`).join(', ');
  return `${found.length === 1 ? 'a tool is' : `${found.length} tools are`} declared without an implementation, so a call of ${found.length === 1 ? 'it' : 'one'} answers the model with an error: ${names}. Write ${found.length === 1 ? 'it' : 'them'} in a JavaScript or TypeScript agent module to run ${found.length === 1 ? 'it' : 'them'}.`;
}
