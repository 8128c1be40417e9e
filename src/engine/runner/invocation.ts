import type { MemoryService } from '../../contracts/memory-service.js';
import type {
  AgentNode,
  AgentTree,
  LlmAgentNode,
  Plugin,
  InvocationContext,
  Processor,
} from '../../contracts/agent.js';
import type { ArtifactStore } from '../../contracts/artifact-store.js';
import type { ArtifactTextReader } from '../../contracts/artifact.js';
import type { Content } from '../../contracts/content.js';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { ConflictError } from '../../contracts/errors/conflict-error.js';
import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { Event, EventInput } from '../../contracts/event.js';
import type { SessionMemo } from '../../contracts/memo.js';
import type { Model } from '../../contracts/model.js';
import type { Profile } from '../../contracts/profile.js';
import type { ModelCallLog } from '../../contracts/model-call-log.js';
import type { AppendEventInput, SessionStore } from '../../contracts/session-store.js';
import type { Session } from '../../contracts/session.js';
import { createSessionMemo } from '../extensions/memo.js';
import { artifactTextReader } from '../session/artifact-rules.js';
import { createEvent } from '../session/create-event.js';
import { isTempKey } from '../state/state-keys.js';
import type { Telemetry, TelemetrySpan } from '../../contracts/telemetry.js';
import { NO_SPAN } from '../telemetry/spans.js';
import { recordedEmbed, type EmbedScope } from './embed-call.js';
import { recordedModel } from './side-call.js';
import type { CallPricer } from '../telemetry/genai-attributes.js';
import type { CallLog } from './call-log.js';
import type { RetryLanes } from './retry-lanes.js';
import { savedFor } from './saved-artifacts.js';
import { catchUp } from '../session/catch-up.js';

/**
 * Writes refused as conflicts are retried, each after reloading the session, for as long as this much time: every
 * refusal means another writer's write went in, so retrying makes progress, and a count of attempts would fail turns
 * under long contention that time allows (docs/decisions/2026-12-02-turns-on-postgres.md, "Contention").
 */
export const CONFLICT_BUDGET_MS = 30_000;
/** The longest random pause between attempts. */
const CONFLICT_PAUSE_MS = 500;

/** Settings shared by every invocation of a runner. */
export type RunnerSettings = {
  readonly tree: AgentTree;
  readonly appName: string;
  readonly sessions: SessionStore;
  /** Where model calls are recorded; nowhere when undefined. */
  readonly calls: ModelCallLog | undefined;
  readonly artifacts: ArtifactStore | undefined;
  /** Where memories of earlier sessions are searched; none when undefined. */
  readonly memory: MemoryService | undefined;
  /** The model an agent uses, resolved once per agent. */
  readonly modelFor: (node: AgentNode) => Promise<Model>;
  /** The runner's pipeline, which takes the place of the agents' own. */
  readonly pipeline: readonly Processor[] | undefined;
  /** The pipeline of an agent when neither the runner nor the agent names one. */
  readonly defaultPipeline: readonly Processor[];
  /** Extensions for every agent; their hooks run before the agents' own. */
  readonly plugins: readonly Plugin[];
  /** The conventions of every assembly and compaction of this runner. */
  readonly profile: Profile;
  readonly maxLlmCalls: number;
  /** Times an agent is asked again when its answer misses its output schema. */
  readonly outputSchemaRetries: number;
  /** Milliseconds one model call may take; no limit when undefined. */
  readonly modelTimeoutMs: number | undefined;
  /** Milliseconds one tool call may take; no limit when undefined. */
  readonly toolTimeoutMs: number | undefined;
  /** Milliseconds before another process's unanswered call counts as interrupted; the default rule when undefined. */
  readonly interruptedAfterMs?: number | undefined;
  readonly streaming: boolean;
  /** Where spans go; none when undefined. */
  readonly telemetry?: Telemetry | undefined;
  /** What a call cost, put on its span; no cost there when undefined. */
  readonly priceCall?: CallPricer | undefined;
  readonly now: () => number;
  readonly newId: () => string;
  /** Counts kept across the runner's invocations. */
  readonly stats: RunnerStats;
  /** Where a write that lost a race retries: one lane per session or per user whose shared state it writes. */
  readonly retryLanes: RetryLanes;
  /** Runs an agent of a tree: the runner's dispatcher, which agent tools start their own runs with. */
  readonly runAgent: (run: AgentRun) => AsyncGenerator<Event>;
};

/** What a runner has done since it was made: for health checks and load tests. */
export type RunnerStats = {
  /** Invocations started. */
  invocations: number;
  /** Writes refused as conflicts and tried again after reloading the session. */
  conflictsRetried: number;
  /** The most attempts one write has needed. */
  mostAttempts: number;
};

