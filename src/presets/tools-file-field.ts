import type { Extension } from '../contracts/agent.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import type { McpToolsetSettings } from '../contracts/mcp.js';
import type { JsonSchema } from '../contracts/request.js';
import type { Toolset } from '../contracts/tool.js';
import type { AgentFileField, FieldReader, ToolsetClass } from '../contracts/agent-file-field.js';
import { refuse } from '../engine/config/file-fields.js';
import { joinPath } from '../engine/util/json-reader.js';
import { toolSearch } from '../features/tool-search/tool-search.js';
import { toolBudget } from '../features/tools/tool-budget.js';

/** Makes a toolset from an `mcp:` entry; the CLI passes `mcpToolset` of `agentctx/mcp` (it checks the options). */
export type MakeMcpToolset = (options: McpToolsetSettings) => Toolset;

const SERVER_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'headers'];
const OPTION_KEYS = ['tools', 'order', 'prefix', 'timeoutMs', 'connectTimeoutMs', 'maxResultChars', 'deferred'];
const SNAKE: Readonly<Record<string, string>> = {
  timeout_ms: 'timeoutMs',
  connect_timeout_ms: 'connectTimeoutMs',
  max_result_chars: 'maxResultChars',
  tool_filter: 'tools',
  tool_name_prefix: 'prefix',
};
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
    order: {
      enum: ['sorted', 'server', 'declared'],
      description: 'the order on the wire: sorted by name (default), as the server lists them, or as tools lists them',
    },
    prefix: {
      type: ['boolean', 'string'],
      description: 'true: every name as <name>_<tool>; a string: as <string>_<tool> (tool_name_prefix is accepted)',
    },
    timeoutMs: { type: 'integer', minimum: 1, description: 'one call (default 60000)' },
    connectTimeoutMs: { type: 'integer', minimum: 1, description: 'starting or reaching the server (default 30000)' },
    maxResultChars: {
      type: 'integer',
      minimum: 1,
      description: 'longer results are cut, the whole kept as an artifact (default 20000)',
    },
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
        examples: [
          [
            {
              name: 'files',
              command: 'npx',
              args: ['-y', '@modelcontextprotocol/server-filesystem', '.'],
              tools: ['read_text_file'],
            },
          ],
        ],
      },
      toolSearch: {
        oneOf: [
          { type: 'boolean' },
          {
            type: 'object',
            properties: {
              catalogueTokens: { type: 'integer', minimum: 1 },
              scope: { enum: ['invocation', 'session'] },
            },
            additionalProperties: false,
          },
        ],
        description:
          'true, or its options: deferred tools stay out of the request behind a catalogue and search_tools.',
      },
      toolBudget: {
        type: 'integer',
        minimum: 1,
        description: 'warn when the tool definitions of a request take more tokens than this',
      },
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
          const catalogueTokens = reader.number(options, 'catalogueTokens', at, {
            optional: true,
            integer: true,
            min: 1,
          });
          const scope = options['scope'];
          if (scope !== undefined && scope !== 'invocation' && scope !== 'session')
            reader.issue(joinPath(at, 'scope'), `expected invocation or session, got ${JSON.stringify(scope)}`);
          extensions.push(
            toolSearch({
              ...(catalogueTokens === undefined ? {} : { catalogueTokens }),
              ...(scope === 'session' || scope === 'invocation' ? { scope } : {}),
            }),
          );
        }
      } else if (search !== undefined && search !== false)
        reader.issue(joinPath(path, 'toolSearch'), `expected true, false or a mapping, got ${JSON.stringify(search)}`);
      const budget = reader.number(record, 'toolBudget', path, { optional: true, integer: true, min: 1 });
      if (budget !== undefined) extensions.push(toolBudget({ maxTokens: budget }));
      return { extensions, toolsets };
    },
  };
}

function readMcpEntry(reader: FieldReader, entry: unknown, at: string, make: MakeMcpToolset): Toolset | undefined {
  const raw = reader.object(entry, at, 'a mapping: name, and command (stdio) or url (Streamable HTTP)');
  if (raw === undefined) return undefined;
  const record = Object.fromEntries(
    Object.entries(raw).map(([key, value]) => [Object.hasOwn(SNAKE, key) ? SNAKE[key] : key, value]),
  ) as Record<string, unknown>;
  reader.keys(record, at, ['name', ...SERVER_KEYS, ...OPTION_KEYS]);
  const server = Object.fromEntries(
    SERVER_KEYS.filter((key) => record[key] !== undefined).map((key) => [key, record[key]]),
  );
  const options = Object.fromEntries(
    OPTION_KEYS.filter((key) => record[key] !== undefined).map((key) => [key, record[key]]),
  );
  try {
    return make({ ...options, name: record['name'], server } as McpToolsetSettings);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    // The toolset names its problems by option (`server.url`); in the file the server's fields sit in the entry itself.
    for (const issue of error.issues) reader.issue(joinPath(at, issue.path.replace(/^server\.?/, '')), issue.message);
    return undefined;
  }
}

