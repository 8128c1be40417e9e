import { ValidationError, type ValidationIssue } from '../errors/validation-error.js';
import type { RequestConfig } from '../request/request.js';
import { isPythonIdentifier } from '../state/python-text.js';
import { checkToolName, type Tool } from '../tools/tool.js';
import type { AgentCallbacks } from './callbacks.js';
import type { MemoryEntry, SkillEntry } from '../context/agent-context.js';
import { checkSkill, SKILL_MODES } from '../context/skill.js';
import type { Processor } from '../request/processor.js';
import { TokenBasedContextCompactor } from '../compaction/compaction-config.js';
import type { AgentDefinition, SystemSections, Instruction, LlmAgentDefinition, StaticInstruction, WorkflowAgentDefinition } from './agent.js';

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
  sections?: SystemSections;
  skills?: readonly SkillEntry[];
  skillListingBudget?: number;
  memory?: readonly MemoryEntry[];
  pipeline?: readonly Processor[];
  contextCompactors?: readonly TokenBasedContextCompactor[];
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
  checkContext(config, issues);
  (config.contextCompactors ?? []).forEach((compactor, index) => {
    if (!(compactor instanceof TokenBasedContextCompactor)) issues.push({ path: `contextCompactors[${index}]`, message: 'expected a TokenBasedContextCompactor' });
  });
  if (config.outputKey !== undefined && config.outputKey.trim() === '') issues.push({ path: 'outputKey', message: 'must not be empty' });
  throwIfIssues(config.name, issues);
  const { subAgents, tools: _tools, description, disallowTransferToParent, disallowTransferToPeers, includeContents, contextCompactors, ...rest } = config;
  return Object.freeze({
    ...rest,
    kind: 'llm',
    description: description ?? '',
    subAgents: Object.freeze([...(subAgents ?? [])]),
    tools: Object.freeze([...tools]),
    disallowTransferToParent: disallowTransferToParent ?? false,
    disallowTransferToPeers: disallowTransferToPeers ?? false,
    includeContents: includeContents ?? 'default',
    ...(contextCompactors === undefined ? {} : { contextCompactors: Object.freeze([...contextCompactors]) }),
  });
}

// Skills must follow their format and be offered once; memory files once each; a budget must be a positive count.
function checkContext(config: LlmAgentConfig, issues: ValidationIssue[]): void {
  const skillNames = new Set<string>();
  (config.skills ?? []).forEach((entry, index) => {
    for (const issue of checkSkill(entry.skill)) issues.push({ path: `skills[${index}].${issue.path}`, message: issue.message });
    if (!SKILL_MODES.includes(entry.mode)) issues.push({ path: `skills[${index}].mode`, message: `expected ${SKILL_MODES.join(', ')}, got '${String(entry.mode)}'` });
    if (skillNames.has(entry.skill.name)) issues.push({ path: `skills[${index}]`, message: `skill '${entry.skill.name}' is offered twice` });
    skillNames.add(entry.skill.name);
  });
  const memoryNames = new Set<string>();
  (config.memory ?? []).forEach((entry, index) => {
    if (entry.mode !== 'on' && entry.mode !== 'off') issues.push({ path: `memory[${index}].mode`, message: `expected on or off, got '${String(entry.mode)}'` });
    if (memoryNames.has(entry.file.name)) issues.push({ path: `memory[${index}]`, message: `memory file '${entry.file.name}' is offered twice` });
    memoryNames.add(entry.file.name);
  });
  const budget = config.skillListingBudget;
  if (budget !== undefined && (!Number.isInteger(budget) || budget < 1)) issues.push({ path: 'skillListingBudget', message: `expected a whole number of tokens ≥ 1, got ${String(budget)}` });
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