/**
 * One invocation: a user message and everything it causes, across agents. Holds what the agents share: the live
 * session, the count of model calls, and the queue that writes events one at a time in order.
 */
export class Invocation {
  readonly settings: RunnerSettings;
  readonly session: Session;
  readonly id: string;
  userContent: Content | undefined;
  readonly signal: AbortSignal | undefined;
  /** Values derived from this session (the contents built for earlier calls), reused by each request. */
  readonly memo: SessionMemo;
  /** Where `{artifact.name}` placeholders read from. */
  readonly artifactTexts: ArtifactTextReader | undefined;
  /** Where this invocation's model calls are recorded. */
  readonly calls: CallLog;
  /** The invocation's span: its agent runs' spans go under it. */
  readonly span: TelemetrySpan;
  llmCalls = 0;
  /** Set when the invocation must stop (an error, or a limit reached). */
  ended = false;
  #writes: Promise<unknown> = Promise.resolve();
  #context: InvocationContext | undefined;
  /** Events hooks appended, waiting to be handed to the caller. */
  readonly #outbox: Event[] = [];

  constructor(options: {
    settings: RunnerSettings;
    session: Session;
    id: string;
    userContent: Content | undefined;
    signal: AbortSignal | undefined;
    memo?: SessionMemo;
    /** Where model calls are recorded: by default this invocation's session. */
    calls?: CallLog;
    span?: TelemetrySpan;
  }) {
    this.settings = options.settings;
    this.memo = options.memo ?? createSessionMemo();
    this.session = options.session;
    const key = { appName: options.session.appName, userId: options.session.userId, sessionId: options.session.id };
    this.artifactTexts =
      options.settings.artifacts === undefined ? undefined : artifactTextReader(options.settings.artifacts, key);
    this.id = options.id;
    this.userContent = options.userContent;
    this.signal = options.signal;
    this.calls = options.calls ?? { log: options.settings.calls, key, parent: undefined };
    this.span = options.span ?? NO_SPAN;
  }

  /** A new event of this invocation, with an id and time from the runner's clock. */
  event(input: Omit<EventInput, 'invocationId'>): Event {
    return createEvent({ ...input, invocationId: this.id }, { now: this.settings.now, newId: this.settings.newId });
  }

  /**
   * Stores an event after every earlier one; parallel branches write through here one at a time. When the store
   * refuses it as a conflict (another process appended to the session, or wrote a shared `app:`/`user:` key this
   * copy read), the session is loaded again and the event made anew by `remake` (by default, the same event) and
   * stored again, within {@link CONFLICT_BUDGET_MS}, then the conflict is thrown. `completes` is a recorded
   * call of this session the event answers, completed in the same write.
   */
  persist(
    event: Event,
    remake?: () => Promise<Event>,
    completes?: AppendEventInput['completeModelCall'],
  ): Promise<Event> {
    const write = this.#writes.then(() => this.#appendWithRetries(event, remake, completes));
    this.#writes = write.catch(() => undefined);
    return write;
  }

