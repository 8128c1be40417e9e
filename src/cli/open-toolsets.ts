import type { Toolset } from '../contracts/tool.js';

// The toolsets of every agent a command loaded or made from a file: a command that only assembles a request (inspect,
// check) starts MCP servers too, and the process must not wait on them when it is done.
const opened = new Set<Toolset>();

/** Remembers a toolset to close when the command ends; returns it. */
export function trackToolsets<T extends Toolset>(toolset: T): T {
  opened.add(toolset);
  return toolset;
}

/** Closes every toolset remembered in this process (MCP servers end); `main` calls it as a command ends. */
export async function closeOpenToolsets(): Promise<void> {
  const toolsets = [...opened];
  opened.clear();
  await Promise.allSettled(toolsets.map((toolset) => toolset.close?.()));
}
