import type { ToolContext } from './contexts.js';
import type { JsonSchema } from './request.js';

/** Arguments checked (and possibly converted) before a tool runs, or what is wrong with them. */
export type ArgsCheck = { ok: true; value: Record<string, unknown> } | { ok: false; issues: string[] };

/**
 * A tool an agent can call. The assembler needs only its declaration; the runner also needs `execute`.
 * A tool without `execute` (for example one declared in a YAML agent file) can be inspected but not run.
 */
export type Tool = {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments. */
  readonly parameters?: JsonSchema;
  /** Checks the model's arguments before `execute`; problems go back to the model as the tool's result. */
  readonly checkArgs?: (args: Record<string, unknown>) => ArgsCheck | Promise<ArgsCheck>;
  /** Runs the tool. A plain-object result is the response; anything else is sent as `{ result }`. */
  readonly execute?: (args: Record<string, unknown>, context: ToolContext) => unknown;
  /**
   * Set on agent tools (`agentTool`): the agent definition the runner runs as the tool, in a session of its own. Typed
   * by its name and kind alone, so that tools need not know agents; the runner checks it is a whole definition.
   */
  readonly agent?: { readonly name: string; readonly kind: string };
  /**
   * A person confirms each call before it runs (ADK's `require_confirmation`): always, or when this returns true for
   * the call's arguments. Unconfirmed, the call answers the model with ADK's error and the run pauses on ADK's
   * `adk_request_confirmation`; a rejection answers `{ error: 'This tool call is rejected.' }`.
   */
  readonly requireConfirmation?:
    | boolean
    | ((args: Record<string, unknown>, context: ToolContext) => boolean | Promise<boolean>);
  /**
   * Its answer comes later from the client (ADK's `LongRunningFunctionTool`): a call of it is marked long-running; what
   * `execute` returns (a pending status) goes to the model as usual, and when it returns nothing the call waits,
   * unanswered, and the run pauses until a function response for it arrives as a later message.
   */
  readonly longRunning?: boolean;
  /** An agent tool whose answer is final: the calling agent's turn ends with it, without another model call (ADK's `skip_summarization`). */
  readonly skipSummarization?: boolean;
  /** Whether to offer the tool in this request (for tools that only make sense in some states); always when absent. */
  readonly isAvailable?: (state: Readonly<Record<string, unknown>>) => boolean;
  /**
   * Disclosed progressively: with a tool search on the agent (`toolSearch()`), the model first sees the tool's name and
   * one line in a catalogue and gets the whole definition once a `search_tools` call chose it.
   */
  readonly deferred?: boolean;
};

/** What a toolset may read when it lists its tools for one request. */
export type ToolsetContext = {
  readonly agentName: string;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  /** The merged state of the request being built. */
  readonly state: Readonly<Record<string, unknown>>;
};

/** A toolset's tools for one request, and what it left out and why (shown with the request's warnings). */
export type ToolsetListing = { readonly tools: readonly Tool[]; readonly warnings?: readonly string[] };

/**
 * Tools an agent gets from somewhere at run time (an MCP server): listed for each request it builds, in the order they
 * go on the wire, after the agent's own tools. Put one in an agent's `tools` (as ADK's toolsets are) or `toolsets`.
 */
export type Toolset = {
  readonly kind: 'toolset';
  /** Names it in provenance, warnings and tool-name prefixes (`files`, `github`). A tool name's rules apply. */
  readonly name: string;
  /**
   * Its tools for this request. A toolset that cannot list them throws (a typed error, ideally): the request goes on
   * without them and says so in its warnings.
   */
  listTools(context: ToolsetContext): Promise<ToolsetListing>;
  /** Every tool name of it goes on the wire as `<prefix>_<name>`; provenance keeps the name it has in the toolset. */
  readonly prefix?: string;
  /** Every tool of it is `deferred` (see `Tool.deferred`). */
  readonly deferred?: boolean;
  /** Where its tools come from, for provenance: `mcp` for an MCP server (with the server's name). */
  readonly origin?: { readonly kind: 'mcp'; readonly server: string };
  /** Releases what it holds (connections, child processes); `runner.close()` calls it. Safe to call twice. */
  close?(): Promise<void>;
};
