import type { AgentDefinition, AgentNode, AgentTree, Plugin, Processor } from '../../contracts/agent.js';
import type { ArtifactStore } from '../../contracts/artifact-store.js';
import type { Content } from '../../contracts/content.js';
import type { Telemetry } from '../../contracts/telemetry.js';
import { RetryLanes } from './retry-lanes.js';
import { openSpan } from '../telemetry/spans.js';
import type { CallPricer } from '../telemetry/genai-attributes.js';
import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { OutputSchemaInput } from '../../contracts/output-schema.js';
import type { MemoryService } from '../../contracts/memory-service.js';
import type { Event } from '../../contracts/event.js';
import type { Model } from '../../contracts/model.js';
import type { Profile, ProfileName } from '../../contracts/profile.js';
import type { ModelCallLog } from '../../contracts/model-call-log.js';
import type { SessionStore, SessionStoreWithCallLog } from '../../contracts/session-store.js';
import type { Session } from '../../contracts/session.js';
import { createAgentTree, inheritedModel, isLlmAgent, toolsetsOf } from '../agent/agent-tree.js';
import { checkExtensions } from '../extensions/check-extensions.js';
import { resolveProfile } from '../profile/profiles.js';
import { defaultCallLog } from '../session/call-log-of.js';
import { createInMemorySessionStore } from '../session/in-memory-session-store.js';
import { isTempKey } from '../state/state-keys.js';
import { checkTimeoutOption } from './deadline.js';
import { findAgentToRun } from './find-agent-to-run.js';
import { everyHook, firstHook, hasHook } from './hooks.js';
import { answerInterruptedCalls, markRunning } from './interrupted-calls.js';
import { configurationError, Invocation, type RunnerSettings, type RunnerStats } from './invocation.js';
import { refuseAnsweredAgain } from './confirmations.js';
import { runAgent } from './run-agent.js';
import { outputOfRun } from './run-output.js';
import { SessionCache } from './session-cache.js';

