import type { AgentDefinition, StaticInstruction, Extension, Processor } from '../contracts/agent.js';
import type { Part } from '../contracts/content.js';
import { AgentctxError } from '../contracts/errors/agentctx-error.js';
import { ValidationError, type ValidationIssue } from '../contracts/errors/validation-error.js';
import type { Tool, Toolset } from '../contracts/tool.js';
import type { AgentFileField, ToolsetClass } from '../contracts/agent-file-field.js';
import {
  AGENT_MODES,
  INCLUDE_CONTENTS,
  llmAgent,
  loopAgent,
  parallelAgent,
  sequentialAgent,
  type LlmAgentConfig,
} from '../engine/agent/define-agent.js';
import { readPart } from '../engine/session/decode-content.js';
import {
  AGENT_CLASSES,
  LLM_FIELD_SCHEMAS,
  REFERENCE_FIELD_SCHEMAS,
  WORKFLOW_FIELD_SCHEMAS,
} from '../engine/config/agent-file-schema.js';
import { JsonReader, isPlainRecord, joinPath } from '../engine/util/json-reader.js';
import { own, refuseCode } from './adk-code-refusals.js';
import { readTools } from './agent-file-tools.js';
import { readProfileSpec } from './profile-spec.js';
import { inAdkSpelling, isAdkSpelled } from './adk-spelling.js';
import { bindingOf, boundAgent, boundCallbacks, type AdkBinding } from './adk-bindings.js';
import { mayRecur } from '../engine/agent/agent-tree.js';
import { fieldKeys, normalizeKeys } from './agent-file-keys.js';
import { readGenerateConfig } from './generate-config.js';
import * as python from './python-tool.js';
import type { DeclarePythonTools, ReadPythonObjects, ReadPythonSchemas, RunPythonTool } from './python-tool.js';
import { readOutputSchema } from './output-schema-field.js';

export type AgentConfigOptions = {
  /** Named in errors. */
  filename: string;
  /** Reads an agent file named by `configPath`, relative to the file that names it; without it such references are refused. */
  load?: (reference: string, from: string) => Promise<{ value: unknown; filename: string }>;
  /** Implementations for tools the file names without declaring them. */
  tools?: Readonly<Record<string, Tool>>;
  /** Readers for the keys that features add to an LLM agent's fields (skills, memory, sections, …), tried in order. */
  fields?: readonly AgentFileField[];
  /**
   * Toolset classes a file may list in `tools` as ADK does (`{ name: McpToolset, args: { … } }`): each reads its
   * `args` (problems to `reader` under `path`) and makes the toolset; `index` is the entry's place in the list.
   */
  toolsets?: Readonly<Record<string, ToolsetClass>>;
  /** Declares the Python function tools a file names, as ADK declares them; without it such names are refused. */
  declarePythonTools?: DeclarePythonTools | undefined;
  /** Runs those tools; without it they are declared only. */
  runPythonTool?: RunPythonTool | undefined;
  /** Told what of the file is read but will not run (Python callbacks); without it such parts are refused. */
  onWarning?: ((message: string) => void) | undefined;
  /** Reads Python objects from their source (an agent a `code:` reference names); without it `code:` is refused. */
  readPythonObjects?: ReadPythonObjects | undefined;
  /** Reads the pydantic classes a file names as `output_schema`; without it such names are refused. */
  readPythonSchemas?: ReadPythonSchemas | undefined;
  /** TypeScript for the Python names the file gives (tools, callbacks, `code:` agents, agent classes), by dotted name. */
  bindings?: Readonly<Record<string, AdkBinding>> | undefined;
};

const LLM_FIELDS = Object.keys(LLM_FIELD_SCHEMAS);
const WORKFLOW_FIELDS = Object.keys(WORKFLOW_FIELD_SCHEMAS);
const REFERENCE_FIELDS = Object.keys(REFERENCE_FIELD_SCHEMAS);
const CLASSES: Readonly<Record<string, AgentDefinition['kind']>> = AGENT_CLASSES;

/**
 * An agent tree from its declarative form (YAML or JSON, parsed): the same fields as `llmAgent` and the workflow
 * agents, in camelCase or ADK's snake_case, with sub-agents inline or in other files (`configPath`).
 */
