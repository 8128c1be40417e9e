// MCP servers and toolset settings as data: what code and agent files describe, and the MCP layer reads.

/** An MCP server started as a child process, spoken to over its stdin and stdout. */
export type McpStdioServer = {
  readonly command: string;
  readonly args?: readonly string[] | undefined;
  /** Added to a safe default environment (PATH, HOME, …), not to this process's whole environment. */
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly cwd?: string | undefined;
};

/** An MCP server reached over Streamable HTTP. */
export type McpHttpServer = {
  readonly url: string;
  /** Sent with every request (an `Authorization` header, say). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
};

export type McpServer = McpStdioServer | McpHttpServer;

/** An MCP toolset's settings, as an agent file's `mcp:` entry holds them (`mcpToolset` also takes a predicate for `tools`). */
export type McpToolsetSettings = {
  /** Names the server in provenance, warnings and prefixes (`files`, `github`): a tool name's rules apply. */
  name: string;
  server: McpServer;
  /** Which of the server's tools the agent gets, by name (ADK's `tool_filter`); all of them when absent. */
  tools?: readonly string[];
  /**
   * The order of its tools on the wire: `sorted` by name (the default: a server that reorders its list does not move
   * the cached prefix), `server` as the server lists them, or — with a list of names in `tools` — `declared` (that list's).
   */
  order?: 'sorted' | 'server' | 'declared';
  /**
   * Prefix every tool name on the wire: `true` with `<name>_`, a string with `<string>_` (ADK's `tool_name_prefix`);
   * by default only names another tool of the request has are prefixed (with `<name>_`).
   */
  prefix?: boolean | string;
  /** How long one tool call may take before the model is told it timed out. Default 60,000 ms. */
  timeoutMs?: number;
  /** How long starting (or reaching) the server and its handshake may take. Default 30,000 ms. */
  connectTimeoutMs?: number;
  /** A result whose JSON is longer is cut to this many characters, the whole kept as an artifact. Default 20,000. */
  maxResultChars?: number;
  /** Disclose its tools progressively (a catalogue and `search_tools`; see `toolSearch()`). Default false. */
  deferred?: boolean;
};
