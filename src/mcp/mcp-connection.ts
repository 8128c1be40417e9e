import { createRequire } from 'node:module';
import { STATUS_CODES } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { keepRawListings } from './raw-listing.js';
import { McpError, type McpFailure } from '../contracts/errors/mcp-error.js';
import { optionalPackage } from '../engine/util/optional-package.js';
import type { McpServer } from './mcp-server.js';

// The one file that talks to @modelcontextprotocol/sdk: the rest of agentctx sees plain values and McpErrors.

/** A tool as the server lists it (the parts agentctx uses). */
export type ListedTool = {
  name: string;
  description?: string | undefined;
  title?: string | undefined;
  inputSchema: Record<string, unknown>;
};

/** A `tools/call` result as the server sent it. */
export type CallResult = { content?: unknown; structuredContent?: unknown; isError?: boolean | undefined };

export type ConnectionOptions = {
  /** The toolset's name for the server, in errors. */
  name: string;
  server: McpServer;
  /** How long the handshake (and, for stdio, the start) may take. */
  connectTimeoutMs: number;
  /** How long a `tools/list` page may take. */
  listTimeoutMs: number;
};

/** Checks arguments against a tool's input schema. */
export type ArgsValidator = (input: unknown) => { valid: boolean; errorMessage?: string | undefined };

// The SDK (with ajv) takes about half a second to import: it is loaded when a server is first needed, so neither
// importing agentctx nor a CLI command whose agents use no MCP server pays for it.
type Sdk = {
  Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
  stdio: typeof import('@modelcontextprotocol/sdk/client/stdio.js');
  http: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  types: typeof import('@modelcontextprotocol/sdk/types.js');
  validators: import('@modelcontextprotocol/sdk/validation/ajv').AjvJsonSchemaValidator;
};
let loaded: Sdk | undefined;

// An optional package: `npm install agentctx` brings no MCP SDK.
const loadSdk = optionalPackage({ packages: ['@modelcontextprotocol/sdk'], purpose: 'An MCP toolset' }, () =>
  Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/stdio.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/validation/ajv'),
  ]).then(
    ([client, stdio, http, types, ajv]) =>
      (loaded = { Client: client.Client, stdio, http, types, validators: new ajv.AjvJsonSchemaValidator(quietAjv()) }),
  ),
);

// The SDK's own ajv, set up as the SDK sets it up but without a logger: ajv would otherwise print "unknown format
// … ignored" on standard error for each format a server's schema names that it lacks (Notion's `json`), into the
// output of `inspect` and `run`. Loaded from the SDK's folder, whose dependency it is.
function quietAjv() {
  const fromSdk = createRequire(import.meta.resolve('@modelcontextprotocol/sdk/validation/ajv'));
  // Typed as the validator's parameter, so that ajv itself is not imported here.
  type AjvInstance = NonNullable<
    ConstructorParameters<typeof import('@modelcontextprotocol/sdk/validation/ajv').AjvJsonSchemaValidator>[0]
  >;
  const Ajv = fromSdk('ajv') as new (options: Record<string, unknown>) => AjvInstance;
  const addFormats = fromSdk('ajv-formats') as (ajv: AjvInstance) => void;
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true, logger: false });
  addFormats(ajv);
  return ajv;
}

/**
 * A validator for a tool's input schema (JSON Schema 2020-12, as MCP has it); throws when the schema is invalid. Only
 * for tools a connection listed: listing loads what it needs.
 */
export function compileSchema(schema: Record<string, unknown>): ArgsValidator {
  if (loaded === undefined) throw new Error('no MCP server has been reached yet');
  return loaded.validators.getValidator(schema as Parameters<Sdk['validators']['getValidator']>[0]);
}

const STDERR_KEPT = 2_000;
const CLIENT = { name: 'agentctx', version: '0.1.0' };

/**
 * One MCP server, connected on first use and kept: its tool list is fetched once and again only when the server says
 * it changed; a connection that closes (the server exited or hung up) is opened again by the next call.
 */
export class McpConnection {
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private tools: Promise<ListedTool[]> | undefined;
  private stderr = '';
  /**
   * Lines the server wrote to stdout that are not JSON-RPC messages: the SDK skips them, so a call answered only by
   * one waits for its time limit, which then says so. How many since the connection opened, and the last one's fault.
   */
  private unreadable = { lines: 0, last: '' };
  // The last `tools/list` page as the server sent it (raw-listing.ts); pages are listed one at a time.
  private rawPage: readonly unknown[] | undefined;
  private closed = false;
  /** Times a connection was opened: 1 after the first, 2 after a restart, … */
  opened = 0;

  constructor(private readonly options: ConnectionOptions) {}

  /** The server's tools, in the server's order (every page). */
  listTools(): Promise<ListedTool[]> {
    this.tools ??= this.fetchTools().catch((error: unknown) => {
      this.tools = undefined;
      throw error;
    });
    return this.tools;
  }

