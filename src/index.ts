/**
 * @module agentctx
 * What you build agents with: definitions, the runner, tools, plugins, the data model, the store and model
 * contracts, and the errors. Each concern beyond these has its own entry: `agentctx/pipeline` (processors and
 * provenance), `agentctx/compaction`, `agentctx/templating`, `agentctx/harness` (sections, skills, memory),
 * `agentctx/paging`, `agentctx/files` (agent and case files), `agentctx/sessions` (JSON and state helpers),
 * `agentctx/tokens`, `agentctx/adk` (ADK's profile and Python values), `agentctx/models`, the stores, the server,
 * the web inspector and `agentctx/testing`.
 */
export { customAgent, llmAgent, loopAgent, parallelAgent, sequentialAgent } from './engine/agent/define-agent.js';
export type { LlmAgentConfig, WorkflowAgentConfig } from './engine/agent/define-agent.js';
export { createAgentTree } from './engine/agent/agent-tree.js';
export type {
  AgentDefinition,
  AgentNode,
  AgentTree,
  CustomAgentDefinition,
  Extension,
  Instruction,
  InstructionProvider,
  InvocationContext,
  LlmAgentDefinition,
  Plugin,
  PluginHooks,
  StaticInstruction,
  WorkflowAgentDefinition,
} from './contracts/agent.js';
export type { AgentCallbacks } from './contracts/callbacks.js';
export type {
  CallbackContext,
  ReadonlyContext,
  SessionArtifacts,
  ToolActions,
  ToolContext,
} from './contracts/contexts.js';

export { functionTool } from './engine/tools/function-tool.js';
export type { FunctionToolConfig, StandardSchema } from './engine/tools/function-tool.js';
export { agentTool } from './engine/tools/agent-tool.js';
export { declareTool } from './engine/tools/tool.js';
export type { Tool, Toolset } from './contracts/tool.js';

export { createRunner } from './presets/create-runner.js';
export type { RunnerOptions } from './presets/create-runner.js';
export type { Runner, RunInput } from './engine/runner/runner.js';
export type { RunnerStats } from './engine/runner/invocation.js';
export { assembleRequest } from './presets/assemble-request.js';
export type { AssembleOptions } from './engine/assembly/assemble.js';
export type { AssembledRequest } from './contracts/provenance.js';
export { GlobalInstructionPlugin } from './features/global-instruction/global-instruction-plugin.js';
export { deriveProfile } from './engine/profile/profiles.js';
export type { Profile, ProfileName } from './contracts/profile.js';
export type { EventsCompactionConfig } from './contracts/compaction.js';

export type { Content, Part } from './contracts/content.js';
export type { Event, EventActions, Usage } from './contracts/event.js';
export { createEvent } from './engine/session/create-event.js';
export type { Session } from './contracts/session.js';
export type { SessionStore } from './contracts/session-store.js';
export { createInMemorySessionStore } from './engine/session/in-memory-session-store.js';
export type { Artifact } from './contracts/artifact.js';
export type { ArtifactStore } from './contracts/artifact-store.js';
export { binaryArtifact, textArtifact } from './engine/session/artifacts.js';
export { createInMemoryArtifactStore } from './engine/session/in-memory-artifact-store.js';

export type { Model, ModelCallOptions, ModelResponse, ModelStreamChunk } from './contracts/model.js';
export type { ModelCallRecord } from './contracts/model-call.js';
export type { LlmRequest, RequestConfig, ToolDeclaration } from './contracts/request.js';

export { AgentctxError } from './contracts/errors/agentctx-error.js';
export type { AgentctxErrorCode } from './contracts/errors/agentctx-error.js';
export { ConflictError } from './contracts/errors/conflict-error.js';
export { ModelError } from './contracts/errors/model-error.js';
export { NotFoundError } from './contracts/errors/not-found-error.js';
export { ProcessorError } from './contracts/errors/processor-error.js';
export { TemplateError } from './contracts/errors/template-error.js';
export { UnavailableError } from './contracts/errors/unavailable-error.js';
export { UsageError } from './contracts/errors/usage-error.js';
export { ValidationError } from './contracts/errors/validation-error.js';
export type { ValidationIssue } from './contracts/errors/validation-error.js';
