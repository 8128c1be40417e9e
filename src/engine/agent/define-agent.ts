import type {
  AgentMode,
  CustomAgentDefinition,
  IncludeContents,
  LlmAgentDefinition,
  WorkflowAgentDefinition,
} from '../../contracts/agent.js';
import type { Tool, Toolset } from '../../contracts/tool.js';
import type { ContextCompactor } from '../../contracts/compaction.js';
import type { OutputSchema, OutputSchemaInput } from '../../contracts/output-schema.js';
import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';
import { checkExtensions } from '../extensions/check-extensions.js';
import { isPythonIdentifier } from '../python/python-text.js';
import { checkToolName, isValidToolName } from '../tools/tool.js';
import { toOutputSchema } from './output-schema.js';

/** The agent modes, in the order messages list them. */
export const AGENT_MODES: readonly AgentMode[] = ['chat', 'task', 'single_turn'];

/** The values of `includeContents`. */
export const INCLUDE_CONTENTS: readonly IncludeContents[] = ['default', 'none'];

/**
 * What `llmAgent` takes: the definition's fields, each optional but the name (defaults in the definition's comments).
 * `tools` may hold toolsets beside tools, as ADK's does; they join `toolsets`, after those given there.
 */
export type LlmAgentConfig = Pick<LlmAgentDefinition, 'name'> &
  Partial<Omit<LlmAgentDefinition, 'kind' | 'name' | 'tools' | 'outputSchema' | 'inputSchema'>> & {
    tools?: readonly (Tool | Toolset)[];
    /** A JSON Schema, a Standard Schema (zod…), or an `OutputSchema`. */
    outputSchema?: OutputSchemaInput;
    /** The same kinds as `outputSchema`; an object schema (the tool's parameters are its properties). */
    inputSchema?: OutputSchemaInput;
  };

function isToolset(value: Tool | Toolset): value is Toolset {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'toolset';
}

/** What the workflow agents take: a name, the sub-agents, and a description. */
export type WorkflowAgentConfig = Pick<WorkflowAgentDefinition, 'name' | 'subAgents'> &
  Partial<Pick<WorkflowAgentDefinition, 'description'>>;

