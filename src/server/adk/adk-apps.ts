import type { AgentNode } from '../../contracts/agent.js';
import { appRunner, type AdkHandler } from './adk-context.js';

/** `GET /list-apps` → the app names, sorted. */
export const listAdkApps: AdkHandler = async (context) => ({ status: 200, body: [...context.apps.keys()].sort() });

/** `GET /version` → `{ version }`: agentctx's, where ADK answers with its own. */
export const adkVersion: AdkHandler = async (context) => ({ status: 200, body: { version: context.version } });

/** An agent as ADK's `build_graph` describes it: snake_case keys, as in ADK Python. */
type GraphNode = {
  name: string;
  type: 'agent';
  description?: string;
  model?: string;
  tools?: { name: string; type: 'tool' }[];
  sub_agents?: GraphNode[];
};

/** `GET /dev/apps/{app}/build_graph` → `{ name, root_agent }`: the agent tree with each agent's tools, for the dev UI's graph. */
export const adkBuildGraph: AdkHandler = async (context) => {
  const runner = appRunner(context);
  return { status: 200, body: { name: runner.appName, root_agent: graphNode(runner.tree.root) } };
};

/**
 * `GET /dev/apps/{app}/build_graph_image[?dark_mode=true]` → the agent tree in Graphviz DOT, under the root's path
 * (`""`) and at the top (`dotSrc`), as the dev UI reads it.
 */
export const adkBuildGraphImage: AdkHandler = async (context) => {
  const runner = appRunner(context);
  const dark = context.url.searchParams.get('dark_mode') === 'true';
  const dotSrc = agentDot(runner.tree.root, dark);
  return { status: 200, body: { '': { dotSrc }, dotSrc } };
};

function graphNode(node: AgentNode): GraphNode {
  const definition = node.definition;
  const tools =
    definition.kind === 'llm'
      ? [...definition.tools.map((tool) => tool.name), ...definition.toolsets.map((toolset) => toolset.name)]
      : [];
  return {
    name: node.name,
    type: 'agent',
    ...(definition.description === undefined || definition.description === ''
      ? {}
      : { description: definition.description }),
    ...(definition.kind === 'llm' && definition.model !== undefined ? { model: definition.model } : {}),
    ...(tools.length === 0 ? {} : { tools: tools.map((name) => ({ name, type: 'tool' as const })) }),
    ...(node.children.length === 0 ? {} : { sub_agents: node.children.map(graphNode) }),
  };
}

// Agents as boxes, tools as ellipses, an edge from each agent to its sub-agents and its tools.
function agentDot(root: AgentNode, dark: boolean): string {
  const ink = dark ? '#e8eaed' : '#202124';
  const lines = [
    'digraph G {',
    `  rankdir=LR; bgcolor="transparent"; node [fontname="Helvetica", color="${ink}", fontcolor="${ink}"]; edge [color="${ink}"];`,
  ];
  const visit = (node: AgentNode): void => {
    lines.push(`  ${quote(node.name)} [shape=box, style=rounded];`);
    const definition = node.definition;
    if (definition.kind === 'llm') {
      for (const name of [
        ...definition.tools.map((tool) => tool.name),
        ...definition.toolsets.map((toolset) => toolset.name),
      ]) {
        const id = `${node.name}/${name}`;
        lines.push(`  ${quote(id)} [shape=ellipse, label=${quote(name)}];`, `  ${quote(node.name)} -> ${quote(id)};`);
      }
    }
    for (const child of node.children) {
      visit(child);
      lines.push(`  ${quote(node.name)} -> ${quote(child.name)};`);
    }
  };
  visit(root);
  lines.push('}');
  return lines.join('\n');
}

function quote(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
