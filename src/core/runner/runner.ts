import { createAgentTree, type AgentNode, type AgentTree } from '../agent/agent-tree.js';
import { isLlmAgent, type AgentDefinition, type LlmAgentDefinition } from '../agent/agent.js';
import { NotFoundError } from '../errors/not-found-error.js';
import type { Model } from '../model/model.js';
import type { Processor } from '../request/processor.js';
import type { ArtifactStore } from '../session/artifact-store.js';
import type { Content } from '../session/content.js';
import type { Event } from '../session/event.js';
import { createInMemorySessionStore } from '../session/in-memory-session-store.js';
import type { Session } from '../session/session.js';
import type { SessionStore } from '../session/session-store.js';
import { isTempKey } from '../state/state-keys.js';
import type { ValueFormat } from '../state/template/value-format.js';
import { parseCompactionConfig, type EventsCompactionConfig } from '../compaction/compaction-config.js';
import { compactAfterInvocation } from './compaction-steps.js';
import { checkTimeoutOption } from './deadline.js';
import { findAgentToRun } from './find-agent-to-run.js';
import { configurationError, Invocation, type RunnerCompaction, type RunnerSettings, type RunnerStats } from './invocation.js';
import { runAgent } from './run-agent.js';
import { SessionCache } from './session-cache.js';

export type RunnerOptions = {
  /** The agent tree, or its root. */
  agents: AgentDefinition | AgentTree;
  /** Sessions belong to an app; the root agent's name when absent. */
  appName?: string;
  /** Where sessions live; in memory when absent. */
  sessions?: SessionStore;
  artifacts?: ArtifactStore;
  /** The model every LLM agent uses, whatever its definition names. */
  model?: Model;
  /** Resolves the model an agent names (`gemini-2.5-flash`, `openai:gpt-4.1`…); used when `model` is absent. */
  models?: (name: string) => Model | Promise<Model> | undefined;
  /** The request pipeline; `defaultPipeline()` when absent. */
  pipeline?: readonly Processor[];
  /** Model calls allowed per invocation; reaching it ends the invocation with an error event. Default 500. */
  maxLlmCalls?: number;
  /**
   * Time one model call may take, in milliseconds (a stream: until its complete response). Past it the call is
   * abandoned (its signal aborted) and the invocation ends with a `model_timeout` error event. No limit when absent;
   * provider adapters also time out each attempt themselves (`RetryOptions.timeoutMs`).
   */
  modelTimeoutMs?: number;
  /**
   * Time one tool call may take, in milliseconds. Past it the tool's `signal` is aborted and the model gets an
   * `{ error }` response saying the tool was stopped; the invocation goes on. No limit when absent.
   */
  toolTimeoutMs?: number;
  /** Stream model responses: partial events reach the caller as they come (they are never stored). */
  streaming?: boolean;
  valueFormat?: ValueFormat;
  /**
   * Compaction for every agent (ADK's app-level `EventsCompactionConfig`): a sliding window after invocations, a
   * token threshold before each model call and after invocations. Agents' `contextCompactors` override the token
   * trigger for themselves.
   */
  eventsCompactionConfig?: EventsCompactionConfig;
  /** Reproduce ADK where agentctx deliberately differs: how summaries are shown and when compaction runs. */
  adkCompatibility?: boolean;
  /** Clock and ids, injectable for deterministic runs. */
  now?: () => number;
  newId?: () => string;
};

export type RunInput = {
  userId: string;
  sessionId: string;
  message: string | Content;
  /** State written with the user's message; `temp:` keys last for this invocation only. */
  stateDelta?: Record<string, unknown>;
  signal?: AbortSignal;
};

export type Runner = {
  readonly appName: string;
  readonly tree: AgentTree;
  readonly sessions: SessionStore;
  /** Invocations started and conflicts retried since the runner was made (live counts). */
  readonly stats: Readonly<RunnerStats>;
  /** Runs one invocation and yields its events as they happen; every complete event is stored before it is yielded. */
  run(input: RunInput): AsyncGenerator<Event>;
  createSession(input: { userId: string; sessionId?: string; state?: Record<string, unknown> }): Promise<Session>;
};