/** Defines an agent that talks to a model. The definition is frozen; build a tree with `createAgentTree`. */
export function llmAgent(config: LlmAgentConfig): LlmAgentDefinition {
  const issues: ValidationIssue[] = [];
  checkAgentName(config.name, issues);
  const given = config.tools ?? [];
  const tools = given.filter((tool): tool is Tool => !isToolset(tool));
  const toolsets = [...(config.toolsets ?? []), ...given.filter(isToolset)];
  const extensions = config.extensions ?? [];
  issues.push(...checkExtensions(extensions, 'extensions', 'agent'));
  const seen = new Set<string>();
  const offered = [
    ...tools.map((tool, index) => ({ tool, path: `tools[${index}]` })),
    ...extensions.flatMap((extension, at) =>
      (extension.tools ?? []).map((tool, index) => ({ tool, path: `extensions[${at}].tools[${index}]` })),
    ),
  ];
  for (const { tool, path } of offered) {
    try {
      checkToolName(tool.name);
    } catch {
      if (path.startsWith('tools'))
        issues.push({ path: `${path}.name`, message: `'${tool.name}' is not a valid tool name` });
    }
    if (seen.has(tool.name)) issues.push({ path: `${path}.name`, message: `'${tool.name}' is declared twice` });
    seen.add(tool.name);
  }
  issues.push(...checkToolsets(toolsets));
  if (config.includeContents !== undefined && !INCLUDE_CONTENTS.includes(config.includeContents)) {
    issues.push({
      path: 'includeContents',
      message: `expected ${oneOf(INCLUDE_CONTENTS)}, got '${String(config.includeContents)}'`,
    });
  }
  if (config.mode !== undefined && !AGENT_MODES.includes(config.mode))
    issues.push({ path: 'mode', message: `expected ${oneOf(AGENT_MODES)}, got '${String(config.mode)}'` });
  (config.contextCompactors ?? []).forEach((compactor, index) =>
    issues.push(...checkCompactor(compactor, `contextCompactors[${index}]`)),
  );
  if (config.outputKey !== undefined && config.outputKey.trim() === '')
    issues.push({ path: 'outputKey', message: 'must not be empty' });
  (config.builtInTools ?? []).forEach((tool, index) => {
    for (const field of ['provider', 'type'] as const) {
      if (typeof tool[field] !== 'string' || tool[field].trim() === '')
        issues.push({
          path: `builtInTools[${index}].${field}`,
          message: `must name the ${field === 'provider' ? "tool's provider (google, anthropic, openai)" : "tool as its provider's API does (googleSearch)"}`,
        });
    }
  });
  const outputSchema = readOutputSchema(config.outputSchema, 'outputSchema', issues);
  const inputSchema = readOutputSchema(config.inputSchema, 'inputSchema', issues);
  if (inputSchema !== undefined && inputSchema.form !== 'model')
    issues.push({
      path: 'inputSchema',
      message: 'must describe an object (type: object, with properties): the tool’s arguments',
    });
  throwIfIssues(config.name, issues);
  const {
    subAgents,
    outputSchema: _outputSchema,
    inputSchema: _inputSchema,
    tools: _tools,
    toolsets: _toolsets,
    extensions: _extensions,
    description,
    disallowTransferToParent,
    disallowTransferToPeers,
    includeContents,
    contextCompactors,
    ...rest
  } = config;
  return Object.freeze({
    ...rest,
    kind: 'llm',
    description: description ?? '',
    subAgents: Object.freeze([...(subAgents ?? [])]),
    tools: Object.freeze([...tools]),
    toolsets: Object.freeze(toolsets),
    disallowTransferToParent: disallowTransferToParent ?? false,
    disallowTransferToPeers: disallowTransferToPeers ?? false,
    includeContents: includeContents ?? 'default',
    extensions: Object.freeze([...extensions]),
    ...(contextCompactors === undefined ? {} : { contextCompactors: Object.freeze([...contextCompactors]) }),
    ...(outputSchema === undefined ? {} : { outputSchema }),
    ...(inputSchema === undefined ? {} : { inputSchema }),
  });
}

