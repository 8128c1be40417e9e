import type { AgentDefinition } from '../contracts/agent.js';
import type { AgentCallbacks } from '../contracts/callbacks.js';
import type { ToolContext } from '../contracts/contexts.js';
import type { Tool } from '../contracts/tool.js';
import { declareTool } from '../engine/tools/tool.js';
import { joinPath, type JsonReader } from '../engine/util/json-reader.js';
import { own } from './adk-code-refusals.js';
import type { DeclarePythonTools } from './python-tool.js';

/**
 * TypeScript for the Python an ADK agent file names, by its dotted name: a function tool (`pkg.tools.roll_die`) as a
 * function of the model's arguments and the tool context, or a whole tool; a callback (`pkg.callbacks.check`) as an
 * agentctx callback of its kind; a `code:` agent as an agent definition; an `agent_class` as an agent definition or
 * a function from the file's fields to one (a custom agent, usually).
 */
export type AdkBinding =
  | Tool
  | AgentDefinition
  | ((args: Record<string, unknown>, context: ToolContext) => unknown)
  | ((...args: never[]) => unknown);

const AGENT_KINDS = new Set(['llm', 'sequential', 'parallel', 'loop', 'custom']);

function isAgent(value: unknown): value is AgentDefinition {
  const record = value as Partial<AgentDefinition> | null;
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof record?.name === 'string' &&
    AGENT_KINDS.has(String(record.kind)) &&
    Array.isArray(record.subAgents)
  );
}

function isTool(value: unknown): value is Tool {
  const record = value as Partial<Tool> | null;
  return typeof value === 'object' && value !== null && typeof record?.name === 'string' && !isAgent(value);
}

/** The binding of a name, if the bindings have one. */
export function bindingOf(
  bindings: Readonly<Record<string, AdkBinding>> | undefined,
  name: string,
): AdkBinding | undefined {
  return bindings === undefined ? undefined : own(bindings, name);
}

/**
 * A Python function tool bound to TypeScript: declared as ADK declares the Python function when its module is there
 * (the binding runs it), else as the bound tool declares itself. A bare function needs the module for its declaration.
 */
export async function boundTool(
  reader: JsonReader,
  name: string,
  path: string,
  binding: AdkBinding,
  declare: DeclarePythonTools | undefined,
  file: string,
): Promise<Tool | undefined> {
  const declared = declare === undefined ? undefined : (await declare([name], file))[name];
  const fromPython = declared !== undefined && !('error' in declared) && !('object' in declared) ? declared : undefined;
  if (isTool(binding))
    return fromPython === undefined ? binding : Object.freeze({ ...binding, ...declareTool(fromPython) });
  if (typeof binding !== 'function' || isAgent(binding))
    return reader.issue(path, `the binding of '${name}' is not a tool or a function`);
  if (fromPython === undefined)
    return reader.issue(
      path,
      `'${name}' is bound to a function, and its declaration comes from the Python source, which ${declared !== undefined && 'error' in declared ? `cannot be read: ${declared.error}` : 'is not there'}; bind a whole tool instead (functionTool({ name, description, parameters, execute }))`,
    );
  const execute = binding as (args: Record<string, unknown>, context: ToolContext) => unknown;
  return Object.freeze({ ...declareTool(fromPython), execute });
}

// ADK's callback fields, and the agentctx hook each one's functions are.
const CALLBACK_FIELDS: Readonly<Record<string, keyof AgentCallbacks>> = {
  before_agent_callbacks: 'beforeAgent',
  after_agent_callbacks: 'afterAgent',
  before_model_callbacks: 'beforeModel',
  after_model_callbacks: 'afterModel',
  before_tool_callbacks: 'beforeTool',
  after_tool_callbacks: 'afterTool',
};

/**
 * The callbacks of the record that are bound, as agentctx callbacks in the file's order; each bound name is taken
 * out of its list (a list left empty goes), so what stays is what no binding covers.
 */
export function boundCallbacks(
  reader: JsonReader,
  record: Record<string, unknown>,
  path: string,
  bindings: Readonly<Record<string, AdkBinding>> | undefined,
): AgentCallbacks | undefined {
  if (bindings === undefined) return undefined;
  const callbacks: Record<string, unknown[]> = {};
  for (const [field, hook] of Object.entries(CALLBACK_FIELDS)) {
    const list = record[field];
    if (!Array.isArray(list)) continue;
    const left = list.filter((item, index) => {
      const name = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)['name'] : undefined;
      const bound = typeof name === 'string' ? bindingOf(bindings, name) : undefined;
      if (bound === undefined) return true;
      if (typeof bound !== 'function')
        reader.issue(joinPath(joinPath(path, field), index), `the binding of '${String(name)}' is not a function`);
      else (callbacks[hook] ??= []).push(bound);
      return false;
    });
    if (left.length === 0) delete record[field];
    else record[field] = left;
  }
  return Object.keys(callbacks).length === 0 ? undefined : (callbacks as AgentCallbacks);
}

/**
 * An agent a `code:` reference or an `agent_class` names, bound to TypeScript: the definition itself, or what the
 * bound function makes of the file's fields (for a class, its own fields included, as ADK hands them to its config).
 */
export function boundAgent(
  reader: JsonReader,
  name: string,
  path: string,
  binding: AdkBinding,
  fields: Record<string, unknown>,
): AgentDefinition | undefined {
  if (isAgent(binding)) return binding;
  if (typeof binding !== 'function')
    return reader.issue(path, `the binding of '${name}' is not an agent definition or a function that makes one`);
  const made = (binding as (fields: Record<string, unknown>) => unknown)(fields);
  return isAgent(made)
    ? made
    : reader.issue(path, `the binding of '${name}' made no agent definition (customAgent({ name, run }), llmAgent(…))`);
}
