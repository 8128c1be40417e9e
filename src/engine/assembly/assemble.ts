import type { MemoryService } from '../../contracts/memory-service.js';
import type {
  AgentDefinition,
  AgentNode,
  AgentTree,
  LlmAgentDefinition,
  Extension,
  Plugin,
  AssemblyContext,
  Processor,
} from '../../contracts/agent.js';
import type { ArtifactTextReader } from '../../contracts/artifact.js';
import type { Content } from '../../contracts/content.js';
import type { DraftMessage, RequestDraft } from '../../contracts/draft.js';
import { ProcessorError } from '../../contracts/errors/processor-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Event } from '../../contracts/event.js';
import type { SessionMemo } from '../../contracts/memo.js';
import type { Profile, ProfileName } from '../../contracts/profile.js';
import type { AssembledRequest, ProcessorTrace } from '../../contracts/provenance.js';
import type { RequestConfig } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';
import { createAgentTree, inheritedModel, isLlmAgent } from '../agent/agent-tree.js';
import { checkExtensions } from '../extensions/check-extensions.js';
import { createSessionMemo } from '../extensions/memo.js';
import { placeProcessors } from '../extensions/place-processors.js';
import { resolveProfile } from '../profile/profiles.js';
import { emptyDraft } from './draft.js';
import { finishDraft } from './finish-draft.js';

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
  /** The user's memories, for `load_memory` and `preloadMemory()` (searched in `appName` and `userId`). */
  memory?: MemoryService | undefined;
  /** The branch of the running agent, for parallel workflows. */
  branch?: string | undefined;
  invocationId?: string | undefined;
  userContent?: Content | undefined;
  /** The conventions to follow: `agentctx` (the default), `adk`, or a profile of your own. */
  profile?: ProfileName | Profile | undefined;
  /** Extensions for every agent, as a runner's plugins are. */
  plugins?: readonly Plugin[] | undefined;
  /** Keep generated function call ids (for providers that pair calls with responses by id). */
  preserveFunctionCallIds?: boolean | undefined;
  /** The model takes deferred tool definitions itself (`Model.loadsDeferredTools`, Anthropic). */
  loadsDeferredTools?: boolean | undefined;
  /** The processors to run; the agent's own pipeline, else the default one, when absent. */
  pipeline?: readonly Processor[] | undefined;
  /** Values kept between the requests of one session (`createSessionMemo()`), so long sessions cost only their new events. */
  memo?: SessionMemo | undefined;
};

/**
 * Builds the exact request a model call receives, and where every part of it came from, by running the pipeline's
 * processors in order; `fallback` is the pipeline used when neither the options nor the agent name one.
 */
export async function assembleWithFallback(
  options: AssembleOptions,
  fallback: () => readonly Processor[],
): Promise<AssembledRequest> {
  const tree = 'root' in options.agents ? options.agents : createAgentTree(options.agents);
  const node = options.agentName === undefined ? tree.root : tree.getAgent(options.agentName);
  const agent = llmAgentOf(node);
  const plugins = options.plugins ?? [];
  if (plugins.length > 0) {
    const issues = checkExtensions(plugins, 'plugins', 'runner');
    if (issues.length > 0) throw new ValidationError({ subject: 'plugins', issues });
  }
  const context: AssemblyContext = {
    tree,
    node,
    agent,
    appName: options.appName ?? 'agentctx',
    userId: options.userId ?? 'user',
    sessionId: options.sessionId ?? 'session',
    invocationId: options.invocationId ?? '',
    branch: options.branch,
    userContent: options.userContent,
    events: options.events ?? [],
    state: options.state ?? {},
    artifacts: options.artifacts,
    ...(options.memory === undefined
      ? {}
      : {
          searchMemory: (query: string) =>
            (options.memory as MemoryService).searchMemory({
              appName: options.appName ?? 'agentctx',
              userId: options.userId ?? 'user',
              query,
            }),
        }),
    extensions: extensionsInEffect(plugins, agent),
    profile: resolveProfile(options.profile),
    preserveFunctionCallIds: options.preserveFunctionCallIds ?? false,
    ...(options.loadsDeferredTools === true ? { loadsDeferredTools: true } : {}),
    memo: options.memo ?? createSessionMemo(),
  };
  return assemble(context, options.pipeline ?? agent.pipeline ?? fallback());
}

/** The agent of a node, which must be one that calls a model. */
export function llmAgentOf(node: AgentNode): LlmAgentDefinition {
  const agent = node.definition;
  if (isLlmAgent(agent)) return agent;
  const asking = llmAgentsUnder(node);
  throw new ValidationError({
    subject: 'request',
    issues: [{ path: 'agentName', message: `'${agent.name}' is a ${agent.kind} agent, which calls no model` }],
    hint:
      asking.length === 0
        ? 'Ask an agent that calls a model instead.'
        : `Ask one of the agents under it that call a model: ${asking.join(', ')} (inspect --agent <name>, or currentAgent in a case file).`,
  });
}

/** The names of the agents under a node that call a model, depth-first in declaration order. */
function llmAgentsUnder(node: AgentNode): string[] {
  return node.children.flatMap((child) => [
    ...(isLlmAgent(child.definition) ? [child.name] : []),
    ...llmAgentsUnder(child),
  ]);
}