  /** Calls a tool; an McpError when the server cannot answer (closed, timed out, not MCP). */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    limits: { timeoutMs: number; signal?: AbortSignal | undefined },
  ): Promise<CallResult> {
    const client = await this.connect();
    const skipped = this.unreadable.lines;
    try {
      const options = { timeout: limits.timeoutMs, ...(limits.signal === undefined ? {} : { signal: limits.signal }) };
      return (await client.callTool({ name, arguments: args }, undefined, options)) as CallResult;
    } catch (error) {
      this.dropIfSessionGone(client, error);
      throw this.failure(error, `tools/call ${name}`, limits.timeoutMs, undefined, skipped);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client ?? (await this.connecting?.catch(() => undefined));
    this.client = undefined;
    this.connecting = undefined;
    this.tools = undefined;
    await client?.close().catch(() => undefined);
  }

  private async fetchTools(): Promise<ListedTool[]> {
    const client = await this.connect();
    const skipped = this.unreadable.lines;
    const tools: ListedTool[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < 1000; page++) {
        const result = await this.listPage(client, cursor);
        tools.push(...result.tools);
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
    } catch (error) {
      this.dropIfSessionGone(client, error);
      throw this.failure(error, 'tools/list', this.options.listTimeoutMs, undefined, skipped);
    }
    return tools;
  }

  /**
   * One page of `tools/list`. The SDK checks the whole page against MCP's schema, so one tool listed with a bad
   * schema (`{"$ref": "#"}` has no `type: "object"`) would fail the listing and take every tool of the server with
   * it. Such a page is asked for again without that check, and its tools are judged one by one where they are
   * converted (mcp-toolset.ts), each bad one left out with a warning. (The SDK then knows no output schema of that
   * page's tools, so it does not check their structured results against one.)
   */
  private async listPage(
    client: Client,
    cursor: string | undefined,
  ): Promise<{ tools: ListedTool[]; nextCursor: string | undefined }> {
    const params = cursor === undefined ? {} : { cursor };
    try {
      this.rawPage = undefined;
      const result = await client.listTools(params, { timeout: this.options.listTimeoutMs });
      const raw = this.rawPage as readonly ListedTool[] | undefined;
      const same =
        raw?.length === result.tools.length && raw.every((tool, at) => tool?.name === result.tools[at]?.name);
      return { tools: (same ? raw : result.tools) as ListedTool[], nextCursor: result.nextCursor };
    } catch (error) {
      // A result that does not match the schema is refused with zod's error, which lists its issues.
      if (!Array.isArray((error as { issues?: unknown } | undefined)?.issues)) throw error;
      // The SDK is loaded: this client was made with it.
      const { ResultSchema } = (await loadSdk()).types;
      const loose = (await client.request({ method: 'tools/list', params }, ResultSchema, {
        timeout: this.options.listTimeoutMs,
      })) as { tools?: unknown; nextCursor?: unknown };
      if (!Array.isArray(loose.tools)) throw error;
      // Whatever each entry is, mcp-toolset.ts judges it, with a warning for each it leaves out.
      return {
        tools: loose.tools as ListedTool[],
        nextCursor: typeof loose.nextCursor === 'string' ? loose.nextCursor : undefined,
      };
    }
  }

  private connect(): Promise<Client> {
    if (this.closed)
      return Promise.reject(
        new McpError({
          server: this.options.name,
          failure: 'closed',
          message: 'the toolset was closed',
          hint: 'Make a new runner (or toolset) to use the server again.',
        }),
      );
    if (this.client !== undefined) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<Client> {
    const sdk = await loadSdk();
    const client = new sdk.Client(CLIENT, {
      capabilities: {},
      jsonSchemaValidator: sdk.validators,
      // The server's own word that its tools changed: the next request lists them again.
      listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: () => void (this.tools = undefined) } },
    });
    const transport = keepRawListings(this.transport(sdk), (tools) => {
      this.rawPage = tools;
    });
    client.onclose = () => {
      if (this.client === client) this.client = undefined;
      this.tools = undefined;
    };
    this.unreadable = { lines: 0, last: '' };
    client.onerror = (error) => {
      const fault = unreadableLine(error);
      if (fault === undefined) return;
      this.unreadable.lines += 1;
      this.unreadable.last = fault;
    };
    try {
      await client.connect(transport, { timeout: this.options.connectTimeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      const failure = this.failure(error, 'start', this.options.connectTimeoutMs, 'start', 0);
      throw failure;
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new McpError({
        server: this.options.name,
        failure: 'closed',
        message: 'the toolset was closed while connecting',
      });
    }
    this.client = client;
    this.opened += 1;
    return client;
  }

  /**
   * A Streamable HTTP server answering 404 has ended the session (it restarted, or let the session expire); the spec
   * has the client start a new one, so this connection is dropped and the next call opens another.
   */
  private dropIfSessionGone(client: Client, error: unknown): void {
    if (!isSessionGone(error) || this.client !== client) return;
    this.client = undefined;
    this.tools = undefined;
    void client.close().catch(() => undefined);
  }

  private transport(sdk: Sdk): Transport {
    const { server } = this.options;
    if ('url' in server) {
      return new sdk.http.StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { ...server.headers } },
      });
    }
    const transport = new sdk.stdio.StdioClientTransport({
      command: server.command,
      args: [...(server.args ?? [])],
      env: { ...sdk.stdio.getDefaultEnvironment(), ...server.env },
      ...(server.cwd === undefined ? {} : { cwd: server.cwd }),
      stderr: 'pipe',
    });
    // What the server says on stderr, kept (the end of it) to explain a failure.
    this.stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    return transport;
  }

  /** The McpError for `error`; `skipped` is the count of unreadable lines before the request, to tell of those after. */
  private failure(
    error: unknown,
    doing: string,
    timeoutMs: number,
    during: 'start' | undefined,
    skipped: number,
  ): McpError {
    if (McpError.isInstance(error)) return error;
    const code = loaded !== undefined && error instanceof loaded.types.McpError ? error.code : undefined;
    const refusal = httpRefusal(error);
    const text = refusal?.text ?? (error instanceof Error ? error.message : String(error));
    const failure: McpFailure =
      code === loaded?.types.ErrorCode.RequestTimeout
        ? 'timeout'
        : (during ??
          (code === loaded?.types.ErrorCode.ConnectionClosed || isSessionGone(error) ? 'closed' : 'protocol'));
    const said =
      this.stderr.trim() === '' ? '' : ` (its stderr ends: ${JSON.stringify(this.stderr.trim().slice(-300))})`;
    // Only a call left without an answer tells of them: one the server did answer owes nothing to a skipped line.
    const lines = failure === 'timeout' || failure === 'start' ? this.unreadable.lines - skipped : 0;
    const unread =
      lines <= 0
        ? ''
        : `; meanwhile it wrote ${lines === 1 ? 'a line' : `${lines} lines`} to stdout that ${lines === 1 ? 'is' : 'are'} not JSON-RPC, skipped (the last: ${this.unreadable.last})`;
    const message =
      failure === 'timeout'
        ? `${doing}: no answer within ${timeoutMs} ms${unread}`
        : failure === 'start'
          ? `could not be started or reached: ${text}${said}${unread}`
          : `${doing}: ${text}${failure === 'closed' ? said : ''}`;
    const hint =
      unread !== ''
        ? 'Over stdio, stdout carries JSON-RPC messages only: have the server write its logs and banners to stderr.'
        : refusal !== undefined && failure !== 'closed'
          ? refusal.hint
          : failure === 'start'
            ? 'Check the command (or URL) and that the server runs on its own; its stderr is quoted when it said anything.'
            : failure === 'timeout'
              ? "Raise the toolset's timeoutMs, or find out why the server is slow."
              : failure === 'closed'
                ? 'The server exited or hung up; the next call starts it again.'
                : undefined;
    return new McpError({ server: this.options.name, failure, message, hint, cause: error });
  }
}

