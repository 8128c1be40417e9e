import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { ToolDeclaration } from '../../contracts/request.js';
import type { Tool } from '../../contracts/tool.js';

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
