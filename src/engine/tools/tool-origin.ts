import type { Source } from '../../contracts/source.js';

/** Where a tool definition came from, in words: its group (what `--tokens` sums by) and a one-line label. */
export type ToolOriginText = { group: string; label: string };

/**
 * Names a tool definition's origin from its source: an MCP server and the tool's name there, another toolset, an
 * extension (paging, skills, tool search, …), an agent tool, or the agent's own function tool.
 */
export function describeToolOrigin(source: Source | undefined): ToolOriginText {
  const origin = source?.tool;
  if (origin?.kind === 'mcp')
    return { group: `MCP ${origin.server}`, label: `MCP server ${origin.server}, tool ${origin.name}` };
  if (origin?.kind === 'built-in')
    return { group: `built-in ${origin.provider}`, label: `built-in tool of ${origin.provider}` };
  if (origin?.kind === 'toolset')
    return { group: `toolset ${origin.toolset}`, label: `toolset ${origin.toolset}, tool ${origin.name}` };
  if (source?.extension !== undefined)
    return { group: `extension ${source.extension}`, label: `extension ${source.extension}` };
  if (origin?.kind === 'agent') return { group: 'agent tools', label: 'agent tool' };
  if (source === undefined) return { group: 'unknown', label: 'unknown source' };
  return { group: 'function tools', label: 'function tool' };
}

/** Tool tokens summed by origin group, largest first (ties by name), with the number of tools in each. */
export function toolTokensByOrigin(
  sources: readonly (Source | undefined)[],
  tokens: readonly number[],
): { group: string; tools: number; tokens: number }[] {
  const groups = new Map<string, { group: string; tools: number; tokens: number }>();
  sources.forEach((source, index) => {
    const { group } = describeToolOrigin(source);
    const entry = groups.get(group) ?? { group, tools: 0, tokens: 0 };
    entry.tools += 1;
    entry.tokens += tokens[index] ?? 0;
    groups.set(group, entry);
  });
  return [...groups.values()].sort(
    (a, b) => b.tokens - a.tokens || (a.group < b.group ? -1 : a.group > b.group ? 1 : 0),
  );
}
