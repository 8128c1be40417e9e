import type { ToolContext } from '../contracts/contexts.js';
import { McpError } from '../contracts/errors/mcp-error.js';
import { ValidationError, type ValidationIssue } from '../contracts/errors/validation-error.js';
import type { JsonSchema } from '../contracts/request.js';
import type { ArgsCheck, Tool, Toolset, ToolsetContext, ToolsetListing } from '../contracts/tool.js';
import { isValidToolName } from '../engine/tools/tool.js';
import { compileSchema, McpConnection, type ArgsValidator, type ListedTool } from './mcp-connection.js';
import { toFunctionResponse } from './mcp-result.js';
import type { McpToolsetSettings } from '../contracts/mcp.js';
import { checkMcpServer } from './mcp-server.js';

/** What a tool filter sees of a server's tool. */
export type McpToolInfo = {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
};

/**
 * What `mcpToolset` takes: the settings an agent file can hold too, where `tools` may also be a predicate that sees
 * each tool and the request's context.
 */
export type McpToolsetOptions = Omit<McpToolsetSettings, 'tools'> & {
  tools?: readonly string[] | ((tool: McpToolInfo, context: ToolsetContext) => boolean);
};

const DEFAULTS = { timeoutMs: 60_000, connectTimeoutMs: 30_000, maxResultChars: 20_000 };

/** A toolset that has its connection: for tests and tools that want to know about restarts. */
export type McpToolset = Toolset & {
  readonly origin: { kind: 'mcp'; server: string };
  readonly connection: McpConnection;
};

/**
 * The tools of one MCP server (stdio or Streamable HTTP) for an agent: `llmAgent({ tools: [mcpToolset({ … })] })`.
 * The server is started (or reached) when a request first needs its tools, kept for later ones, listed again when it
 * says its tools changed, started again after it exits, and closed by `runner.close()`. A call's arguments are
 * checked against the tool's schema first; its result becomes a function response; every failure (the server would
 * not start, died, hung, answered garbage) becomes an `{ error }` response the model can act on.
 */
export function mcpToolset(options: McpToolsetOptions): McpToolset {
  const settings = checkOptions(options);
  const connection = new McpConnection({
    name: options.name,
    server: options.server,
    connectTimeoutMs: settings.connectTimeoutMs,
    listTimeoutMs: settings.connectTimeoutMs,
  });
  const converted = new WeakMap<ListedTool[], { tools: { info: McpToolInfo; tool: Tool }[]; warnings: string[] }>();
  const convert = (listed: ListedTool[]) => {
    let found = converted.get(listed);
    if (found === undefined) {
      found = convertTools(listed, options, settings, connection);
      converted.set(listed, found);
    }
    return found;
  };
  return {
    kind: 'toolset',
    name: options.name,
    origin: { kind: 'mcp', server: options.name },
    ...(options.prefix === true
      ? { prefix: options.name }
      : typeof options.prefix === 'string'
        ? { prefix: options.prefix }
        : {}),
    ...(options.deferred === true ? { deferred: true } : {}),
    connection,
    async listTools(context: ToolsetContext): Promise<ToolsetListing> {
      const { tools, warnings } = convert(await connection.listTools());
      const filter = options.tools;
      const chosen =
        filter === undefined
          ? tools
          : typeof filter === 'function'
            ? tools.filter(({ info }) => filter(info, context))
            : tools.filter(({ info }) => filter.includes(info.name));
      const missing = Array.isArray(filter)
        ? filter.filter((name) => !tools.some(({ info }) => info.name === name))
        : [];
      const order = options.order ?? (Array.isArray(filter) ? 'declared' : 'sorted');
      const ordered =
        order === 'server'
          ? chosen
          : order === 'declared' && Array.isArray(filter)
            ? [...chosen].sort((a, b) => filter.indexOf(a.info.name) - filter.indexOf(b.info.name))
            : [...chosen].sort((a, b) => (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : 0));
      return {
        tools: ordered.map(({ tool }) => tool),
        warnings: [...warnings, ...missing.map((name) => `its filter names '${name}', which the server does not list`)],
      };
    },
    close: () => connection.close(),
  };
}