  /**
   * The artifact versions saved for an event were saved before it (a tool saves as it runs). When the store refused
   * the event for certain — a typed refusal, so nothing of it was written — they are deleted, so no version is left
   * that was saved for an event never stored. After a failure that may have been stored all the same (a connection
   * lost during COMMIT), they are kept: the event may name them.
   */
  async #dropUnrecorded(event: Event, error: unknown): Promise<void> {
    const store = this.settings.artifacts;
    const saved = savedFor(event);
    if (store === undefined || saved.length === 0) return;
    if (!(error instanceof ValidationError || error instanceof ConflictError || error instanceof NotFoundError)) return;
    const key = { appName: this.session.appName, userId: this.session.userId, sessionId: this.session.id };
    for (const { filename, version } of saved) await store.delete({ ...key, filename, version }).catch(() => undefined);
  }

  /** How many times a write was retried after a conflict, in this invocation. */
  conflictsRetried = 0;

  async #appendWithRetries(
    first: Event,
    remake: (() => Promise<Event>) | undefined,
    completes: AppendEventInput['completeModelCall'],
  ): Promise<Event> {
    // Each attempt refused for certain drops the artifact versions saved for it, before any remake saves new ones.
    const append = async (event: Event) => {
      try {
        return await this.settings.sessions.appendEvent(
          completes === undefined
            ? { session: this.session, event }
            : { session: this.session, event, completeModelCall: completes },
        );
      } catch (error) {
        await this.#dropUnrecorded(event, error);
        throw error;
      }
    };
    const lanes = this.settings.retryLanes;
    const laneOf = (error: ConflictError) =>
      JSON.stringify(
        error.code === 'stale_shared_state' ? [this.session.userId] : [this.session.userId, this.session.id],
      );
    try {
      this.#attempted(1);
      return await append(first);
    } catch (error) {
      if (!(error instanceof ConflictError) || error.code === 'already_exists') throw error;
      // Lost a race: the rest is retried in the lane of what was contended, one writer of this process at a time.
      const started = Date.now();
      let lost = error;
      return lanes.run(laneOf(error), async () => {
        for (let attempt = 2; ; attempt++) {
          this.conflictsRetried += 1;
          this.settings.stats.conflictsRetried += 1;
          // A random pause whose ceiling doubles with each attempt (from 8 ms up to 500 ms), so processes spread out.
          await new Promise((resolve) =>
            setTimeout(resolve, Math.random() * Math.min(CONFLICT_PAUSE_MS, 4 * 2 ** attempt)),
          );
          await this.reload();
          const event = remake === undefined ? first : await remake();
          this.#attempted(attempt);
          try {
            return await append(event);
          } catch (retryError) {
            if (!(retryError instanceof ConflictError) || retryError.code === 'already_exists') throw retryError;
            lost = retryError;
            if (Date.now() - started >= CONFLICT_BUDGET_MS) {
              throw new ConflictError({
                code: lost.code as ConstructorParameters<typeof ConflictError>[0]['code'],
                message: `${lost.message} Gave up after ${attempt} attempts in ${Math.round((Date.now() - started) / 1000)} s, reloading the session before each.`,
                hint: 'Too many writers contend for this session or its shared state; retry the turn later, or write shared counters and logs with state.add()/append().',
              });
            }
          }
        }
      });
    }
  }

  #attempted(attempt: number): void {
    if (attempt > this.settings.stats.mostAttempts) this.settings.stats.mostAttempts = attempt;
  }

  /**
   * Loads the session again into the same object (every context holds it), keeping the invocation's `temp:` state,
   * which storage never has.
   */
  async reload(): Promise<void> {
    const temp = Object.fromEntries(Object.entries(this.session.state).filter(([key]) => isTempKey(key)));
    // Only what other writers appended is read; the events this copy holds stay.
    if ((await catchUp(this.settings.sessions, this.session)) === 'gone') {
      const id = this.session.id;
      throw new NotFoundError({ resource: 'session', id, message: `Session ${id} was deleted during the invocation.` });
    }
    this.session.state = { ...this.session.state, ...temp };
  }

  /** What run-level hooks see of this invocation (one object for its whole life, so hooks may key state by it). */
  get context(): InvocationContext {
    if (this.#context !== undefined) return this.#context;
    const invocation = this;
    const session = this.session;
    this.#context = {
      invocationId: this.id,
      appName: session.appName,
      userId: session.userId,
      sessionId: session.id,
      get userContent() {
        return invocation.userContent;
      },
      agents: this.settings.tree,
      get events() {
        return session.events;
      },
      get state() {
        return session.state;
      },
      profile: this.settings.profile,
      signal: this.signal,
      memo: this.memo,
      appendEvent: async (input) => {
        const stored = await this.persist(this.event(input));
        this.#outbox.push(stored);
        return stored;
      },
      modelFor: (node) => this.settings.modelFor(node),
      embed: (model, texts, options = {}) => recordedEmbed(this.#callScope(), model, texts, options),
      recordedModel: (model, agent, note) => recordedModel(this.#callScope(), model, agent, note),
      newId: () => this.settings.newId(),
    };
    return this.#context;
  }

  // Where a call made beside the agents (an embedding, a summary) is recorded, traced and priced.
  #callScope(): EmbedScope {
    return {
      calls: this.calls,
      invocationId: this.id,
      agent: this.settings.tree.root.name,
      now: this.settings.now,
      telemetry: this.settings.telemetry,
      span: this.span,
      price: this.settings.priceCall,
      signal: this.signal,
    };
  }

  /** The events hooks appended since the last call, oldest first: the caller gets them next. */
  drain(): Event[] {
    return this.#outbox.splice(0);
  }

  /** An error event that ends the invocation; what went wrong and what to do are in its message. */
  failure(author: string, branch: string | undefined, code: string, message: string): Event {
    this.ended = true;
    return this.event({ author, ...(branch === undefined ? {} : { branch }), errorCode: code, errorMessage: message });
  }
}

/** An agent running inside an invocation, on its branch. */
export type AgentRun = {
  readonly invocation: Invocation;
  readonly node: AgentNode;
  readonly branch: string | undefined;
  /** The span of this agent run (or of the tool call an agent tool runs in); the invocation's when absent. */
  readonly span?: TelemetrySpan | undefined;
};

/** The run of an agent that talks to a model: its node narrowed once, where the dispatcher chose the model loop. */
export type LlmAgentRun = AgentRun & { readonly node: LlmAgentNode };

/** Thrown out of `run` when the runner cannot start at all (no such session, no model); never for model or tool failures. */
export function configurationError(message: string, hint: string): AgentctxError {
  return new AgentctxError({ code: 'invalid_input', message, hint });
}
