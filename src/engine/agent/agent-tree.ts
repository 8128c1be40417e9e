import type { AgentDefinition, AgentNode, AgentTree, LlmAgentDefinition, LlmAgentNode } from '../../contracts/agent.js';
import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Toolset } from '../../contracts/tool.js';

// Definitions read from an agent file that two files name (see `mayRecur`).
const recurring = new WeakSet<AgentDefinition>();

/**
 * Lets this definition (and those under it) sit under more than one parent of a tree, as ADK builds an agent file that two files name (a
 * node under each; its name finds the first, depth first, as ADK's `find_agent` does). Only the agent-file reader
 * marks definitions so: a definition object a program places twice is refused, as ADK refuses an agent given a
 * second parent.
 */
export function mayRecur(definition: AgentDefinition): AgentDefinition {
  recurring.add(definition);
  for (const child of definition.subAgents) mayRecur(child);
  return definition;
}

/** Links every agent to its parent, once. Names must be unique in the tree, as transfers address agents by name. */
export function createAgentTree(root: AgentDefinition): AgentTree {
  const byName = new Map<string, AgentNode>();
  const nodes: AgentNode[] = [];
  const build = (definition: AgentDefinition, parent: AgentNode | undefined): AgentNode => {
    const existing = byName.get(definition.name);
    if (existing !== undefined && !(existing.definition === definition && recurring.has(definition))) {
      const where = (node: AgentNode | undefined) => (node === undefined ? 'at the root' : `under '${node.name}'`);
      throw new ValidationError({
        subject: 'agent tree',
        issues: [
          { path: definition.name, message: `the name is used twice: ${where(existing.parent)} and ${where(parent)}` },
        ],
        hint: 'Agent names must be unique in a tree; rename one of them.',
      });
    }
    const children: AgentNode[] = [];
    const node: AgentNode = { definition, name: definition.name, parent, children };
    if (existing === undefined) byName.set(definition.name, node);
    nodes.push(node);
    for (const child of definition.subAgents) children.push(build(child, node));
    Object.freeze(children);
    return Object.freeze(node);
  };
  const rootNode = build(root, undefined);
  return {
    root: rootNode,
    nodes: Object.freeze(nodes),
    findAgent: (name) => byName.get(name),
    getAgent(name) {
      const node = byName.get(name);
      if (node === undefined) {
        throw new NotFoundError({
          resource: 'agent',
          id: name,
          message: `No agent named '${name}' in the tree.`,
          hint: `The agents are: ${[...byName.keys()].join(', ')}.`,
        });
      }
      return node;
    },
  };
}

export function isLlmAgent(definition: AgentDefinition): definition is LlmAgentDefinition {
  return definition.kind === 'llm';
}

/** Whether a node's agent talks to a model: its definition is then an `LlmAgentDefinition`, with no cast. */
/** The model an agent calls by name: its own, or its nearest LLM ancestor's, as ADK resolves its canonical model. */
export function inheritedModel(node: AgentNode): string | undefined {
  for (let current: AgentNode | undefined = node; current !== undefined; current = current.parent)
    if (isLlmAgent(current.definition) && current.definition.model !== undefined) return current.definition.model;
  return undefined;
}

export function isLlmNode(node: AgentNode): node is LlmAgentNode {
  return node.definition.kind === 'llm';
}

/** Every toolset of these agents, their sub-agents and the agents their agent tools run, once each, in order. */
export function toolsetsOf(definitions: readonly AgentDefinition[]): Set<Toolset> {
  const found = new Set<Toolset>();
  const seen = new Set<AgentDefinition>();
  const visit = (definition: AgentDefinition): void => {
    if (seen.has(definition)) return;
    seen.add(definition);
    if (isLlmAgent(definition)) {
      for (const toolset of definition.toolsets) found.add(toolset);
      for (const tool of definition.tools) if (tool.agent !== undefined) visit(tool.agent as AgentDefinition);
    }
    for (const child of definition.subAgents) visit(child);
  };
  definitions.forEach(visit);
  return found;
}
