import type { AssemblyContext, Processor } from '../../contracts/agent.js';
import type { RequestDraft } from '../../contracts/draft.js';
import type { Source, ToolOrigin } from '../../contracts/source.js';
import type { Tool, Toolset } from '../../contracts/tool.js';
import { withTool } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { isValidToolName, toolDeclaration } from '../../engine/tools/tool.js';

export const TOOLS_PROCESSOR = 'tools';

type Offered = { tool: Tool; source: Source };

/**
 * The agent's own tools, in declaration order, then its toolsets' (each listed for this request, in its own order),
 * then those of the extensions in effect (plugins', then the agent's), after every other processor (as ADK adds
 * them); each with what the runner calls for it. A tool whose `isAvailable` says no for this state is left out. A
 * toolset's tool whose name another tool of the request has is renamed `<toolset>_<name>`; a toolset that cannot list
 * its tools is left out with a warning, and the request goes on.
 */
export const toolDeclarationsProcessor: Processor = defineProcessor({
  name: TOOLS_PROCESSOR,
  async process(draft, context): Promise<RequestDraft> {
    const agent = context.agent.name;
    const own: Offered[] = [];
    context.agent.tools.forEach((tool, index) => {
      own.push({
        tool,
        source: { kind: 'tool', processor: TOOLS_PROCESSOR, agent, field: `tools[${index}]`, ...originOf(tool) },
      });
    });
    const extensions: Offered[] = [];
    for (const extension of context.extensions) {
      (extension.tools ?? []).forEach((tool, index) => {
        extensions.push({
          tool,
          source: {
            kind: 'tool',
            processor: TOOLS_PROCESSOR,
            agent,
            extension: extension.name,
            field: `${extension.name}.tools[${index}]`,
            ...originOf(tool),
          },
        });
      });
    }
    const warnings: string[] = [];
    const listed = await Promise.all(
      context.agent.toolsets.map((toolset, index) => listToolset(toolset, index, context, warnings)),
    );
    const fromToolsets = renameCollisions(
      agent,
      listed,
      [...own, ...extensions, ...draft.tools.map((entry) => ({ tool: { name: entry.declaration.name } }))],
      warnings,
    );
    let next: RequestDraft = warnings.length === 0 ? draft : { ...draft, warnings: [...draft.warnings, ...warnings] };
    for (const { tool, source } of [...own, ...fromToolsets, ...extensions]) {
      if (tool.isAvailable?.(context.state) === false) continue;
      next = withTool(next, toolDeclaration(tool), source, tool);
    }
    return next;
  },
});

function originOf(tool: Tool): { tool?: ToolOrigin } {
  return tool.agent === undefined ? {} : { tool: { kind: 'agent' } };
}

async function listToolset(
  toolset: Toolset,
  index: number,
  context: AssemblyContext,
  warnings: string[],
): Promise<{ toolset: Toolset; index: number; tools: readonly Tool[] }> {
  try {
    const listing = await toolset.listTools({
      agentName: context.agent.name,
      appName: context.appName,
      userId: context.userId,
      sessionId: context.sessionId,
      state: context.state,
    });
    warnings.push(...(listing.warnings ?? []).map((warning) => `toolset '${toolset.name}': ${warning}`));
    return { toolset, index, tools: listing.tools };
  } catch (error) {
    warnings.push(
      `toolset '${toolset.name}' could not list its tools, so they are left out of this request: ${error instanceof Error ? error.message : String(error)}`,
    );
    return { toolset, index, tools: [] };
  }
}

/**
 * The toolsets' tools with their sources. A name the agent's own tools, its extensions', another toolset's or an
 * earlier processor's already use is prefixed with the toolset's name (each colliding toolset's copy is), so every
 * name of a request is unique and stays the same from request to request while the tools do.
 */
function renameCollisions(
  agent: string,
  listed: { toolset: Toolset; index: number; tools: readonly Tool[] }[],
  fixed: readonly { tool: Pick<Tool, 'name'> }[],
  warnings: string[],
): Offered[] {
  const counts = new Map<string, number>();
  const count = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const { tool } of fixed) count(tool.name);
  const wireName = (toolset: Toolset, tool: Tool) =>
    toolset.prefix === undefined ? tool.name : `${toolset.prefix}_${tool.name}`;
  for (const { toolset, tools } of listed)
    for (const name of new Set(tools.map((entry) => wireName(toolset, entry)))) count(name);
  const offered: Offered[] = [];
  const taken = new Set(fixed.map(({ tool }) => tool.name));
  for (const { toolset, index, tools } of listed) {
    tools.forEach((tool, at) => {
      const wire = wireName(toolset, tool);
      const name = (counts.get(wire) ?? 0) > 1 ? `${toolset.name}_${wire}` : wire;
      if (!isValidToolName(name) || taken.has(name)) {
        warnings.push(
          `toolset '${toolset.name}': tool '${tool.name}' is left out: ${taken.has(name) ? `'${name}' is taken` : `'${name}' is not a valid tool name`}`,
        );
        return;
      }
      taken.add(name);
      const origin: ToolOrigin =
        toolset.origin?.kind === 'mcp'
          ? { kind: 'mcp', toolset: toolset.name, server: toolset.origin.server, name: tool.name }
          : { kind: 'toolset', toolset: toolset.name, name: tool.name };
      const renamed = name === tool.name ? tool : { ...tool, name };
      offered.push({
        tool: toolset.deferred === true && renamed.deferred !== true ? { ...renamed, deferred: true } : renamed,
        source: {
          kind: 'tool',
          processor: TOOLS_PROCESSOR,
          agent,
          field: `toolsets[${index}].tools[${at}]`,
          tool: origin,
        },
      });
    });
  }
  return offered;
}
