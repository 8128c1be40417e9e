import type { AgentDefinition, Extension } from '../contracts/agent.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import type { BuiltInTool } from '../contracts/request.js';
import type { Tool, Toolset } from '../contracts/tool.js';
import type { ToolsetClass } from '../contracts/agent-file-field.js';
import { agentTool } from '../engine/tools/agent-tool.js';
import { declareTool } from '../engine/tools/tool.js';
import { type JsonReader, joinPath, isPlainRecord } from '../engine/util/json-reader.js';
import { ADK_BUILT_IN_TOOLS, vertexAiSearchTool } from '../features/adk-tools/adk-built-in-tools.js';
import { ADK_FUNCTION_TOOLS } from '../features/adk-tools/adk-function-tools.js';
import { LOAD_ARTIFACTS, loadArtifactsStep, loadArtifactsTool } from '../features/adk-tools/load-artifacts.js';
import { LOAD_MEMORY, loadMemoryInstruction, loadMemoryTool } from '../features/memory-tools/load-memory.js';
import { PRELOAD_MEMORY, preloadMemory } from '../features/memory-tools/preload-memory.js';
import { own, unknownToolMessage } from './adk-code-refusals.js';
import { readExampleToolEntry } from './adk-example-tool.js';
import { bindingOf, boundTool, type AdkBinding } from './adk-bindings.js';
import * as python from './python-tool.js';

/** What reading an agent's `tools` needs: the implementations and toolset classes offered, and the Python bridge. */
export type ToolsScope = {
  readonly options: python.PythonBridge & {
    readonly tools?: Readonly<Record<string, Tool>> | undefined;
    readonly toolsets?: Readonly<Record<string, ToolsetClass>> | undefined;
    readonly bindings?: Readonly<Record<string, AdkBinding>> | undefined;
  };
  /** The file the agent is in. */
  readonly file: string;
  /** Reads an agent an `AgentTool` entry defines or names, as the agent file's reader reads any agent. */
  readonly readAgent: (reader: JsonReader, value: unknown, path: string) => Promise<AgentDefinition | undefined>;
};

/**
 * An LLM agent's `tools`, as ADK's agent files list them: names (agentctx's implementations, ADK's function tools,
 * Python functions and tool objects by dotted path), ADK's tool classes with `args` (AgentTool, LongRunningFunctionTool,
 * ExampleTool, the toolset classes offered), Gemini's built-in tools, or declarations `{ name, description, parameters }`.
 * Tool objects that only change the request (ExampleTool) come back as extensions of the agent.
 */
export async function readTools(
  reader: JsonReader,
  value: unknown,
  path: string,
  scope: ToolsScope,
): Promise<{ tools?: (Tool | Toolset)[]; builtInTools?: BuiltInTool[]; extensions?: Extension[] }> {
  if (value == null) return {};
  const list = reader.array(value, path);
  const tools: (Tool | Toolset)[] = [];
  const builtInTools: BuiltInTool[] = [];
  const extensions: Extension[] = [];
  for (const [index, item] of (list ?? []).entries()) {
    const at = joinPath(path, index);
    const named =
      typeof item === 'string'
        ? item
        : isPlainRecord(item) && item['description'] === undefined
          ? item['name']
          : undefined;
    if (named === 'AgentTool' && isPlainRecord(item)) {
      const tool = await readAgentTool(reader, item, at, scope);
      if (tool !== undefined) tools.push(tool);
      continue;
    }
    if (named === 'ExampleTool' && isPlainRecord(item)) {
      const extension = readExampleToolEntry(reader, item, at, at);
      if (extension !== undefined) extensions.push(extension);
      continue;
    }
    if (named === LOAD_MEMORY || named === PRELOAD_MEMORY) {
      if (isPlainRecord(item)) reader.keys(item, at, ['name']);
      if (named === LOAD_MEMORY) tools.push(loadMemoryTool);
      extensions.push(named === LOAD_MEMORY ? loadMemoryInstruction() : preloadMemory());
      continue;
    }
    if (named === LOAD_ARTIFACTS) {
      if (isPlainRecord(item)) reader.keys(item, at, ['name']);
      tools.push(loadArtifactsTool);
      extensions.push(loadArtifactsStep(at));
      continue;
    }
    if (named === 'LongRunningFunctionTool' && isPlainRecord(item) && scope.options.declarePythonTools !== undefined) {
      const tool = await python.longRunningPythonTool(
        reader,
        item,
        at,
        { ...scope.options, declarePythonTools: scope.options.declarePythonTools },
        scope.file,
      );
      if (tool !== undefined) tools.push(tool);
      continue;
    }
    const toolsetClass =
      typeof named === 'string' && isPlainRecord(item) && scope.options.toolsets !== undefined
        ? own(scope.options.toolsets, named)
        : undefined;
    if (toolsetClass !== undefined && isPlainRecord(item)) {
      reader.keys(item, at, ['name', 'args']);
      const toolset = toolsetClass({ reader, args: item['args'], path: joinPath(at, 'args'), index });
      if (toolset !== undefined) tools.push(toolset);
      continue;
    }
    if (named === 'VertexAiSearchTool' && isPlainRecord(item)) {
      const tool = readVertexAiSearch(reader, item, at);
      if (tool !== undefined) builtInTools.push(tool);
      continue;
    }
    // ADK's tools that the model's provider runs itself: built-in tool entries of the request, not declarations.
    const builtIn = typeof named === 'string' ? own(ADK_BUILT_IN_TOOLS, named) : undefined;
    if (builtIn !== undefined) {
      if (isPlainRecord(item)) reader.keys(item, at, ['name']);
      builtInTools.push({ ...builtIn });
      continue;
    }
    const bound = typeof named === 'string' ? bindingOf(scope.options.bindings, named) : undefined;
    if (typeof named === 'string' && bound !== undefined) {
      const tool = await boundTool(reader, named, at, bound, scope.options.declarePythonTools, scope.file);
      if (tool !== undefined) tools.push(tool);
      continue;
    }
    if (typeof named === 'string') {
      const offered =
        (scope.options.tools === undefined ? undefined : own(scope.options.tools, named)) ??
        own(ADK_FUNCTION_TOOLS, named);
      const made =
        offered === undefined
          ? await python.pythonTool(reader, named, at, scope.options, scope.file)
          : { tool: offered };
      if (made !== undefined && 'tool' in made) tools.push(made.tool);
      else if (made !== undefined) extensions.push(made.extension);
      else if (!python.isPythonPath(named) || scope.options.declarePythonTools === undefined)
        reader.issue(at, unknownToolMessage(named));
      continue;
    }
    const record = reader.object(item, at, 'a tool: a name, or { name, description, parameters }');
    if (record === undefined) continue;
    reader.keys(record, at, ['name', 'description', 'parameters']);
    const name = reader.string(record, 'name', at, { nonEmpty: true });
    const description = reader.string(record, 'description', at);
    const parameters =
      record['parameters'] == null
        ? undefined
        : reader.object(record['parameters'], joinPath(at, 'parameters'), 'a JSON Schema object');
    if (name === undefined || description === undefined) continue;
    try {
      tools.push(declareTool({ name, description, ...(parameters === undefined ? {} : { parameters }) }));
    } catch (error) {
      for (const issue of (error as ValidationError).issues ?? [])
        reader.issue(joinPath(at, issue.path), issue.message);
    }
  }
  return {
    tools,
    ...(builtInTools.length === 0 ? {} : { builtInTools }),
    ...(extensions.length === 0 ? {} : { extensions }),
  };
}

