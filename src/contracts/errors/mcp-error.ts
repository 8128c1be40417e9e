import { AgentctxError } from './agentctx-error.js';

/** What failed in talking to an MCP server. */
export type McpFailure =
  /** The server could not be started or reached, or refused the handshake. */
  | 'start'
  /** The connection closed (the server exited or hung up) before the answer came. */
  | 'closed'
  /** No answer within the time limit. */
  | 'timeout'
  /** The server answered with something that is not MCP, or an error of its own. */
  | 'protocol';

export type McpErrorOptions = {
  /** The toolset's name for the server. */
  server: string;
  failure: McpFailure;
  message: string;
  hint?: string | undefined;
  cause?: unknown;
};

/** Talking to an MCP server failed: it would not start, hung up, took too long or answered something unusable. */
export class McpError extends AgentctxError {
  static override readonly errorName: string = 'McpError';

  readonly server: string;
  readonly failure: McpFailure;

  constructor(options: McpErrorOptions) {
    super({
      code: 'mcp_error',
      message: `MCP server '${options.server}': ${options.message}`,
      hint: options.hint,
      cause: options.cause,
    });
    this.server = options.server;
    this.failure = options.failure;
  }
}
