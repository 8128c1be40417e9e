import type { Extension } from '../contracts/agent.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import type { McpToolsetSettings } from '../contracts/mcp.js';
import type { JsonSchema } from '../contracts/request.js';
import type { Toolset } from '../contracts/tool.js';
import type { AgentFileField } from '../engine/config/agent-config.js';
import { refuse } from '../engine/config/file-fields.js';
import { joinPath, type JsonReader } from '../engine/util/json-reader.js';
import { toolSearch } from '../features/tool-search/tool-search.js';
import { toolBudget } from '../features/tools/tool-budget.js';

/** Makes a toolset from an `mcp:` entry; the CLI passes `mcpToolset` of `agentctx/mcp` (it checks the options). */
export type MakeMcpToolset = (options: McpToolsetSettings) => Toolset;

const SERVER_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'headers'];
const OPTION_KEYS = ['tools', 'order', 'prefix', 'timeoutMs', 'connectTimeoutMs', 'maxResultChars', 'deferred'];
const SNAKE: Readonly<Record<string, string>> = { timeout_ms: 'timeoutMs', connect_timeout_ms: 'connectTimeoutMs', max_result_chars: 'maxResultChars', tool_filter: 'tools', tool_name_prefix: 'prefix' };
const strings = { type: 'array', items: { type: 'string' } } as const;
const stringMap = { type: 'object', additionalProperties: { type: 'string' } } as const;

const MCP_ENTRY_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', description: 'names the server in provenance, warnings and prefixes' },
    command: { type: 'string', description: 'a stdio server: the program to run' },
    args: { ...strings, description: 'its arguments' },
    env: { ...stringMap, description: 'added to a safe default environment' },
    cwd: { type: 'string', description: 'the folder it runs in' },
    url: { type: 'string', description: 'a Streamable HTTP server: its URL' },
    headers: { ...stringMap, description: 'sent with every request' },
    tools: { ...strings, description: 'the tools the agent gets (all when absent); tool_filter is accepted' },
    order: { enum: ['sorted', 'server', 'declared'], description: 'the order on the wire: sorted by name (default), as the server lists them, or as tools lists them' },
    prefix: { type: ['boolean', 'string'], description: 'true: every name as <name>_<tool>; a string: as <string>_<tool> (tool_name_prefix is accepted)' },
    timeoutMs: { type: 'integer', minimum: 1, description: 'one call (default 60000)' },
    connectTimeoutMs: { type: 'integer', minimum: 1, description: 'starting or reaching the server (default 30000)' },
    maxResultChars: { type: 'integer', minimum: 1, description: 'longer results are cut, the whole kept as an artifact (default 20000)' },
    deferred: { type: 'boolean', description: 'disclose its tools through tool_search' },
  },
  required: ['name'],
  description: 'An MCP server: command (stdio) or url (Streamable HTTP).',
};

/**
 * `mcp:` (MCP servers whose tools the agent gets), `toolSearch:` (progressive disclosure of deferred tools) and
 * `toolBudget:` (a token budget for tool definitions) in an agent file. Without a toolset maker (no MCP here) `mcp`
 * is refused.
 */
export function toolsField(makeMcpToolset: MakeMcpToolset | undefined): AgentFileField {
  return {
    schema: {
      mcp: {
        type: 'array',
        items: MCP_ENTRY_SCHEMA,
        description: 'MCP servers whose tools the agent gets, after its own tools (docs/mcp.md).',
        examples: [[{ name: 'files', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], tools: ['read_text_file'] }]],
      },
      toolSearch: {
        oneOf: [{ type: 'boolean' }, { type: 'object', properties: { catalogueTokens: { type: 'integer', minimum: 1 }, scope: { enum: ['invocation', 'session'] } }, additionalProperties: false }],
        description: 'true, or its options: deferred tools stay out of the request behind a catalogue and search_tools.',
      },
      toolBudget: { type: 'integer', minimum: 1, description: 'warn when the tool definitions of a request take more tokens than this' },
    },
    read({ reader, record, path }) {
      const extensions: Extension[] = [];
      const toolsets: Toolset[] = [];
      if (record['mcp'] !== undefined) {
        const at = joinPath(path, 'mcp');
        if (makeMcpToolset === undefined) return refuse(reader, at);
        (reader.array(record['mcp'], at) ?? []).forEach((entry, index) => {
          const toolset = readMcpEntry(reader, entry, `${at}[${index}]`, makeMcpToolset);
          if (toolset !== undefined) toolsets.push(toolset);
        });
      }
      const search = record['toolSearch'];
      if (search === true || (typeof search === 'object' && search !== null)) {
        const at = joinPath(path, 'toolSearch');
        const options = search === true ? {} : reader.object(search, at, 'true or a mapping: catalogueTokens, scope');
        if (options !== undefined) {
          reader.keys(options, at, ['catalogueTokens', 'scope']);
          const catalogueTokens = reader.number(options, 'catalogueTokens', at, { optional: true, integer: true, min: 1 });
          const scope = options['scope'];
          if (scope !== undefined && scope !== 'invocation' && scope !== 'session') reader.issue(joinPath(at, 'scope'), `expected invocation or session, got ${JSON.stringify(scope)}`);
          extensions.push(toolSearch({ ...(catalogueTokens === undefined ? {} : { catalogueTokens }), ...(scope === 'session' || scope === 'invocation' ? { scope } : {}) }));
        }
      } else if (search !== undefined && search !== false) reader.issue(joinPath(path, 'toolSearch'), `expected true, false or a mapping, got ${JSON.stringify(search)}`);
      const budget = reader.number(record, 'toolBudget', path, { optional: true, integer: true, min: 1 });
      if (budget !== undefined) extensions.push(toolBudget({ maxTokens: budget }));
      return { extensions, toolsets };
    },
  };
}

function readMcpEntry(reader: JsonReader, entry: unknown, at: string, make: MakeMcpToolset): Toolset | undefined {
  const raw = reader.object(entry, at, 'a mapping: name, and command (stdio) or url (Streamable HTTP)');
  if (raw === undefined) return undefined;
  const record = Object.fromEntries(Object.entries(raw).map(([key, value]) => [Object.hasOwn(SNAKE, key) ? SNAKE[key] : key, value])) as Record<string, unknown>;
  reader.keys(record, at, ['name', ...SERVER_KEYS, ...OPTION_KEYS]);
  const server = Object.fromEntries(SERVER_KEYS.filter((key) => record[key] !== undefined).map((key) => [key, record[key]]));
  const options = Object.fromEntries(OPTION_KEYS.filter((key) => record[key] !== undefined).map((key) => [key, record[key]]));
  try {
    return make({ ...options, name: record['name'], server } as McpToolsetSettings);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    // The toolset names its problems by option (`server.url`); in the file the server's fields sit in the entry itself.
    for (const issue of error.issues) reader.issue(joinPath(at, issue.path.replace(/^server\.?/, '')), issue.message);
    return undefined;
  }
}
