import { joinPath, type JsonReader } from '../engine/util/json-reader.js';

// What an ADK agent file may name that agentctx cannot run, because it is Python or lives in Google's services: each
// is reported with what to write instead.

// ADK's tools that agentctx does not offer (yet): a file may name them; each is refused with what to write instead.
const ADK_TOOLS_NOT_OFFERED = new Set([
  'vertex_ai_search',
  'code_execution',
  'BuiltInCodeExecutor',
  'LongRunningFunctionTool',
  'McpToolset',
]);

/** Why a tool name has no implementation here, and what to write instead. */
export function unknownToolMessage(name: string): string {
  if (ADK_TOOLS_NOT_OFFERED.has(name)) {
    return `'${name}' is one of ADK's built-in tools, which run inside Google's services or ADK's Python runtime; agentctx cannot offer it. Declare a function tool instead ({ name, description, parameters }), and implement it in a JavaScript or TypeScript agent module`;
  }
  if (/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)+$/.test(name)) {
    return `'${name}' names Python code (ADK's code reference), which agentctx cannot import. Export the agent from a JavaScript or TypeScript module (agentctx run agent.ts) with the tool written there, or declare it here ({ name, description, parameters }) to inspect it`;
  }
  return `tool '${name}' has no implementation here; declare it with a description (and parameters) to inspect it`;
}

// ADK's agent config fields that name Python code: agentctx reads no Python, so each is refused with what to do instead.
const MODULE_INSTEAD =
  'define the agent in a JavaScript or TypeScript module instead (agentctx run agent.ts), where callbacks and tools are code';
const CODE_FIELDS: Readonly<Record<string, string>> = {
  code: `names Python code (ADK's code reference), which agentctx cannot import; use { config_path: file.yaml }, or ${MODULE_INSTEAD}`,
  model_code: `names Python code that builds a model, which agentctx cannot import; name the model as a string (model: gemini-2.5-flash), or ${MODULE_INSTEAD}`,
  ...Object.fromEntries(
    [
      'before_agent_callbacks',
      'after_agent_callbacks',
      'before_model_callbacks',
      'after_model_callbacks',
      'before_tool_callbacks',
      'after_tool_callbacks',
    ].map((key) => [
      key,
      `names Python callbacks, which agentctx cannot import; ${MODULE_INSTEAD} (llmAgent({ callbacks: { ${key.replace(/_callbacks$/, '').replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase())}: … } }))`,
    ]),
  ),
};

/**
 * Reports ADK's code references; true when the agent is one (a sub-agent given as `code:`), so nothing else is read.
 * Python callbacks do not stop a file from loading when there is someone to warn (`warn`, the CLI): the agent is read
 * without them, and the warning names them and the binding to write instead.
 */
export function refuseCode(
  reader: JsonReader,
  record: Record<string, unknown>,
  path: string,
  warn?: (message: string) => void,
  file?: string,
): boolean {
  for (const key of Object.keys(record)) {
    const why = own(CODE_FIELDS, key);
    if (why === undefined) continue;
    if (warn !== undefined && key.endsWith('_callbacks')) {
      const value = record[key];
      const names = (Array.isArray(value) ? value : [])
        .map((item) =>
          item !== null && typeof item === 'object' ? (item as Record<string, unknown>)['name'] : undefined,
        )
        .filter((name): name is string => typeof name === 'string');
      const where = `${file === undefined ? '' : `${file}: `}${joinPath(path, key)}`;
      const hook = key.replace(/_callbacks$/, '').replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
      warn(
        `${where}: ${names.length === 1 ? 'a Python callback is' : `${names.length} Python callbacks are`} not run (${names.join(', ')}); agentctx runs no Python callbacks: bind ${names.length === 1 ? 'it' : 'each'} to a TypeScript ${hook} callback with --bindings ({ '${names[0] ?? ''}': (args) => … }), or write the agent in a JavaScript or TypeScript module with llmAgent({ callbacks: { ${hook}: … } })`,
      );
    } else reader.issue(joinPath(path, key), why);
    delete record[key];
  }
  return record['name'] === undefined && Object.keys(record).length === 0;
}

/**
 * A table's own entry for a key the file wrote, never one the object inherits: `__proto__`, `constructor` or
 * `toString` in a file are keys like any other, named as written when they are refused.
 */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