function readOutputSchema(
  given: OutputSchemaInput | undefined,
  path: string,
  issues: ValidationIssue[],
): OutputSchema | undefined {
  if (given === undefined) return undefined;
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    issues.push({ path, message: 'expected a JSON Schema object, a Standard Schema (zod…) or an OutputSchema' });
    return undefined;
  }
  try {
    return toOutputSchema(given);
  } catch (error) {
    issues.push({ path, message: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

// Toolsets are named uniquely (their names prefix colliding tool names and attribute definitions) and can list tools.
function checkToolsets(toolsets: readonly Toolset[]): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const names = new Set<string>();
  toolsets.forEach((toolset, index) => {
    const path = `toolsets[${index}]`;
    if (typeof toolset.listTools !== 'function')
      issues.push({ path, message: 'expected a toolset (an object with listTools)' });
    if (!isValidToolName(toolset.name))
      issues.push({
        path: `${path}.name`,
        message: `'${String(toolset.name)}' is not a valid toolset name (a tool name's rules apply)`,
      });
    else if (names.has(toolset.name))
      issues.push({ path: `${path}.name`, message: `'${toolset.name}' names two toolsets` });
    names.add(toolset.name);
  });
  return issues;
}

// A compactor is anything with the two counts (a TokenBasedContextCompactor, or a plain object) and maybe a summarizer.
function checkCompactor(compactor: ContextCompactor, path: string): ValidationIssue[] {
  if (typeof compactor !== 'object' || compactor === null)
    return [{ path, message: 'expected a TokenBasedContextCompactor' }];
  const issues: ValidationIssue[] = [];
  for (const key of ['tokenThreshold', 'eventRetentionSize'] as const) {
    const value = compactor[key];
    const least = key === 'tokenThreshold' ? 1 : 0;
    if (!Number.isInteger(value) || value < least)
      issues.push({ path: `${path}.${key}`, message: `expected a whole number ≥ ${least}, got ${String(value)}` });
  }
  if (compactor.summarizer !== undefined && typeof compactor.summarizer?.summarize !== 'function')
    issues.push({ path: `${path}.summarizer`, message: 'expected a summarizer (an object with summarize)' });
  return issues;
}

/** What `customAgent` takes: a name, its sub-agents (which `run` may run), and its logic. */
export type CustomAgentConfig = Pick<CustomAgentDefinition, 'name' | 'run'> &
  Partial<Pick<CustomAgentDefinition, 'description' | 'subAgents'>>;

/**
 * Defines an agent whose logic is code (ADK's `BaseAgent` subclass): `run` is an async generator that yields replies
 * (`{ content }`, `{ escalate: true }`, `{ transferToAgent }`), each stored as this agent's event, and its sub-agents'
 * events (`yield* agent.runSubAgent(name)`).
 *
 * @example
 * const router = customAgent({
 *   name: 'router',
 *   subAgents: [billing, support],
 *   async *run(agent) {
 *     const text = JSON.stringify(agent.userContent ?? '');
 *     yield* agent.runSubAgent(/invoice|refund/.test(text) ? 'billing' : 'support');
 *   },
 * });
 */
export function customAgent(config: CustomAgentConfig): CustomAgentDefinition {
  const issues: ValidationIssue[] = [];
  checkAgentName(config.name, issues);
  if (typeof config.run !== 'function')
    issues.push({ path: 'run', message: 'expected a function (an async generator of replies and events)' });
  throwIfIssues(config.name, issues);
  return Object.freeze({
    kind: 'custom',
    name: config.name,
    description: config.description ?? '',
    subAgents: Object.freeze([...(config.subAgents ?? [])]),
    run: config.run,
  });
}

/** Runs its sub-agents one after another. */
export function sequentialAgent(config: WorkflowAgentConfig): WorkflowAgentDefinition {
  return workflowAgent('sequential', config);
}

/** Runs its sub-agents at the same time, each on its own branch. */
export function parallelAgent(config: WorkflowAgentConfig): WorkflowAgentDefinition {
  return workflowAgent('parallel', config);
}

/** Runs its sub-agents in order, again and again, until one escalates or `maxIterations` is reached. */
export function loopAgent(config: WorkflowAgentConfig & { maxIterations?: number }): WorkflowAgentDefinition {
  const definition = workflowAgent('loop', config);
  if (config.maxIterations === undefined) return definition;
  if (!Number.isInteger(config.maxIterations) || config.maxIterations < 1) {
    throwIfIssues(config.name, [
      { path: 'maxIterations', message: `expected a whole number ≥ 1, got ${String(config.maxIterations)}` },
    ]);
  }
  return Object.freeze({ ...definition, maxIterations: config.maxIterations });
}

function workflowAgent(kind: WorkflowAgentDefinition['kind'], config: WorkflowAgentConfig): WorkflowAgentDefinition {
  const issues: ValidationIssue[] = [];
  checkAgentName(config.name, issues);
  throwIfIssues(config.name, issues);
  return Object.freeze({
    kind,
    name: config.name,
    description: config.description ?? '',
    subAgents: Object.freeze([...config.subAgents]),
  });
}

/** ADK's rule: a Python identifier, and not `user`, which names the end user in every conversation. */
export function checkAgentName(name: unknown, issues: ValidationIssue[]): void {
  if (typeof name !== 'string' || !isPythonIdentifier(name)) {
    issues.push({
      path: 'name',
      message: `${JSON.stringify(name)} is not a valid agent name: use a letter or underscore, then letters, digits or underscores`,
    });
  } else if (name === 'user') {
    issues.push({ path: 'name', message: "'user' is reserved for the end user's messages; choose another name" });
  }
}

function oneOf(values: readonly string[]): string {
  return values.length === 2
    ? `'${values[0]}' or '${values[1]}'`
    : `${values
        .slice(0, -1)
        .map((value) => `'${value}'`)
        .join(', ')} or '${values.at(-1)}'`;
}

function throwIfIssues(name: unknown, issues: ValidationIssue[]): void {
  if (issues.length > 0)
    throw new ValidationError({ subject: `agent ${typeof name === 'string' ? `'${name}'` : 'definition'}`, issues });
}