export async function readAgentConfig(value: unknown, options: AgentConfigOptions): Promise<AgentDefinition> {
  const reader = new JsonReader();
  const scope = { options, file: options.filename, loading: [], files: new Map() };
  // The root file may name the profile its agents run under (`profile: adk`); the commands read it (agentFileProfile).
  const { profile, ...root } = isPlainRecord(value) ? value : { profile: undefined };
  if (profile !== undefined) readProfileSpec(reader, profile, 'profile');
  const agent = await readAgent(reader, isPlainRecord(value) ? root : value, '', scope);
  if (agent === undefined || reader.issues.length > 0) {
    const issues = isAdkSpelled(value) ? reader.issues.map(inAdkSpelling) : reader.issues;
    throw new ValidationError({ subject: `agent definition in ${options.filename}`, issues });
  }
  return agent;
}

/** What reading one agent needs besides its value: the options, the file it is in, and the files being read above it (to refuse a loop). */
type ReadScope = {
  readonly options: AgentConfigOptions;
  readonly file: string;
  readonly loading: readonly string[];
  /** The agent files read so far: one named again (under another parent) is the same definition, as ADK builds it. */
  readonly files: Map<string, AgentDefinition | undefined>;
};

async function readAgent(
  reader: JsonReader,
  value: unknown,
  path: string,
  scope: ReadScope,
): Promise<AgentDefinition | undefined> {
  const { options } = scope;
  const raw = reader.object(value, path, 'an agent definition (a mapping)');
  if (raw === undefined) return undefined;
  const record = normalizeKeys(raw, options.fields ?? []);
  if (record['configPath'] !== undefined) return readReference(reader, record, path, scope);
  const code = record['code'];
  const boundCode = typeof code === 'string' ? bindingOf(options.bindings, code) : undefined;
  if (typeof code === 'string' && boundCode !== undefined && Object.keys(record).length === 1)
    return boundAgent(reader, code, joinPath(path, 'code'), boundCode, {});
  if (typeof code === 'string' && options.readPythonObjects !== undefined && Object.keys(record).length === 1) {
    const made = await python.pythonAgentRecord(
      reader,
      code,
      joinPath(path, 'code'),
      options.readPythonObjects,
      scope.file,
    );
    return made === undefined ? undefined : readAgent(reader, made, path, scope);
  }
  const callbacks = boundCallbacks(reader, record, path, options.bindings);
  if (refuseCode(reader, record, path, options.onWarning, scope.file)) return undefined;
  const agentClass = record['agentClass'];
  const boundClass = typeof agentClass === 'string' ? bindingOf(options.bindings, agentClass) : undefined;
  if (typeof agentClass === 'string' && boundClass !== undefined) {
    const { agentClass: _class, ...fields } = record;
    return boundAgent(reader, agentClass, joinPath(path, 'agentClass'), boundClass, fields);
  }
  if (typeof agentClass === 'string' && python.isPythonPath(agentClass) && options.onWarning !== undefined)
    return python.pythonClassAgent(reader, record, path, agentClass, options.onWarning, scope.file);
  const kind = readKind(reader, record, path);
  if (kind === undefined) return undefined;
  // A deprecated key (an old spelling) is read but not offered: the unknown-field message lists the current ones.
  const fields = options.fields ?? [];
  if (kind === 'llm')
    reader.keys(
      record,
      path,
      [...LLM_FIELDS, ...fields.flatMap((field) => fieldKeys(field, false))],
      fields.flatMap((field) => fieldKeys(field, true)),
    );
  else reader.keys(record, path, WORKFLOW_FIELDS);
  const name = reader.string(record, 'name', path);
  const description = reader.string(record, 'description', path, { optional: true });
  const subAgents: AgentDefinition[] = [];
  const list = record['subAgents'] == null ? [] : reader.array(record['subAgents'], joinPath(path, 'subAgents'));
  for (const [index, item] of (list ?? []).entries()) {
    const child = await readAgent(reader, item, joinPath(joinPath(path, 'subAgents'), index), scope);
    if (child !== undefined) subAgents.push(child);
  }
  if (name === undefined) return undefined;
  const common = { name, ...(description === undefined ? {} : { description }), subAgents };
  return define(reader, path, async () => {
    if (kind === 'sequential') return sequentialAgent(common);
    if (kind === 'parallel') return parallelAgent(common);
    if (kind === 'loop') {
      const maxIterations = reader.number(record, 'maxIterations', path, { optional: true, integer: true, min: 1 });
      return loopAgent({ ...common, ...(maxIterations === undefined ? {} : { maxIterations }) });
    }
    const features = await readFeatureFields(reader, record, path, options.fields ?? [], scope.file);
    const fields = await readLlmFields(reader, record, path, {
      ...scope,
      options: { ...options, tools: { ...options.tools, ...features.tools } },
    });
    return llmAgent({
      ...common,
      ...fields,
      ...(callbacks === undefined ? {} : { callbacks }),
      ...(features.pipeline === undefined ? {} : { pipeline: features.pipeline }),
      ...(fields.extensions === undefined && features.extensions.length === 0
        ? {}
        : { extensions: [...(fields.extensions ?? []), ...features.extensions] }),
      ...(features.toolsets.length === 0 ? {} : { toolsets: features.toolsets }),
    });
  });
}