/** The runner's plugins, then the agent's own extensions: the order their processors, settings and hooks apply in. */
export function extensionsInEffect(plugins: readonly Extension[], agent: LlmAgentDefinition): readonly Extension[] {
  if (plugins.length === 0) return agent.extensions;
  if (agent.extensions.length === 0) return plugins;
  return [...plugins, ...agent.extensions];
}

/**
 * Runs a pipeline, with the processors of the extensions in effect placed in it, over an empty draft. Deterministic:
 * the same definitions and session give a byte-identical request. The request shares unchanged parts with the
 * events; use `cloneRequest` before editing it.
 */
export async function assemble(context: AssemblyContext, pipeline: readonly Processor[]): Promise<AssembledRequest> {
  let draft = withBuiltInTools(emptyDraft(requestConfig(context.node, context.agent)), context.agent);
  const trace: ProcessorTrace[] = [];
  for (const { processor, extension } of placeProcessors(pipeline, context.extensions)) {
    const before = draft;
    try {
      draft = await processor.process(draft, context);
    } catch (error) {
      throw new ProcessorError({ processor: processor.name, agent: context.agent.name, cause: error });
    }
    const step: ProcessorTrace = {
      processor: processor.name,
      systemBlocks: draft.systemBlocks.length - before.systemBlocks.length,
      tools: draft.tools.length - before.tools.length,
      messages: draft.messages.length - before.messages.length,
    };
    if (extension !== undefined) {
      draft = attribute(before, draft, extension);
      trace.push({
        processor: step.processor,
        extension,
        systemBlocks: step.systemBlocks,
        tools: step.tools,
        messages: step.messages,
      });
    } else {
      trace.push(step);
    }
  }
  return {
    ...finishDraft(draft),
    trace,
    tools: draft.tools,
    deferredTools: draft.deferredTools?.tools ?? [],
    handlers: draft.handlers ?? [],
  };
}

// What an extension's processor added carries the extension's name, so provenance says where it came from. A tool
// that was already in the draft (the same implementation) keeps its origin however the processor moved or noted it.
function attribute(before: RequestDraft, after: RequestDraft, extension: string): RequestDraft {
  const known = new Set<Source>();
  for (const block of before.systemBlocks) known.add(block.source);
  const knownTools = new Set<unknown>();
  for (const tool of before.tools) {
    known.add(tool.source);
    if (tool.tool !== undefined) knownTools.add(tool.tool);
  }
  const knownMessages = new Set<DraftMessage>(before.messages);
  for (const message of before.messages) for (const source of message.sources) known.add(source);
  const stamped = new Map<Source, Source>();
  const stamp = (source: Source): Source => {
    if (known.has(source) || source.extension !== undefined) return source;
    let copy = stamped.get(source);
    if (copy === undefined) stamped.set(source, (copy = { ...source, extension }));
    return copy;
  };
  return {
    ...after,
    systemBlocks: after.systemBlocks.map((block) =>
      known.has(block.source) ? block : { ...block, source: stamp(block.source) },
    ),
    tools: after.tools.map((tool) =>
      known.has(tool.source) || (tool.tool !== undefined && knownTools.has(tool.tool))
        ? tool
        : { ...tool, source: stamp(tool.source) },
    ),
    messages: after.messages.map((message) =>
      knownMessages.has(message) ? message : { message: message.message, sources: message.sources.map(stamp) },
    ),
  };
}

// The agent's built-in tools, copied, each from its definition's field.
function withBuiltInTools(draft: RequestDraft, agent: LlmAgentDefinition): RequestDraft {
  const tools = agent.builtInTools ?? [];
  if (tools.length === 0) return draft;
  return {
    ...draft,
    builtInTools: tools.map((tool, index) => ({
      tool: structuredClone(tool),
      source: {
        kind: 'tool',
        processor: 'agent',
        agent: agent.name,
        field: `builtInTools[${index}]`,
        tool: { kind: 'built-in', provider: tool.provider },
      },
    })),
  };
}

// The model comes from the agent or its nearest LLM ancestor, as in ADK; settings keep a fixed key order.
function requestConfig(node: AgentNode, agent: LlmAgentDefinition): RequestConfig {
  const model = inheritedModel(node);
  const settings: Record<string, unknown> = agent.generateConfig ?? {};
  const config: Record<string, unknown> = {};
  if (model !== undefined) config['model'] = model;
  // Copies (a hook may edit the request it is handed), in one order whatever the definition's.
  for (const key of CONFIG_ORDER) {
    const value = settings[key];
    if (value !== undefined) config[key] = typeof value === 'object' ? structuredClone(value) : value;
  }
  return config as RequestConfig;
}

/** The settings an agent's `generateConfig` carries into its requests, in the order their JSON keeps. */
const CONFIG_ORDER = [
  'temperature',
  'topP',
  'topK',
  'maxOutputTokens',
  'stopSequences',
  'responseSchema',
  'responseMimeType',
  'toolChoice',
  'thinking',
  'safetySettings',
  'labels',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'candidateCount',
  'mediaResolution',
  'providerOptions',
] as const satisfies readonly (keyof RequestConfig)[];