/** A runner: agents, a session store and models, ready to answer user messages. */
export function createRunner(options: RunnerOptions): Runner {
  for (const name of ['modelTimeoutMs', 'toolTimeoutMs'] as const) {
    const problem = checkTimeoutOption(name, options[name]);
    if (problem !== undefined) throw configurationError(problem, 'Leave it out for no limit.');
  }
  const tree = 'root' in options.agents ? options.agents : createAgentTree(options.agents);
  const appName = options.appName ?? tree.root.name;
  const sessions = options.sessions ?? createInMemorySessionStore();
  const newId = options.newId ?? (() => crypto.randomUUID());
  // Keyed by node: agent tools run agents of their own trees through the same resolution.
  const models = new WeakMap<AgentNode, Promise<Model>>();
  const cache = new SessionCache(sessions, appName);
  const settings: RunnerSettings = {
    tree,
    appName,
    sessions,
    artifacts: options.artifacts,
    modelFor: (agent, node) => {
      let model = models.get(node);
      if (model === undefined) {
        model = modelFor(options, agent, node);
        models.set(node, model);
        // A failed resolution is not kept: the next run tries again (a key may have been set meanwhile).
        model.catch(() => models.delete(node));
      }
      return model;
    },
    pipeline: options.pipeline,
    maxLlmCalls: options.maxLlmCalls ?? 500,
    modelTimeoutMs: options.modelTimeoutMs,
    toolTimeoutMs: options.toolTimeoutMs,
    streaming: options.streaming ?? false,
    valueFormat: options.valueFormat ?? 'default',
    compaction: runnerCompaction(options.eventsCompactionConfig),
    adkCompatibility: options.adkCompatibility ?? false,
    stats: { invocations: 0, conflictsRetried: 0 },
    now: options.now ?? (() => Date.now() / 1000),
    newId,
  };

  return {
    appName,
    tree,
    sessions,
    stats: settings.stats,
    createSession: (input) => sessions.createSession({ appName, ...input }),
    async *run(input: RunInput): AsyncGenerator<Event> {
      const loaded = await cache.load(input.userId, input.sessionId);
      if (loaded === undefined) {
        throw new NotFoundError({
          resource: 'session',
          id: input.sessionId,
          message: `Session ${input.sessionId} of user ${input.userId} not found in app ${appName}.`,
          hint: 'Create it first with runner.createSession.',
        });
      }
      const userContent: Content = typeof input.message === 'string' ? { role: 'user', parts: [{ text: input.message }] } : input.message;
      const { session, contents } = loaded;
      const invocation = new Invocation({ settings, session, id: `e-${newId()}`, userContent, signal: input.signal, contents });
      settings.stats.invocations += 1;
      let completed = false;
      // Every agent must have a model before anything is written.
      for (const node of tree.nodes) if (isLlmAgent(node.definition)) await settings.modelFor(node.definition, node);
      try {
        yield await invocation.persist(invocation.event({ author: 'user', content: userContent, actions: { stateDelta: input.stateDelta ?? {} } }));
        yield* runAgent({ invocation, node: findAgentToRun(tree, session.events), branch: undefined });
        if (input.signal?.aborted !== true) {
          const compaction = await compactAfterInvocation(invocation);
          if (compaction !== undefined) yield compaction;
        }
        completed = true;
      } finally {
        // After a failure the copy may differ from storage; the next turn loads it again.
        if (!completed) cache.forget(input.userId, input.sessionId);
        // temp: state lives for one invocation; stores never kept it, and the live copy drops it now.
        for (const key of Object.keys(session.state)) if (isTempKey(key)) delete session.state[key];
      }
    },
  };
}

// Validated once, when the runner is made: a bad configuration fails there, not in the middle of a conversation.
function runnerCompaction(config: EventsCompactionConfig | undefined): RunnerCompaction {
  if (config === undefined) return {};
  const parsed = parseCompactionConfig(config);
  return {
    ...(parsed.compactionInterval === undefined ? {} : { window: { compactionInterval: parsed.compactionInterval, overlapSize: parsed.overlapSize as number } }),
    ...(parsed.tokenThreshold === undefined ? {} : { token: { tokenThreshold: parsed.tokenThreshold, eventRetentionSize: parsed.eventRetentionSize as number } }),
    ...(parsed.summarizer === undefined ? {} : { summarizer: parsed.summarizer }),
  };
}

async function modelFor(options: RunnerOptions, agent: LlmAgentDefinition, node: AgentNode): Promise<Model> {
  if (options.model !== undefined) return options.model;
  let name: string | undefined;
  for (let current: AgentNode | undefined = node; current !== undefined && name === undefined; current = current.parent) {
    if (isLlmAgent(current.definition)) name = current.definition.model;
  }
  if (name === undefined) {
    throw configurationError(`Agent '${agent.name}' has no model.`, 'Name one in its definition (or an ancestor’s), or pass `model` to createRunner.');
  }
  const model = await options.models?.(name);
  if (model === undefined) {
    throw configurationError(`No model is available for '${name}' (agent '${agent.name}').`, 'Pass `model` or a `models` resolver to createRunner.');
  }
  return model;
}