async function readReference(
  reader: JsonReader,
  record: Record<string, unknown>,
  path: string,
  { options, file, loading, files }: ReadScope,
): Promise<AgentDefinition | undefined> {
  reader.keys(record, path, REFERENCE_FIELDS);
  const reference = reader.string(record, 'configPath', path, { nonEmpty: true });
  if (reference === undefined) return undefined;
  if (options.load === undefined)
    return reader.issue(joinPath(path, 'configPath'), 'agent files cannot be read here; define the agent inline');
  // Only agent files are read: a parse error quotes the lines it stopped at, which must not show another file's text.
  if (!/\.(?:ya?ml|json)$/i.test(reference))
    return reader.issue(
      joinPath(path, 'configPath'),
      `${JSON.stringify(reference)} is not an agent file: name a .yaml, .yml or .json file`,
    );
  let loaded: { value: unknown; filename: string };
  try {
    loaded = await options.load(reference, file);
  } catch (error) {
    // A file that cannot be read is a problem of the reference, named where it is (every problem of the file is listed).
    if (!AgentctxError.isInstance(error)) throw error;
    if (error.code === 'not_found')
      return reader.issue(
        joinPath(path, 'configPath'),
        `no file ${reference}: a config_path is read from the folder of the file that names it (${file})`,
      );
    const said =
      error instanceof ValidationError
        ? error.issues
            .map((issue) => (issue.path === '' ? issue.message : `${issue.path}: ${issue.message}`))
            .join('; ')
        : error.message;
    return reader.issue(joinPath(path, 'configPath'), `cannot read ${reference}: ${said}`);
  }
  if (loading.includes(loaded.filename)) {
    return reader.issue(
      joinPath(path, 'configPath'),
      `${reference} includes itself (${[...loading, loaded.filename].join(' → ')})`,
    );
  }
  if (isPlainRecord(loaded.value) && loaded.value['profile'] !== undefined)
    reader.issue(
      `${loaded.filename}: profile`,
      'a profile is named by the root agent file only (it applies to the whole tree); remove it here',
    );
  // Read once: its problems are listed once, and both parents get the same agent.
  if (files.has(loaded.filename)) {
    const again = files.get(loaded.filename);
    return again === undefined ? undefined : mayRecur(again);
  }
  const inner = new JsonReader();
  const { profile: _named, ...value } = isPlainRecord(loaded.value) ? loaded.value : { profile: undefined };
  const agent = await readAgent(inner, isPlainRecord(loaded.value) ? value : loaded.value, '', {
    options,
    file: loaded.filename,
    loading: [...loading, loaded.filename],
    files,
  });
  for (const issue of isAdkSpelled(loaded.value) ? inner.issues.map(inAdkSpelling) : inner.issues)
    reader.issue(`${loaded.filename}${issue.path === '' ? '' : `: ${issue.path}`}`, issue.message);
  files.set(loaded.filename, agent);
  return agent;
}

function readKind(
  reader: JsonReader,
  record: Record<string, unknown>,
  path: string,
): AgentDefinition['kind'] | undefined {
  const kind = record['kind'];
  const agentClass = record['agentClass'];
  if (kind !== undefined) {
    if (kind === 'llm' || kind === 'sequential' || kind === 'parallel' || kind === 'loop') return kind;
    return reader.issue(
      joinPath(path, 'kind'),
      `expected llm, sequential, parallel or loop, got ${JSON.stringify(kind)}`,
    );
  }
  if (agentClass !== undefined) {
    const mapped = typeof agentClass === 'string' ? own(CLASSES, agentClass) : undefined;
    if (mapped !== undefined) return mapped;
    const known = Object.keys(CLASSES).join(', ');
    // A dotted name is a class of the user's Python code; a bare one that is not ADK's own is no class ADK has either.
    const why =
      typeof agentClass === 'string' && /^[A-Za-z_]\w*$/.test(agentClass)
        ? `'${agentClass}' is not an agent class of ADK 2.5.0, which refuses the file too; use one of ${known}`
        : `expected one of ${known}, got ${JSON.stringify(agentClass)}`;
    return reader.issue(joinPath(path, 'agentClass'), why);
  }
  return 'llm';
}

