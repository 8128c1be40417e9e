import type { AgentDefinition } from '../contracts/agent.js';
import type { Tool } from '../contracts/tool.js';
import type { AgentFileField } from '../contracts/agent-file-field.js';
import { readAgentConfig, type AgentConfigOptions } from './agent-config.js';
import { refuse } from '../engine/config/file-fields.js';
import { joinPath } from '../engine/util/json-reader.js';
import { memoryField, type ReadMemory } from '../features/memory-files/memory-file-field.js';
import { sectionsField } from '../features/sections/sections-file.js';
import { skillsField, type ReadSkills } from '../features/skills/skills-file.js';
import { harnessPipeline } from './pipelines.js';
import { plannerField } from './planner-field.js';
import { adkMcpToolsetClass, toolsField, type MakeMcpToolset } from './tools-file-field.js';

/** What an agent file may read from disk; the CLI passes the real thing, tests their own. */
export type AgentFiles = {
  readSkills: ReadSkills;
  readMemory: ReadMemory;
  /** The `Read` and `Edit` tools confined to a workspace folder. */
  workspaceTools(root: string, from: string): readonly Tool[];
  /** Toolsets for the file's `mcp:` servers; without it `mcp` is refused. */
  mcpToolset?: MakeMcpToolset | undefined;
  /** Declarations of the Python function tools a file names (`pkg.module.function`); without it they are refused. */
  declarePythonTools?: AgentConfigOptions['declarePythonTools'];
  /** Runs them; without it they are declared only (the commands that only read an agent). */
  runPythonTool?: AgentConfigOptions['runPythonTool'];
  /** Told what of a file is read but will not run (Python callbacks); without it such parts are refused. */
  warn?: ((message: string) => void) | undefined;
  /** Reads Python objects from their source: agents named by `code:`; without it `code:` is refused. */
  readPythonObjects?: AgentConfigOptions['readPythonObjects'];
  /** Reads the pydantic classes a file names as `output_schema`; without it such names are refused. */
  readPythonSchemas?: AgentConfigOptions['readPythonSchemas'];
  /** TypeScript for the Python names a file gives (`bindings` of the reader's options wins). */
  bindings?: AgentConfigOptions['bindings'];
};

export type AgentFileOptions = Omit<AgentConfigOptions, 'fields'> & {
  /** File access for skills, memory and workspace tools, relative to the file that names them; without it such fields are refused. */
  files?: AgentFiles | undefined;
};

/**
 * An agent tree from its declarative form (YAML or JSON, parsed): the same fields as `llmAgent` and the workflow
 * agents, in camelCase or ADK's snake_case, with sub-agents inline or in other files (`configPath`), and the keys of
 * agentctx's features: `preset`, `sections`, `skills`, `memoryFiles` (`memory`, its old spelling), `workspace`, `mcp`, `toolSearch`, `toolBudget`.
 */
export function agentFromConfig(value: unknown, options: AgentFileOptions): Promise<AgentDefinition> {
  const { files, ...rest } = options;
  const make = files?.mcpToolset;
  // ADK's spellings of its MCP toolset class, listed in `tools`.
  const toolsets =
    make === undefined ? {} : { McpToolset: adkMcpToolsetClass(make), MCPToolset: adkMcpToolsetClass(make) };
  const declarePythonTools = files?.declarePythonTools;
  const runPythonTool = files?.runPythonTool;
  const warn = files?.warn;
  const readPythonObjects = files?.readPythonObjects;
  const readPythonSchemas = files?.readPythonSchemas;
  const bindings = rest.bindings ?? files?.bindings;
  return readAgentConfig(value, {
    ...rest,
    ...(bindings === undefined ? {} : { bindings }),
    fields: agentFileFields(files),
    toolsets,
    ...(declarePythonTools === undefined ? {} : { declarePythonTools }),
    ...(runPythonTool === undefined ? {} : { runPythonTool }),
    ...(warn === undefined ? {} : { onWarning: warn }),
    ...(readPythonObjects === undefined ? {} : { readPythonObjects }),
    ...(readPythonSchemas === undefined ? {} : { readPythonSchemas }),
  });
}

/** The feature keys an agent file may hold, each read by its feature. */
export function agentFileFields(files: AgentFiles | undefined): AgentFileField[] {
  return [
    presetField,
    sectionsField,
    skillsField(files?.readSkills),
    memoryField(files?.readMemory),
    workspaceField(files),
    toolsField(files?.mcpToolset),
    plannerField,
  ];
}

/** `preset: harness` runs the harness pipeline (sectioned system text, no ADK identity or transfer text); `adk` the default. */
const presetField: AgentFileField = {
  schema: {
    preset: {
      enum: ['adk', 'harness'],
      description:
        'adk (default): ADK\u2019s request, byte for byte; harness: a sectioned system text (see sections), no identity or transfer text.',
    },
  },
  read({ reader, record, path }) {
    const preset = record['preset'];
    if (preset === 'harness') return { pipeline: harnessPipeline() };
    if (preset !== 'adk')
      reader.issue(joinPath(path, 'preset'), `expected adk or harness, got ${JSON.stringify(preset)}`);
    return {};
  },
};

/** `workspace: <folder>` lets the file name the `Read` and `Edit` tools, confined to that folder. */
function workspaceField(files: AgentFiles | undefined): AgentFileField {
  return {
    schema: {
      workspace: {
        type: 'string',
        description: 'A folder (relative to this file) the Read and Edit tools are confined to; name them in tools.',
        examples: ['docs'],
      },
    },
    read({ reader, record, path, file }) {
      const root = reader.string(record, 'workspace', path, { nonEmpty: true });
      if (root === undefined) return {};
      if (files === undefined) return refuse(reader, joinPath(path, 'workspace'));
      return { tools: Object.fromEntries(files.workspaceTools(root, file).map((tool) => [tool.name, tool])) };
    },
  };
}