// What was wrong with a line the transport could not read as a message, or undefined for errors of another kind:
// JSON.parse's own message quotes the start of the line; valid JSON of another shape fails the SDK's schema.
function unreadableLine(error: unknown): string | undefined {
  if (error instanceof SyntaxError) return error.message;
  if (error instanceof Error && error.name === 'ZodError') return 'JSON that is not a JSON-RPC message';
  return undefined;
}

/**
 * A Streamable HTTP server's refusal, told by its status first: the SDK's own message carries only the body, which may
 * be empty or a page of HTML. The hint follows the status.
 */
function httpRefusal(error: unknown): { text: string; hint: string } | undefined {
  if (
    loaded === undefined ||
    !(error instanceof loaded.http.StreamableHTTPError) ||
    typeof error.code !== 'number' ||
    error.code < 400
  )
    return undefined;
  const status = error.code;
  const body = error.message
    .replace(/^Streamable HTTP error: Error POSTing to endpoint(?: \(HTTP \d+\))?:\s*/, '')
    .trim();
  const text = `the server answered HTTP ${status}${STATUS_CODES[status] === undefined ? '' : ` ${STATUS_CODES[status]}`}${body === '' ? '' : `: ${body.length > 300 ? `${body.slice(0, 300)}…` : body}`}`;
  const hint =
    status === 401 || status === 403
      ? "Check the toolset's headers: the server wants credentials it accepts (an Authorization header, usually)."
      : status === 404 || status === 405
        ? "Check the URL: it must be the server's Streamable HTTP endpoint (often ending in /mcp)."
        : status >= 500
          ? 'The server failed; its own logs say why.'
          : "Check the URL and the toolset's headers.";
  return { text, hint };
}

function isSessionGone(error: unknown): boolean {
  return loaded !== undefined && error instanceof loaded.http.StreamableHTTPError && error.code === 404;
}