const ADK_CONNECTIONS = [
  'stdio_server_params',
  'stdio_connection_params',
  'sse_connection_params',
  'streamable_http_connection_params',
];
const ADK_UNSUPPORTED: Readonly<Record<string, string>> = {
  auth_scheme: 'put the credentials in streamable_http_connection_params.headers',
  auth_credential: 'put the credentials in streamable_http_connection_params.headers',
  credential_key: 'put the credentials in streamable_http_connection_params.headers',
  state_header_mapping: 'put the headers in streamable_http_connection_params.headers',
  use_mcp_resources: 'agentctx offers MCP tools; resources reach the model only inside tool results',
  tool_list_cache_ttl_seconds: 'agentctx lists tools again when the server says they changed',
};

/**
 * ADK's `{ name: McpToolset, args: { stdio_server_params | stdio_connection_params | streamable_http_connection_params,
 * tool_filter, tool_name_prefix } }` in an agent file's `tools`, read into the same toolset as an `mcp:` entry. The
 * toolset is named by its prefix, else `mcp_<position in tools>`. SSE servers and ADK's auth options are refused with
 * what to use instead.
 */
export function adkMcpToolsetClass(make: MakeMcpToolset): ToolsetClass {
  return ({ reader, args, path, index }) => {
    const record = reader.object(
      args,
      path,
      'McpToolset\u2019s arguments: a mapping with one of stdio_server_params, stdio_connection_params, streamable_http_connection_params',
    );
    if (record === undefined) return undefined;
    const allowed = [...ADK_CONNECTIONS, 'tool_filter', 'tool_name_prefix', ...Object.keys(ADK_UNSUPPORTED)];
    reader.keys(record, path, allowed);
    for (const [key, instead] of Object.entries(ADK_UNSUPPORTED))
      if (record[key] !== undefined) reader.issue(joinPath(path, key), `is not supported by agentctx: ${instead}`);
    const given = ADK_CONNECTIONS.filter((key) => record[key] != null);
    if (given.length !== 1)
      return reader.issue(
        path,
        `needs exactly one of ${ADK_CONNECTIONS.join(', ')}${given.length === 0 ? '' : `, got ${given.join(' and ')}`}`,
      );
    const key = given[0] as string;
    const at = joinPath(path, key);
    if (key === 'sse_connection_params')
      return reader.issue(
        at,
        'SSE is deprecated in MCP and not supported: serve the server over Streamable HTTP and use streamable_http_connection_params',
      );
    const params = reader.object(record[key], at, 'a mapping');
    if (params === undefined) return undefined;
    let server: Record<string, unknown>;
    let seconds: unknown;
    if (key === 'stdio_server_params') server = params;
    else if (key === 'stdio_connection_params') {
      reader.keys(params, at, ['server_params', 'timeout']);
      server =
        reader.object(
          params['server_params'],
          joinPath(at, 'server_params'),
          'the server: { command, args, env, cwd }',
        ) ?? {};
      seconds = params['timeout'];
    } else {
      reader.keys(params, at, ['url', 'headers', 'timeout', 'sse_read_timeout', 'terminate_on_close']);
      server = { url: params['url'], ...(params['headers'] == null ? {} : { headers: params['headers'] }) };
      seconds = params['timeout'];
    }
    if (seconds !== undefined && !(typeof seconds === 'number' && seconds > 0))
      reader.issue(joinPath(at, 'timeout'), `expected a number of seconds > 0, got ${JSON.stringify(seconds)}`);
    const prefix = record['tool_name_prefix'];
    const settings = {
      name: typeof prefix === 'string' && prefix !== '' ? prefix : `mcp_${index}`,
      server,
      ...(record['tool_filter'] == null ? {} : { tools: record['tool_filter'] }),
      ...(typeof prefix === 'string' && prefix !== '' ? { prefix } : {}),
      ...(typeof seconds === 'number' && seconds > 0 ? { timeoutMs: Math.round(seconds * 1000) } : {}),
    } as McpToolsetSettings;
    try {
      return make(settings);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const spelled: Readonly<Record<string, string>> = {
        tools: 'tool_filter',
        prefix: 'tool_name_prefix',
        name: 'tool_name_prefix',
        timeoutMs: joinPath(key, 'timeout'),
      };
      for (const issue of error.issues) {
        const where = issue.path.startsWith('server')
          ? joinPath(
              key === 'stdio_connection_params' ? joinPath(key, 'server_params') : key,
              issue.path.replace(/^server\.?/, ''),
            )
          : (spelled[issue.path] ?? issue.path);
        reader.issue(joinPath(path, where), issue.message);
      }
      return undefined;
    }
  };
}