async function readLlmFields(
  reader: JsonReader,
  record: Record<string, unknown>,
  path: string,
  scope: ReadScope,
): Promise<Omit<LlmAgentConfig, 'name' | 'description' | 'subAgents'>> {
  const optionalString = (key: string) => reader.string(record, key, path, { optional: true });
  const fields = {
    model: optionalString('model'),
    instruction: optionalString('instruction'),
    globalInstruction: optionalString('globalInstruction'),
    outputKey: optionalString('outputKey'),
    outputSchema: await readOutputSchema(reader, record['outputSchema'], joinPath(path, 'outputSchema'), {
      readPythonSchemas: scope.options.readPythonSchemas,
      bindings: scope.options.bindings,
      file: scope.file,
    }),
    inputSchema: await readOutputSchema(reader, record['inputSchema'], joinPath(path, 'inputSchema'), {
      readPythonSchemas: scope.options.readPythonSchemas,
      bindings: scope.options.bindings,
      file: scope.file,
    }),
    staticInstruction: readStatic(reader, record['staticInstruction'], joinPath(path, 'staticInstruction')),
    disallowTransferToParent: reader.boolean(record, 'disallowTransferToParent', path),
    disallowTransferToPeers: reader.boolean(record, 'disallowTransferToPeers', path),
    includeContents: oneOf(reader, record, 'includeContents', path, INCLUDE_CONTENTS),
    mode: oneOf(reader, record, 'mode', path, AGENT_MODES),
    ...(await readTools(reader, record['tools'], joinPath(path, 'tools'), {
      ...scope,
      readAgent: (inner, value, at) => readAgent(inner, value, at, scope),
    })),
    generateConfig: readGenerateConfig(reader, record['generateConfig'], joinPath(path, 'generateConfig')),
  };
  // Absent fields are left out rather than set to undefined, as the definition's optional fields require.
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Omit<
    LlmAgentConfig,
    'name' | 'description' | 'subAgents'
  >;
}

function oneOf<T extends string>(
  reader: JsonReader,
  record: Record<string, unknown>,
  key: string,
  path: string,
  allowed: readonly T[],
): T | undefined {
  const value = record[key];
  if (value === undefined) return undefined;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  return reader.issue(joinPath(path, key), `expected ${allowed.join(' or ')}, got ${JSON.stringify(value)}`);
}

function readStatic(reader: JsonReader, value: unknown, path: string): StaticInstruction | undefined {
  if (value == null) return undefined;
  if (typeof value === 'string') return value;
  const list = reader.array(value, path);
  if (list === undefined) return undefined;
  const items: (string | Part)[] = [];
  list.forEach((item, index) => {
    if (typeof item === 'string') items.push(item);
    else {
      const part = readPart(reader, item, joinPath(path, index));
      if (part !== undefined) items.push(part);
    }
  });
  return items;
}

// The features' keys present in the agent's fields, each read by its feature, in the order the readers are listed.
async function readFeatureFields(
  reader: JsonReader,
  record: Record<string, unknown>,
  path: string,
  fields: readonly AgentFileField[],
  file: string,
): Promise<{
  extensions: Extension[];
  tools: Record<string, Tool>;
  toolsets: Toolset[];
  pipeline: readonly Processor[] | undefined;
}> {
  const extensions: Extension[] = [];
  const tools: Record<string, Tool> = {};
  const toolsets: Toolset[] = [];
  let pipeline: readonly Processor[] | undefined;
  for (const field of fields) {
    if (!fieldKeys(field).some((key) => record[key] !== undefined)) continue;
    const result = await field.read({ reader, record, path, file });
    extensions.push(...(result.extensions ?? []));
    Object.assign(tools, result.tools);
    toolsets.push(...(result.toolsets ?? []));
    if (result.pipeline !== undefined) pipeline = result.pipeline;
  }
  return { extensions, tools, toolsets, pipeline };
}

// Definitions validate themselves (names, tools); their issues are reported at this agent's path.
async function define(
  reader: JsonReader,
  path: string,
  build: () => Promise<AgentDefinition>,
): Promise<AgentDefinition | undefined> {
  try {
    return await build();
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    error.issues.forEach((issue: ValidationIssue) =>
      reader.issue(issue.path === '' ? path : joinPath(path, issue.path), issue.message),
    );
    return undefined;
  }
}
