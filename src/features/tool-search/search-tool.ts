import type { DraftTool } from '../../contracts/draft.js';
import type { ArgsCheck, Tool } from '../../contracts/tool.js';
import { createToolIndex, type ToolIndex } from './bm25.js';
import { firstLine, type Catalogue } from './catalogue.js';

/** How many tools a search loads when the model does not say, and at most. */
export const DEFAULT_SEARCH_LIMIT = 5;
export const MAX_SEARCH_LIMIT = 10;

/**
 * The `search_tools` tool of one request: its description holds the catalogue; a call searches the deferred tools
 * (the index is built on the first call, so a request the model does not search with costs nothing) and answers with
 * the tools it loaded (`loaded`, which later requests read back from the session) and a line for each.
 */
export function searchTool(name: string, deferred: readonly DraftTool[], catalogue: Catalogue): Tool {
  let index: ToolIndex | undefined;
  const lines = new Map(deferred.map((entry) => [entry.declaration.name, firstLine(entry.declaration.description)]));
  const description = [
    `Searches the ${deferred.length} tools that are not loaded yet and loads the best matches: their definitions are in your tools from your next step on (calling one before it is loaded fails).`,
    'Search with words for what you need done, such as the action and what it acts on. The tools:',
    catalogue.text,
  ].join('\n');
  return Object.freeze({
    name,
    description,
    parameters: {
      type: 'object',
      properties: {
        query: {
          type: 'string',
          description:
            'Words for what you need done, such as "create a pull request" or "post a message to a channel".',
        },
        limit: {
          type: 'integer',
          description: `How many tools to load, 1 to ${MAX_SEARCH_LIMIT} (default ${DEFAULT_SEARCH_LIMIT}).`,
        },
      },
      required: ['query'],
    },
    checkArgs: (args: Record<string, unknown>): ArgsCheck => {
      const query = args['query'];
      const limit = args['limit'] ?? DEFAULT_SEARCH_LIMIT;
      const issues: string[] = [];
      if (typeof query !== 'string' || query.trim() === '') issues.push('query: expected words to search for');
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1)
        issues.push(`limit: expected a whole number from 1 to ${MAX_SEARCH_LIMIT}`);
      if (issues.length > 0) return { ok: false, issues };
      return {
        ok: true,
        value: { query: (query as string).trim(), limit: Math.min(limit as number, MAX_SEARCH_LIMIT) },
      };
    },
    execute: (args: Record<string, unknown>) => {
      const query = String(args['query'] ?? '');
      const limit = typeof args['limit'] === 'number' ? args['limit'] : DEFAULT_SEARCH_LIMIT;
      index ??= createToolIndex(
        deferred.map((entry) => ({
          name: entry.declaration.name,
          description: entry.declaration.description,
          ...(entry.declaration.parameters === undefined ? {} : { parameters: entry.declaration.parameters }),
          ...toolsetOf(entry),
        })),
      );
      const found = index.search(query, limit).map((hit) => hit.name);
      if (found.length === 0) {
        return {
          query,
          loaded: [],
          result: `No tool matches ${JSON.stringify(query)}. Search again with other words (what the tool does, what it acts on); this tool's description lists every tool.`,
        };
      }
      const listed = found.map((tool) => `- ${tool}${lines.get(tool) ? `: ${lines.get(tool)}` : ''}`).join('\n');
      return {
        query,
        loaded: found,
        result: `Loaded ${found.length} tool${found.length === 1 ? '' : 's'}; call ${found.length === 1 ? 'it' : 'them'} from your next step on:\n${listed}`,
      };
    },
  });
}

function toolsetOf(entry: DraftTool): { toolset?: string } {
  const origin = entry.source.tool;
  return origin !== undefined && (origin.kind === 'toolset' || origin.kind === 'mcp')
    ? { toolset: origin.toolset }
    : {};
}
