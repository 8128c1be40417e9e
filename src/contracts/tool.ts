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
  /** An agent tool whose answer is final: the calling agent's turn ends with it, without another model call (ADK's `skip_summarization`). */
  readonly skipSummarization?: boolean;
  /** Whether to offer the tool in this request (for tools that only make sense in some states); always when absent. */
  readonly isAvailable?: (state: Readonly<Record<string, unknown>>) => boolean;
};