export type EngineRunnerOptions<S extends SessionStore = SessionStore> = {
  /** The agent tree, or its root. */
  agents: AgentDefinition | AgentTree;
  /** Sessions belong to an app; the root agent's name when absent. */
  appName?: string;
  /** Where sessions live; in memory (with their model calls) when absent. */
  sessions?: S;
  /**
   * Where model calls are recorded: by default the session store itself when it keeps calls (the SQL and in-memory
   * stores do), else nowhere. A log of its own (`createInMemoryModelCallLog`, yours) for a store that keeps none;
   * `false` for none at all.
   */
  calls?: ModelCallLog | false;
  artifacts?: ArtifactStore;
  /**
   * What users said in earlier sessions, searched by `load_memory`, `preloadMemory()` and `context.searchMemory`;
   * sessions are remembered by `context.addSessionToMemory()` (or the service's own methods). None when absent.
   */
  memory?: MemoryService;
  /** The model every LLM agent uses, whatever its definition names. */
  model?: Model;
  /** Resolves the model an agent names (`gemini-2.5-flash`, `openai:gpt-4.1`…); used when `model` is absent. */
  models?: (name: string) => Model | Promise<Model> | undefined;
  /** The request pipeline of every agent, over the agents' own; the agent's, else the default one, when absent. */
  pipeline?: readonly Processor[];
  /** Extensions for every agent (ADK's plugins): their processors join every pipeline, their hooks run before the agents' own. */
  plugins?: readonly Plugin[];
  /** The conventions of every request and compaction: `agentctx` (the default), `adk`, or a profile of your own. */
  profile?: ProfileName | Profile;
  /** Model calls allowed per invocation; reaching it ends the invocation with an error event. Default 500. */
  maxLlmCalls?: number;
  /**
   * Times an agent whose answer misses its `outputSchema` is asked again, told what was wrong (a user turn listing
   * the problems); past them its turn ends with an `output_schema_mismatch` error event. Default 1; 0 fails at once.
   */
  outputSchemaRetries?: number;
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
  /**
   * How long a function call another process made may go without a response before a run here records it as
   * interrupted, in milliseconds (docs/runner.md, *Interrupted tool calls*). Default: `toolTimeoutMs` + 1000 when
   * set, else 60,000. `0` when no other process runs turns of the same sessions (a restarted process then answers
   * what its predecessor left at once). Calls of invocations that ran in this process are never waited for.
   */
  interruptedAfterMs?: number;
  /** Stream model responses: partial events reach the caller as they come (they are never stored). */
  streaming?: boolean;
  /** Where spans of invocations, agent runs, model calls and tool calls go; none when absent. */
  telemetry?: Telemetry | undefined;
  /**
   * What a call cost in USD, put on its span (`agentctx.cost.usd`); no cost there when absent. `createRunner` prices
   * calls with the built-in price table (`DEFAULT_PRICES` of `agentctx/cost`) unless given its own.
   */
  priceCall?: CallPricer | undefined;
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

export type Runner<S extends SessionStore = SessionStore> = {
  readonly appName: string;
  readonly tree: AgentTree;
  readonly sessions: S;
  /** Where its model calls are recorded; `undefined` when nowhere. */
  readonly calls: ModelCallLog | undefined;
  /** Where tools and `{artifact.name}` find artifacts; `undefined` when the runner was given none. */
  readonly artifacts: ArtifactStore | undefined;
  /** Its memory service (docs/memory.md); `undefined` when the runner was given none. */
  readonly memory: MemoryService | undefined;
  /** The conventions its requests follow. */
  readonly profile: Profile;
  /** Invocations started and conflicts retried since the runner was made (live counts). */
  readonly stats: Readonly<RunnerStats>;
  /** Runs one invocation and yields its events as they happen; every complete event is stored before it is yielded. */
  run(input: RunInput): AsyncGenerator<Event>;
  /**
   * Runs one invocation to its end and returns its structured answer, typed by `schema`: the final text of the agent
   * that answered last, parsed as JSON and checked against `schema` (a zod or other Standard Schema, a JSON Schema;
   * that agent's `outputSchema` when absent). Throws when the run ends in an error event, or its answer is missing or
   * does not match (a `ValidationError` naming each problem).
   */
  output<T = unknown>(input: RunInput, schema?: OutputSchemaInput<T>): Promise<T>;
  /** `events`: a history the session starts with, stored with it or not at all (see `CreateSessionInput`). */
  createSession(input: {
    userId: string;
    sessionId?: string;
    state?: Record<string, unknown>;
    events?: readonly Event[];
  }): Promise<Session>;
  /** Deletes a session of this app and its recorded model calls (from the call log too, when it is one of its own). */
  deleteSession(input: { userId: string; sessionId: string }): Promise<void>;
  /**
   * Closes what the agents hold open: every toolset of the tree's agents and of the agents their agent tools run
   * (MCP connections and the servers they started). The store is the caller's to close. Safe to call twice.
   */
  close(): Promise<void>;
};

/** A runner over agents, a session store and models; `defaultPipeline` is what agents run that name none. */
export function createEngineRunner<S extends SessionStore = SessionStoreWithCallLog>(
  options: EngineRunnerOptions<S>,
  defaultPipeline: readonly Processor[],
): Runner<S> {
  for (const name of ['modelTimeoutMs', 'toolTimeoutMs'] as const) {
    const problem = checkTimeoutOption(name, options[name]);
    if (problem !== undefined) throw configurationError(problem, 'Leave it out for no limit.');
  }
  const waitMs = options.interruptedAfterMs;
  if (waitMs !== undefined && !(typeof waitMs === 'number' && Number.isFinite(waitMs) && waitMs >= 0)) {
    throw configurationError(
      `interruptedAfterMs must be a number of milliseconds, 0 or more; got ${String(waitMs)}.`,
      'Leave it out for the default (toolTimeoutMs + 1000, else 60000).',
    );
  }
  const retries = options.outputSchemaRetries;
  if (retries !== undefined && !(Number.isSafeInteger(retries) && retries >= 0))
    throw configurationError(
      `outputSchemaRetries must be a whole number, 0 or more; got ${String(retries)}.`,
      'Leave it out for the default (1).',
    );
  const plugins = Object.freeze([...(options.plugins ?? [])]);
  const issues = checkExtensions(plugins, 'plugins', 'runner');
  if (issues.length > 0) throw new ValidationError({ subject: 'runner', issues });
  const tree = 'root' in options.agents ? options.agents : createAgentTree(options.agents);
  const appName = options.appName ?? tree.root.name;
  // Absent, S is its default (the in-memory store's type), so the cast only names what is made here.
  const sessions = options.sessions ?? (createInMemorySessionStore() as SessionStore as S);
  const calls = defaultCallLog(sessions, options.calls);
  const newId = options.newId ?? (() => crypto.randomUUID());
  // Keyed by node: agent tools run agents of their own trees through the same resolution.
  const models = new WeakMap<AgentNode, Promise<Model>>();
  const cache = new SessionCache(sessions, appName);
  const settings: RunnerSettings = {
    tree,
    appName,
    sessions,
    calls,
    artifacts: options.artifacts,
    memory: options.memory,
    modelFor: (node) => {
      let model = models.get(node);
      if (model === undefined) {
        model = modelFor(options, node);
        models.set(node, model);
        // A failed resolution is not kept: the next run tries again (a key may have been set meanwhile).
        model.catch(() => models.delete(node));
      }
      return model;
    },
    pipeline: options.pipeline,
    defaultPipeline,
    plugins,
    profile: resolveProfile(options.profile),
    maxLlmCalls: options.maxLlmCalls ?? 500,
    outputSchemaRetries: options.outputSchemaRetries ?? 1,
    modelTimeoutMs: options.modelTimeoutMs,
    toolTimeoutMs: options.toolTimeoutMs,
    interruptedAfterMs: waitMs,
    streaming: options.streaming ?? false,
    telemetry: options.telemetry,
    priceCall: options.priceCall,
    stats: { invocations: 0, conflictsRetried: 0, mostAttempts: 0 },
    retryLanes: new RetryLanes(),
    now: options.now ?? (() => Date.now() / 1000),
    newId,
    runAgent,
  };
  // Which run-level hooks exist is known up front, so a runner without them pays nothing for them.
  const has = {
    onUserMessage: hasHook(plugins, 'onUserMessage'),
    beforeRun: hasHook(plugins, 'beforeRun'),
    onEvent: hasHook(plugins, 'onEvent'),
    afterRun: hasHook(plugins, 'afterRun'),
  };

  return {
    appName,
    tree,
    sessions,
    calls,
    artifacts: options.artifacts,
    memory: options.memory,
    profile: settings.profile,
    stats: settings.stats,
    createSession: (input) => sessions.createSession({ appName, ...input }),
    deleteSession: async (input) => {
      const key = { appName, ...input };
      await sessions.deleteSession(key);
      // A store that is its own log deleted the calls with the session.
      if (calls !== undefined && (calls as object) !== sessions) await calls.deleteModelCalls(key);
    },
    close: async () => {
      const results = await Promise.allSettled(
        [...toolsetsOf(tree.nodes.map((node) => node.definition))].map((toolset) => toolset.close?.()),
      );
      const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failed !== undefined) throw failed.reason;
    },
    output(input, schema) {
      return outputOfRun(this.run(input), tree, schema);
    },
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
      const userContent: Content =
        typeof input.message === 'string' ? { role: 'user', parts: [{ text: input.message }] } : input.message;
      const { session, memo } = loaded;
      refuseAnsweredAgain(session.events, userContent);
      const id = `e-${newId()}`;
      // Every agent must have a model before anything is written.
      for (const node of tree.nodes) if (isLlmAgent(node.definition)) await settings.modelFor(node);
      const span = openSpan(settings.telemetry, 'invocation', undefined, () => ({
        'gen_ai.conversation.id': session.id,
        'agentctx.app': appName,
        'agentctx.invocation.id': id,
      }));
      const invocation = new Invocation({ settings, session, id, userContent, signal: input.signal, memo, span });
      settings.stats.invocations += 1;
      let completed = false;
      const handOver = async (event: Event): Promise<Event> =>
        (await firstHook(plugins, 'onEvent', { context: invocation.context, event })) ?? event;
      // While it runs, no other run of this process calls this invocation's tool calls interrupted.
      const release = markRunning(session, invocation.id);
      try {
        if (has.onUserMessage) {
          const replaced = await firstHook(plugins, 'onUserMessage', {
            context: invocation.context,
            message: userContent,
          });
          if (replaced !== undefined) invocation.userContent = replaced;
        }
        // Calls an earlier run left without a response (it was killed mid-tool) get one first: the model never sees them open.
        for (const answer of await answerInterruptedCalls(invocation, invocation.userContent))
          yield has.onEvent ? await handOver(answer) : answer;
        const stored = await invocation.persist(
          invocation.event({
            author: 'user',
            content: invocation.userContent as Content,
            actions: { stateDelta: input.stateDelta ?? {} },
          }),
        );
        yield has.onEvent ? await handOver(stored) : stored;
        const node = findAgentToRun(tree, session.events);
        const early = has.beforeRun
          ? await firstHook(plugins, 'beforeRun', { context: invocation.context })
          : undefined;
        for (const event of invocation.drain()) yield has.onEvent ? await handOver(event) : event;
        if (early !== undefined) {
          const answer = await invocation.persist(invocation.event({ author: node.name, content: early }));
          yield has.onEvent ? await handOver(answer) : answer;
        } else {
          for await (const event of runAgent({ invocation, node, branch: undefined }))
            yield has.onEvent ? await handOver(event) : event;
          if (has.afterRun && input.signal?.aborted !== true)
            await everyHook(plugins, 'afterRun', { context: invocation.context });
        }
        for (const event of invocation.drain()) yield has.onEvent ? await handOver(event) : event;
        completed = true;
      } catch (error) {
        span.fail(error);
        throw error;
      } finally {
        span.end();
        release();
        // After a failure the copy may differ from storage; the next turn loads it again.
        if (!completed) cache.forget(input.userId, input.sessionId);
        // temp: state lives for one invocation; stores never kept it, and the live copy drops it now.
        for (const key of Object.keys(session.state)) if (isTempKey(key)) delete session.state[key];
      }
    },
  };
}

async function modelFor(options: EngineRunnerOptions, node: AgentNode): Promise<Model> {
  if (options.model !== undefined) return options.model;
  const name = inheritedModel(node);
  if (name === undefined) {
    throw configurationError(
      `Agent '${node.name}' has no model.`,
      'Name one in its definition (or an ancestor’s), or pass `model` to createRunner.',
    );
  }
  const model = await options.models?.(name);
  if (model === undefined) {
    throw configurationError(
      `No model is available for '${name}' (agent '${node.name}').`,
      'Pass `model` or a `models` resolver to createRunner.',
    );
  }
  return model;
}
