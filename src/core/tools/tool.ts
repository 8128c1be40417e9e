import type { AgentDefinition } from '../agent/agent.js';
import type { ToolContext } from '../agent/contexts.js';
import { ValidationError } from '../errors/validation-error.js';
import type { JsonSchema, ToolDeclaration } from '../request/request.js';

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
  /** Set on agent tools: the runner runs this agent, with its own models and stores, as the tool. */
  readonly agent?: AgentDefinition;
  /** Whether to offer the tool in this request (for tools that only make sense in some states); always when absent. */
  readonly isAvailable?: (state: Readonly<Record<string, unknown>>) => boolean;
};

// Gemini's rule for function names, the strictest of the providers: a letter or underscore, then up to 63 of
// letters, digits, underscores, dots, colons and dashes.
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;

export function isValidToolName(name: string): boolean {
  return TOOL_NAME.test(name);
}

/** A tool known only by its declaration: enough to inspect what a model would be told. */
export function declareTool(declaration: ToolDeclaration): Tool {
  checkToolName(declaration.name);
  return Object.freeze({ ...declaration });
}

export function checkToolName(name: string): void {
  if (!isValidToolName(name)) {
    throw new ValidationError({
      subject: 'tool',
      issues: [{ path: 'name', message: `'${name}' is not a valid tool name` }],
      hint: 'Use a letter or underscore, then up to 63 letters, digits, underscores, dots, colons or dashes.',
    });
  }
}

export function toolDeclaration(tool: Tool): ToolDeclaration {
  return tool.parameters === undefined
    ? { name: tool.name, description: tool.description }
    : { name: tool.name, description: tool.description, parameters: tool.parameters };
}