/**
 * ADK's `{ name: AgentTool, args: { agent: { config_path } | <agent>, skip_summarization } }`: another agent offered
 * as a tool, defined inline or in its own file.
 */
async function readAgentTool(
  reader: JsonReader,
  item: Record<string, unknown>,
  path: string,
  scope: ToolsScope,
): Promise<Tool | undefined> {
  reader.keys(item, path, ['name', 'args']);
  const args = reader.object(
    item['args'],
    joinPath(path, 'args'),
    'the agent tool\u2019s arguments: { agent, skip_summarization? }',
  );
  if (args === undefined) return undefined;
  const at = joinPath(path, 'args');
  const normalized = Object.fromEntries(
    Object.entries(args).map(([key, value]) => [key === 'skip_summarization' ? 'skipSummarization' : key, value]),
  );
  reader.keys(normalized, at, ['agent', 'skipSummarization']);
  const skipSummarization = reader.boolean(normalized, 'skipSummarization', at);
  if (normalized['agent'] === undefined)
    return reader.issue(joinPath(at, 'agent'), 'is required: { config_path: other-agent.yaml }, or the agent inline');
  const agent = await scope.readAgent(reader, normalized['agent'], joinPath(at, 'agent'));
  if (agent === undefined) return undefined;
  try {
    return agentTool(agent, skipSummarization === true ? { skipSummarization } : {});
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    for (const issue of error.issues) reader.issue(joinPath(at, 'agent'), issue.message);
    return undefined;
  }
}

// `{ name: VertexAiSearchTool, args: { data_store_id | search_engine_id, data_store_specs, filter, max_results } }`.
function readVertexAiSearch(reader: JsonReader, item: Record<string, unknown>, path: string): BuiltInTool | undefined {
  reader.keys(item, path, ['name', 'args']);
  const at = joinPath(path, 'args');
  const args = reader.object(item['args'], at, '{ data_store_id | search_engine_id, filter?, max_results? }');
  if (args === undefined) return undefined;
  reader.keys(args, at, ['data_store_id', 'search_engine_id', 'data_store_specs', 'filter', 'max_results']);
  const text = (key: string) => reader.string(args, key, at, { optional: true, nonEmpty: true });
  const specs =
    args['data_store_specs'] == null
      ? undefined
      : (reader.array(args['data_store_specs'], joinPath(at, 'data_store_specs')) ?? []).flatMap((spec, index) => {
          const where = joinPath(joinPath(at, 'data_store_specs'), index);
          const record = reader.object(spec, where, '{ data_store, filter? }');
          if (record === undefined) return [];
          reader.keys(record, where, ['data_store', 'filter']);
          const dataStore = reader.string(record, 'data_store', where, { optional: true });
          const filter = reader.string(record, 'filter', where, { optional: true });
          return [{ ...(dataStore === undefined ? {} : { dataStore }), ...(filter === undefined ? {} : { filter }) }];
        });
  const made = vertexAiSearchTool({
    dataStoreId: text('data_store_id'),
    searchEngineId: text('search_engine_id'),
    dataStoreSpecs: specs,
    filter: text('filter'),
    maxResults: reader.number(args, 'max_results', at, { optional: true, integer: true, min: 1 }),
  });
  return 'error' in made ? reader.issue(at, made.error) : made;
}
