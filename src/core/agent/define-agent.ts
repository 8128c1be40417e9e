import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import type { RequestConfig } from '../request/request.js';
import { isPythonIdentifier } from '../state/python-text.js';
import { checkToolName, type Tool } from '../tools/tool.js';
import type { AgentCallbacks } from './callbacks.js';
import type { AgentDefinition, Instruction, LlmAgentDefinition, StaticInstruction, WorkflowAgentDefinition } from './agent.js';

export type LlmAgentConfig = {
  name: string;
  description?: string;
  model?: string;
  instruction?: Instruction;
  globalInstruction?: Instruction;
  staticInstruction?: StaticInstruction;
  subAgents?: readonly AgentDefinition[];
  disallowTransferToParent?: boolean;
  disallowTransferToPeers?: boolean;
  includeContents?: 'default' | 'none';
  tools?: readonly Tool[];
  outputKey?: string;
  generateConfig?: Omit<RequestConfig, 'model'>;
  callbacks?: AgentCallbacks;
  mode?: 'chat' | 'task' | 'single_turn';
};

export type WorkflowAgentConfig = {
  name: string;
  description?: string;
  subAgents: readonly AgentDefinition[];
};

/** Defines an agent that talks to a model. The definition is frozen; build a tree with `createAgentTree`. */
export function llmAgent(config: LlmAgentConfig): LlmAgentDefinition {
  const issues: ValidationIssue[] = [];
  checkAgentName(config.name, issues);
  const tools = config.tools ?? [];
  const seen = new Set<string>();
  tools.forEach((tool, index) => {
    try {
      checkToolName(tool.name);
    } catch {
      issues.push({ path: `tools[${index}].name`, message: `'${tool.name}' is not a valid tool name` });
    }
    if (seen.has(tool.name)) issues.push({ path: `tools[${index}].name`, message: `'${tool.name}' is declared twice` });
    seen.add(tool.name);
  });
  if (config.includeContents !== undefined && config.includeContents !== 'default' && config.includeContents !== 'none') {
    issues.push({ path: 'includeContents', message: `expected 'default' or 'none', got '${String(config.includeContents)}'` });
  }
  if (config.mode !== undefined && !['chat', 'task', 'single_turn'].includes(config.mode)) {
    issues.push({ path: 'mode', message: `expected 'chat', 'task' or 'single_turn', got '${String(config.mode)}'` });
  }
  if (config.outputKey !== undefined && config.outputKey.trim() === '') issues.push({ path: 'outputKey', message: 'must not be empty' });
  throwIfIssues(config.name, issues);
  const { subAgents, tools: _tools, description, disallowTransferToParent, disallowTransferToPeers, includeContents, ...rest } = config;
  return Object.freeze({
    ...rest,
    kind: 'llm',
    description: description ?? '',
    subAgents: Object.freeze([...(subAgents ?? [])]),
    tools: Object.freeze([...tools]),
    disallowTransferToParent: disallowTransferToParent ?? false,
    disallowTransferToPeers: disallowTransferToPeers ?? false,
    includeContents: includeContents ?? 'default',
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
    throwIfIssues(config.name, [{ path: 'maxIterations', message: `expected a whole number ≥ 1, got ${String(config.maxIterations)}` }]);
  }
  return Object.freeze({ ...definition, maxIterations: config.maxIterations });
}

function workflowAgent(kind: WorkflowAgentDefinition['kind'], config: WorkflowAgentConfig): WorkflowAgentDefinition {
  const issues: ValidationIssue[] = [];
  checkAgentName(config.name, issues);
  throwIfIssues(config.name, issues);
  return Object.freeze({ kind, name: config.name, description: config.description ?? '', subAgents: Object.freeze([...config.subAgents]) });
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

function throwIfIssues(name: unknown, issues: ValidationIssue[]): void {
  if (issues.length > 0) throw new ValidationError({ subject: `agent ${typeof name === 'string' ? `'${name}'` : 'definition'}`, issues });
}
