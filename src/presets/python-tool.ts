import type { AgentDefinition, Extension } from '../contracts/agent.js';
import { AgentctxError } from '../contracts/errors/agentctx-error.js';
import type { JsonSchema, ToolDeclaration } from '../contracts/request.js';
import { customAgent } from '../engine/agent/define-agent.js';
import type { Tool } from '../contracts/tool.js';
import { declareTool } from '../engine/tools/tool.js';
import type { JsonReader } from '../engine/util/json-reader.js';
import { exampleToolOf } from './adk-example-tool.js';
import { longRunningTool } from '../features/adk-tools/long-running.js';

/** What declaring one dotted name gives: its declaration, the tool object it names (read, not run), or why it has none. */
export type PythonToolDeclaration = ToolDeclaration | { object: PythonObject } | { error: string };

/**
 * Declares Python function tools a file names by dotted path (`pkg.module.function`), as ADK declares them, without
 * running the module; `from` is the file that names them.
 */
export type DeclarePythonTools = (
  names: readonly string[],
  from: string,
) => Promise<Record<string, PythonToolDeclaration>>;

/** A module-level object as its source makes it: `name = Class(key=literal, …)`; `unread` are non-literal arguments. */
export type PythonObject =
  | { class: string; arguments: Record<string, unknown>; unread: string[]; positional: unknown[] }
  | { error: string };

/** A pydantic class an `output_schema` names: its JSON Schema and ADK's `set_model_response` parameters for it. */
export type PythonSchema = { schema: JsonSchema; parameters: JsonSchema } | { error: string };

/** Reads the pydantic classes named by dotted path, from their source, without running it. */
export type ReadPythonSchemas = (names: readonly string[], from: string) => Promise<Record<string, PythonSchema>>;

/** Reads module-level objects named by dotted path, from their source, without running it. */
export type ReadPythonObjects = (names: readonly string[], from: string) => Promise<Record<string, PythonObject>>;

// ADK's agent classes a `code:` reference may construct, read as the agent-file class of the same name.
const AGENT_CLASSES = new Set(['LlmAgent', 'Agent', 'SequentialAgent', 'ParallelAgent', 'LoopAgent']);

/**
 * An agent given by a `code:` reference (`sub_agents: - code: pkg.module.agent`), read from the literal constructor
 * call that makes it (`agent = LlmAgent(name="…", instruction="…")`), without running the module: its class and
 * arguments as an agent file's fields. Undefined, with why at `path`, when it is not made that way.
 */
export async function pythonAgentRecord(
  reader: JsonReader,
  name: string,
  path: string,
  read: ReadPythonObjects,
  file: string,
): Promise<Record<string, unknown> | undefined> {
  const found = (await read([name], file))[name];
  if (found === undefined || 'error' in found)
    return reader.issue(path, `'${name}' cannot be read: ${found?.error ?? 'nothing came back'}`);
  if (!AGENT_CLASSES.has(found.class))
    return reader.issue(
      path,
      `'${name}' is a ${found.class}, not one of ADK's agent classes (${[...AGENT_CLASSES].join(', ')})`,
    );
  if (found.unread.length > 0 || found.positional.length > 0)
    return reader.issue(
      path,
      `'${name}' is made with arguments that are not literals (${[...found.unread, ...(found.positional.length > 0 ? ['positional arguments'] : [])].join(', ')}), which agentctx does not read without running the module; bind '${name}' to an agent definition with --bindings, or write the agent in a YAML file (config_path)`,
    );
  return { agent_class: found.class, ...found.arguments };
}

/** What runs a Python function tool named by dotted path, named in the file `from`. */
export type RunPythonTool = (name: string, from: string) => NonNullable<Tool['execute']>;

// A Python function named by its module's dotted path, as ADK's agent files name one.
const PYTHON_PATH = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$/;

/** Whether a tool name is a dotted Python path (`pkg.module.function`). */
export function isPythonPath(name: string): boolean {
  return PYTHON_PATH.test(name);
}

/** What the Python side of an agent file gives `readTools`: its declarers and runner, each optional. */
export type PythonBridge = {
  readonly declarePythonTools?: DeclarePythonTools | undefined;
  readonly runPythonTool?: RunPythonTool | undefined;
};

/**
 * A Python function tool, declared as ADK declares it (its docstring and signature, read without running the module),
 * and run by `run` when given (commands that only read an agent give none: the model's calls then get an error); or a
 * tool object the name holds (`example_tool = ExampleTool(examples=[…])`), read from its literal constructor call.
 * Undefined, with the reason reported at `path`, when it is neither; undefined and nothing reported when the name is
 * no Python path or nothing declares Python tools.
 */