function checkOptions(options: McpToolsetOptions): typeof DEFAULTS {
  const issues: ValidationIssue[] = [];
  if (typeof options !== 'object' || options === null)
    throw new ValidationError({
      subject: 'MCP toolset',
      issues: [{ path: '', message: 'expected { name, server, … }' }],
    });
  if (typeof options.name !== 'string' || !isValidToolName(options.name))
    issues.push({
      path: 'name',
      message: `'${String(options.name)}' is not a usable name (a letter or underscore, then letters, digits, _ . : -)`,
    });
  issues.push(...checkMcpServer(options.server, 'server'));
  const filter = options.tools;
  if (
    filter !== undefined &&
    typeof filter !== 'function' &&
    !(Array.isArray(filter) && filter.every((name) => typeof name === 'string'))
  )
    issues.push({ path: 'tools', message: 'expected a list of tool names or a function (tool, context) => boolean' });
  if (
    options.prefix !== undefined &&
    typeof options.prefix !== 'boolean' &&
    !(typeof options.prefix === 'string' && isValidToolName(options.prefix))
  )
    issues.push({
      path: 'prefix',
      message: `expected true, false or a prefix that starts a valid tool name, got ${JSON.stringify(options.prefix)}`,
    });
  if (options.order !== undefined && !['sorted', 'server', 'declared'].includes(options.order))
    issues.push({
      path: 'order',
      message: `expected 'sorted', 'server' or 'declared', got ${JSON.stringify(options.order)}`,
    });
  if (options.order === 'declared' && !Array.isArray(filter))
    issues.push({ path: 'order', message: "'declared' needs a list of names in tools" });
  const settings = { ...DEFAULTS };
  for (const key of ['timeoutMs', 'connectTimeoutMs', 'maxResultChars'] as const) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1)
      issues.push({ path: key, message: `expected a whole number ≥ 1, got ${String(value)}` });
    else settings[key] = value;
  }
  if (issues.length > 0)
    throw new ValidationError({
      subject: `MCP toolset${typeof options.name === 'string' ? ` '${options.name}'` : ''}`,
      issues,
      hint: 'See docs/mcp.md for the options.',
    });
  return settings;
}

/** The server's tools as agentctx tools; one whose name or schema is unusable is left out, with a warning. */
function convertTools(
  listed: ListedTool[],
  options: McpToolsetOptions,
  settings: typeof DEFAULTS,
  connection: McpConnection,
): { tools: { info: McpToolInfo; tool: Tool }[]; warnings: string[] } {
  const tools: { info: McpToolInfo; tool: Tool }[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const entry of listed) {
    const name = typeof entry?.name === 'string' ? entry.name : undefined;
    if (name === undefined || seen.has(name)) {
      warnings.push(
        name === undefined
          ? 'the server listed a tool without a name; it is left out'
          : `the server listed '${name}' twice; the second is left out`,
      );
      continue;
    }
    seen.add(name);
    const prefix =
      options.prefix === true ? options.name : typeof options.prefix === 'string' ? options.prefix : undefined;
    const wireName = prefix === undefined ? name : `${prefix}_${name}`;
    if (!isValidToolName(wireName)) {
      warnings.push(
        `tool '${name}' is left out: '${wireName}' is not a name models accept (a letter or underscore, then up to 63 letters, digits, _ . : -)`,
      );
      continue;
    }
    const schema = entry.inputSchema;
    let validate: ArgsValidator | undefined;
    try {
      if (
        typeof schema !== 'object' ||
        schema === null ||
        Array.isArray(schema) ||
        (schema as { type?: unknown }).type !== 'object'
      )
        throw new Error('its inputSchema is not a JSON Schema of type "object"');
      validate = compileSchema(schema);
    } catch (error) {
      warnings.push(
        `tool '${name}' is left out: its input schema is invalid (${error instanceof Error ? error.message : String(error)})`,
      );
      continue;
    }
    const description =
      typeof entry.description === 'string' ? entry.description : typeof entry.title === 'string' ? entry.title : '';
    const info: McpToolInfo = { name, description, inputSchema: schema };
    const check = validate;
    const tool: Tool = {
      name,
      description,
      parameters: schema as JsonSchema,
      checkArgs: (args): ArgsCheck => {
        const verdict = check(args);
        return verdict.valid
          ? { ok: true, value: args }
          : { ok: false, issues: [verdict.errorMessage ?? 'the arguments do not match the schema'] };
      },
      execute: (args, context: ToolContext) => callTool(name, args, context, options.name, settings, connection),
    };
    tools.push({ info, tool });
  }
  return { tools, warnings };
}

let calls = 0;

async function callTool(
  name: string,
  args: Record<string, unknown>,
  context: ToolContext,
  toolset: string,
  settings: typeof DEFAULTS,
  connection: McpConnection,
): Promise<Record<string, unknown>> {
  try {
    const result = await connection.callTool(name, args, { timeoutMs: settings.timeoutMs, signal: context.signal });
    const stem = `mcp-${toolset}-${name}-${context.functionCallId ?? `call-${++calls}`}`.replace(/[^\w.-]/g, '_');
    return await toFunctionResponse(result, {
      artifacts: context.artifacts,
      stem,
      maxResultChars: settings.maxResultChars,
    });
  } catch (error) {
    if (McpError.isInstance(error))
      return { error: `${error.message}${error.hint === undefined ? '' : ` ${error.hint}`}` };
    throw error;
  }
}
