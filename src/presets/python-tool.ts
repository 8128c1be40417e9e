import type { ToolDeclaration } from '../contracts/request.js';
import type { Tool } from '../contracts/tool.js';
import { declareTool } from '../engine/tools/tool.js';
import type { JsonReader } from '../engine/util/json-reader.js';

/** What declaring one dotted name gives: its declaration, or why it has none. */
export type PythonToolDeclaration = ToolDeclaration | { error: string };

/**
 * Declares Python function tools a file names by dotted path (`pkg.module.function`), as ADK declares them, without
 * running the module; `from` is the file that names them.
 */
export type DeclarePythonTools = (
  names: readonly string[],
  from: string,
) => Promise<Record<string, PythonToolDeclaration>>;

/** What runs a Python function tool named by dotted path, named in the file `from`. */
export type RunPythonTool = (name: string, from: string) => NonNullable<Tool['execute']>;

// A Python function named by its module's dotted path, as ADK's agent files name one.
const PYTHON_PATH = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/;

/** Whether a tool name is a dotted Python path (`pkg.module.function`). */
export function isPythonPath(name: string): boolean {
  return PYTHON_PATH.test(name);
}

/**
 * A Python function tool, declared as ADK declares it (its docstring and signature, read without running the module),
 * and run by `run` when given (commands that only read an agent give none: the model's calls then get an error). Undefined, with the
 * reason reported at `path`, when it cannot be declared; undefined and nothing reported when the name is no Python path
 * or nothing declares Python tools.
 */
export async function pythonTool(
  reader: JsonReader,
  name: string,
  path: string,
  declare: DeclarePythonTools | undefined,
  file: string,
  run?: RunPythonTool,
): Promise<Tool | undefined> {
  if (declare === undefined || !isPythonPath(name)) return undefined;
  const declared = (await declare([name], file))[name];
  if (declared === undefined || 'error' in declared) {
    reader.issue(path, `'${name}' cannot be declared: ${declared?.error ?? 'no declaration came back'}`);
    return undefined;
  }
  const declaration = declareTool(declared);
  return run === undefined ? declaration : Object.freeze({ ...declaration, execute: run(name, file) });
}