export async function pythonTool(
  reader: JsonReader,
  name: string,
  path: string,
  bridge: PythonBridge,
  file: string,
): Promise<{ tool: Tool } | { extension: Extension } | undefined> {
  const { declarePythonTools: declare, runPythonTool: run } = bridge;
  if (declare === undefined || !isPythonPath(name)) return undefined;
  const declared = (await declare([name], file))[name];
  if (declared !== undefined && 'object' in declared) {
    const extension = pythonToolObject(reader, name, path, declared.object);
    return extension === undefined ? undefined : { extension };
  }
  if (declared === undefined || 'error' in declared) {
    reader.issue(path, `'${name}' cannot be declared: ${declared?.error ?? 'no declaration came back'}`);
    return undefined;
  }
  const declaration = declareTool(declared);
  return { tool: run === undefined ? declaration : Object.freeze({ ...declaration, execute: run(name, file) }) };
}

// The tool objects read from their constructor call: ADK's ExampleTool, whose examples go into the system text.
function pythonToolObject(reader: JsonReader, name: string, path: string, made: PythonObject): Extension | undefined {
  if ('error' in made) return reader.issue(path, `'${name}' cannot be read: ${made.error}`);
  if (made.class !== 'ExampleTool')
    return reader.issue(
      path,
      `'${name}' is a ${made.class} object, which agentctx does not read from Python code: of tool objects it reads ExampleTool; name a function, or bind the tool to a TypeScript one`,
    );
  if (made.unread.length > 0)
    return reader.issue(
      path,
      `'${name}' is made with arguments that are not literals (${made.unread.join(', ')}), which agentctx does not read without running the module; list the examples in the agent file ({ name: ExampleTool, args: { examples: [...] } })`,
    );
  return exampleToolOf(reader, made.arguments['examples'] ?? made.positional[0], `${path} (${name})`, path);
}

/**
 * An agent whose `agent_class` is a Python class of the user's (`pkg.module.MyAgent`), which agentctx does not run:
 * read as a custom agent of that name and description that fails, saying so, when it runs; `warn` says it at load.
 * Fields of the class's own config are the class's: not read.
 */
export function pythonClassAgent(
  reader: JsonReader,
  record: Record<string, unknown>,
  path: string,
  agentClass: string,
  warn: (message: string) => void,
  file: string,
): AgentDefinition | undefined {
  const name = reader.string(record, 'name', path, { nonEmpty: true });
  const description = reader.string(record, 'description', path, { optional: true });
  if (name === undefined) return undefined;
  const binding = `customAgent({ name: '${name}', run }), bound with --bindings ({ '${agentClass}': (fields) => customAgent(…) })`;
  warn(
    `${file}: ${path === '' ? '' : `${path}.`}agentClass: '${agentClass}' is a Python agent class, which agentctx does not run; '${name}' loads as an agent that fails when it runs: write it as ${binding}`,
  );
  return customAgent({
    name,
    ...(description === undefined ? {} : { description }),
    // An async generator that yields nothing and fails: the runner reports it as this agent's error.
    async *run() {
      throw new AgentctxError({
        code: 'usage',
        message: `Agent '${name}' is the Python class ${agentClass}, which agentctx does not run.`,
        hint: `Write it as ${binding}.`,
      });
    },
  });
}

/**
 * ADK's `{ name: LongRunningFunctionTool, args: { func: pkg.module.function } }`: the function declared as ADK declares
 * it, with ADK's long-running note added to its description, run by `bridge` when it runs tools. What it returns (a
 * pending status) goes to the model; its final answer arrives later, from the client.
 */
export async function longRunningPythonTool(
  reader: JsonReader,
  item: Record<string, unknown>,
  path: string,
  bridge: PythonBridge & { readonly declarePythonTools: DeclarePythonTools },
  file: string,
): Promise<Tool | undefined> {
  reader.keys(item, path, ['name', 'args']);
  const args = reader.object(item['args'], `${path}.args`, '{ func: pkg.module.function }');
  const func = args === undefined ? undefined : reader.string(args, 'func', `${path}.args`, { nonEmpty: true });
  if (func === undefined) return undefined;
  const made = await pythonTool(reader, func, `${path}.args.func`, bridge, file);
  if (made === undefined) return undefined;
  if (!('tool' in made)) return reader.issue(`${path}.args.func`, `'${func}' is not a function`);
  return longRunningTool(made.tool);
}
