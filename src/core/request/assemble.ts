import type { AgentNode, AgentTree } from '../agent/agent-tree.js';
import { createAgentTree } from '../agent/agent-tree.js';
import { isLlmAgent, type AgentDefinition, type LlmAgentDefinition } from '../agent/agent.js';
import type { ReadonlyContext } from '../agent/readonly-context.js';
import { ProcessorError } from '../errors/processor-error.js';
import { ValidationError } from '../errors/validation-error.js';
import type { ContentsCache } from '../processors/contents/contents-cache.js';
import { defaultPipeline } from '../processors/default-pipeline.js';
import type { Content } from '../session/content.js';
import type { Event } from '../session/event.js';
import { injectState, type ArtifactTextReader } from '../state/template/inject-state.js';
import type { ValueFormat } from '../state/template/value-format.js';
import { copyValue } from '../util/copy-value.js';
import { emptyDraft } from './draft.js';
import { checkPipeline } from './pipeline.js';
import type { AssemblyContext, Processor } from './processor.js';
import { finishDraft, type Provenance, type ProcessorTrace } from './provenance.js';
import type { LlmRequest, RequestConfig } from './request.js';

export type AssembleOptions = {
  /** The agent tree, or its root definition. */
  agents: AgentTree | AgentDefinition;
  /** The agent being asked; the root when absent. */
  agentName?: string | undefined;
  appName?: string | undefined;
  userId?: string | undefined;
  sessionId?: string | undefined;
  /** The session's history, oldest first. */
  events?: readonly Event[] | undefined;
  /** The merged state (`app:`, `user:`, `temp:` keys under their prefixes). */
  state?: Readonly<Record<string, unknown>> | undefined;
  /** Where `{artifact.name}` reads from. */
  artifacts?: ArtifactTextReader | undefined;
  /** The branch of the running agent, for parallel workflows. */
  branch?: string | undefined;
  invocationId?: string | undefined;
  userContent?: Content | undefined;
  valueFormat?: ValueFormat | undefined;
  escapes?: boolean | undefined;
  stateAlias?: boolean | undefined;
  preserveFunctionCallIds?: boolean | undefined;
  /** The processors to run; `defaultPipeline()` when absent. */
  pipeline?: readonly Processor[] | undefined;
  /** Reuse messages built for earlier calls of the same session (see `ContentsCache`). */
  contentsCache?: ContentsCache | undefined;
  /** Show compaction summaries as ADK does (a model turn at the range's end, history re-sorted by time). */
  adkCompatibility?: boolean | undefined;
};

export type AssembledRequest = {
  request: LlmRequest;
  provenance: Provenance;
  trace: ProcessorTrace[];
  /** Things worth knowing about this request, such as skills left out of a listing that exceeded its budget. */
  warnings: string[];
};

/**
 * Builds the exact request a model call receives, and where every part of it came from, by running the pipeline's
 * processors in order. Deterministic: the same definitions and session give a byte-identical request.
 * The request shares unchanged parts with the events; use `cloneRequest` before editing it.
 */
export async function assembleRequest(options: AssembleOptions): Promise<AssembledRequest> {
  const tree = 'root' in options.agents ? options.agents : createAgentTree(options.agents);
  const node = options.agentName === undefined ? tree.root : tree.getAgent(options.agentName);
  const agent = node.definition;
  if (!isLlmAgent(agent)) {
    throw new ValidationError({
      subject: 'request',
      issues: [{ path: 'agentName', message: `'${agent.name}' is a ${agent.kind} agent, which calls no model` }],
      hint: 'Ask one of its LLM sub-agents instead.',
    });
  }
  const pipeline = options.pipeline ?? agent.pipeline ?? defaultPipeline();
  checkPipeline(pipeline);
  const context = createAssemblyContext(tree, node, agent, options);
  let draft = emptyDraft(requestConfig(node, agent));
  const trace: ProcessorTrace[] = [];
  for (const processor of pipeline) {
    const before = draft;
    try {
      draft = await processor.process(draft, context);
    } catch (error) {
      throw new ProcessorError({ processor: processor.name, agent: agent.name, cause: error });
    }
    trace.push({
      processor: processor.name,
      systemBlocks: draft.systemBlocks.length - before.systemBlocks.length,
      tools: draft.tools.length - before.tools.length,
      messages: draft.messages.length - before.messages.length,
    });
  }
  return { ...finishDraft(draft), trace };
}

function createAssemblyContext(tree: AgentTree, node: AgentNode, agent: LlmAgentDefinition, options: AssembleOptions): AssemblyContext {
  const state = options.state ?? {};
  const base = {
    tree,
    node,
    agent,
    appName: options.appName ?? 'agentctx',
    userId: options.userId ?? 'user',
    sessionId: options.sessionId ?? 'session',
    events: options.events ?? [],
    state,
    artifacts: options.artifacts,
    branch: options.branch,
    invocationId: options.invocationId ?? '',
    userContent: options.userContent,
    valueFormat: options.valueFormat ?? 'default',
    escapes: options.escapes ?? false,
    stateAlias: options.stateAlias ?? true,
    preserveFunctionCallIds: options.preserveFunctionCallIds ?? false,
    contentsCache: options.contentsCache,
    adkCompatibility: options.adkCompatibility ?? false,
  };
  const readonly: ReadonlyContext = {
    agentName: agent.name,
    invocationId: base.invocationId,
    appName: base.appName,
    userId: base.userId,
    sessionId: base.sessionId,
    branch: base.branch,
    userContent: base.userContent,
    state: {
      get: <T>(key: string) => copyValue(state[key]) as T | undefined,
      has: (key: string) => Object.hasOwn(state, key),
      toRecord: () => copyValue({ ...state }),
    },
    injectState: (template: string) =>
      injectState(template, { state, artifacts: base.artifacts, valueFormat: base.valueFormat, escapes: base.escapes, stateAlias: base.stateAlias }),
  };
  return { ...base, readonly };
}

// The model comes from the agent or its nearest LLM ancestor, as in ADK; settings keep a fixed key order.
function requestConfig(node: AgentNode, agent: LlmAgentDefinition): RequestConfig {
  let model: string | undefined;
  for (let current: AgentNode | undefined = node; current !== undefined && model === undefined; current = current.parent) {
    if (isLlmAgent(current.definition)) model = current.definition.model;
  }
  const settings = agent.generateConfig ?? {};
  const config: RequestConfig = {};
  if (model !== undefined) config.model = model;
  if (settings.temperature !== undefined) config.temperature = settings.temperature;
  if (settings.topP !== undefined) config.topP = settings.topP;
  if (settings.topK !== undefined) config.topK = settings.topK;
  if (settings.maxOutputTokens !== undefined) config.maxOutputTokens = settings.maxOutputTokens;
  if (settings.stopSequences !== undefined) config.stopSequences = [...settings.stopSequences];
  return config;
}

