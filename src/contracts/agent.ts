import type { ArtifactTextReader } from './artifact.js';
import type { AgentCallbacks, Maybe } from './callbacks.js';
import type { ContextCompactor } from './compaction.js';
import type { Content, Part } from './content.js';
import type { CallbackContext, ReadonlyContext, ToolContext } from './contexts.js';
import type { RequestDraft } from './draft.js';
import type { Event, EventInput } from './event.js';
import type { SessionMemo } from './memo.js';
import type { EmbedResponse, Model, ModelResponse } from './model.js';
import type { SearchMemoryResponse } from './memory-service.js';
import type { OutputSchema } from './output-schema.js';
import type { Profile } from './profile.js';
import type { AssembledRequest } from './provenance.js';
import type { BuiltInTool, LlmRequest, RequestConfig } from './request.js';
import type { Tool, Toolset } from './tool.js';

// An agent holds its pipeline and its extensions, and processors and hooks see the agent: these types refer to each
// other, so they live in this one file (type-only imports between files would still be a cycle).

/** Builds an instruction at request time; its output is used exactly as returned, without templating. */
export type InstructionProvider = (context: ReadonlyContext) => string | Promise<string>;

/** A template string (its `{placeholders}` are filled from state) or a provider. */
export type Instruction = string | InstructionProvider;

/** Text (and data) that goes into the system text unchanged: never templated, so braces are safe. */
export type StaticInstruction = string | readonly (string | Part)[] | Content;

/**
 * ADK 2.0's agent modes, as far as the request goes: a `single_turn` agent gets no identity sentence; `task` and
 * `single_turn` agents are never transfer targets and get no transfer text. Absent means `chat`.
 */
export type AgentMode = 'chat' | 'task' | 'single_turn';

/** `none`: the model sees only the current turn, not the history. */
export type IncludeContents = 'default' | 'none';

type AgentBase = {
  readonly name: string;
  readonly description: string;
  readonly subAgents: readonly AgentDefinition[];
};

/**
 * An agent that talks to a model: ADK's `LlmAgent` fields, agentctx's request pipeline, and the extensions (skills,
 * memory, sections, paging, your own) that add to what its requests carry.
 */
export type LlmAgentDefinition = AgentBase & {
  readonly kind: 'llm';
  readonly model?: string;
  readonly instruction?: Instruction;
  /** Only the root agent's counts; it goes first in every agent's system text. Deprecated in ADK: prefer `GlobalInstructionPlugin`. */
  readonly globalInstruction?: Instruction;
  readonly staticInstruction?: StaticInstruction;
  readonly disallowTransferToParent: boolean;
  readonly disallowTransferToPeers: boolean;
  readonly includeContents: IncludeContents;
  readonly tools: readonly Tool[];
  /** Tools listed at run time (MCP servers), after `tools`, in this order; the toolsets given in `tools` land here. */
  readonly toolsets: readonly Toolset[];
  /** State key that receives the agent's final text (with `outputSchema`, the answer's parsed value). */
  readonly outputKey?: string;
  /**
   * The shape of the agent's answer (ADK's `output_schema`): without tools the request asks the provider for JSON of
   * this schema; with tools the agent gets ADK's `set_model_response` tool to answer with. The answer is checked
   * against it (docs/structured-output.md).
   */
  readonly outputSchema?: OutputSchema;
  /**
   * The arguments the agent takes when another agent calls it as a tool (ADK's `input_schema`): the tool's parameters,
   * checked before it runs; the agent receives them as JSON text. A schema of the same kinds as `outputSchema`.
   */
  readonly inputSchema?: OutputSchema;
  readonly generateConfig?: Omit<RequestConfig, 'model'>;
  /** Tools its model's provider runs itself (Gemini's `googleSearch`…), sent with every request of this agent. */
  readonly builtInTools?: readonly BuiltInTool[];
  readonly callbacks?: AgentCallbacks;
  readonly mode?: AgentMode;
  /** This agent's request pipeline (`harnessPipeline()`, or one of your own); the runner's, else the default one, when absent. */
  readonly pipeline?: readonly Processor[];
  /**
   * Token-threshold compaction before each of this agent's model calls, as @google/adk spells it; tried in order, at
   * most one compacts per call. Takes the place of the runner's `eventsCompactionConfig` token trigger for this agent.
   */
  readonly contextCompactors?: readonly ContextCompactor[];
  /** What this agent uses beyond ADK's fields; each extension adds processors, tools, settings or hooks for it alone. */
  readonly extensions: readonly Extension[];
};

/** An agent that runs its sub-agents in order, at once, or in a loop, without a model of its own. */
export type WorkflowAgentDefinition = AgentBase & {
  readonly kind: 'sequential' | 'parallel' | 'loop';
  /** For `loop`: stop after this many rounds (no limit when absent). */
  readonly maxIterations?: number;
};

/** What a custom agent yields of its own: the runner makes it an event of the agent and stores it. */
export type CustomAgentReply = {
  readonly content?: Content;
  /** End the loop around this agent (as a tool's `escalate` does). */
  readonly escalate?: boolean;
  /** Hand the conversation to this agent when this one ends (a sub-agent, its parent or a peer, by name). */
  readonly transferToAgent?: string;
};

/**
 * What a custom agent's `run` gets: its invocation as a callback sees it (state written here travels on the next reply
 * it yields, or on an event of its own at the end), the session's events so far, and its sub-agents to run.
 */
export type CustomAgentContext = CallbackContext & {
  /** The session's events as the agent starts (read-only). */
  readonly events: readonly Event[];
  /** Aborted when the invocation is cancelled. */
  readonly signal: AbortSignal | undefined;
  /**
   * Runs one of its sub-agents, by name, to its end: its events are stored as they come; yield them on
   * (`yield* agent.runSubAgent('writer')`) so the caller sees them, or read them and yield replies of your own.
   */
  runSubAgent(name: string): AsyncGenerator<Event>;
};

/**
 * An agent whose logic is code (ADK's `BaseAgent` subclass: a router, a code step): `run` yields replies, which the
 * runner stores as this agent's events, and its sub-agents' events from `runSubAgent`. Workflow agents, transfers,
 * agent tools, `inspect` and the servers treat it like any other agent.
 */
export type CustomAgentDefinition = AgentBase & {
  readonly kind: 'custom';
  run(agent: CustomAgentContext): AsyncIterable<CustomAgentReply | Event>;
};

export type AgentDefinition = LlmAgentDefinition | WorkflowAgentDefinition | CustomAgentDefinition;

/** An agent in its tree: the definition with its parent and children; `AgentNode<LlmAgentDefinition>` once narrowed. */
export type AgentNode<D extends AgentDefinition = AgentDefinition> = {
  readonly definition: D;
  readonly name: string;
  readonly parent: AgentNode | undefined;
  readonly children: readonly AgentNode[];
};

/** A node whose agent talks to a model (`isLlmNode` narrows to it). */
export type LlmAgentNode = AgentNode<LlmAgentDefinition>;

export type AgentTree = {
  readonly root: AgentNode;
  /** Every node, root first, depth-first in declaration order. */
  readonly nodes: readonly AgentNode[];
  /** The node of that name, or `undefined`. */
  findAgent(name: string): AgentNode | undefined;
  /** The node of that name; throws a `NotFoundError` that lists the names there are. */
  getAgent(name: string): AgentNode;
};

// The request pipeline: processors and what they see.

/** Everything a processor may read while building one request. Nothing in it changes during assembly. */
export type AssemblyContext = {
  readonly tree: AgentTree;
  /** The agent being asked. */
  readonly node: AgentNode;
  readonly agent: LlmAgentDefinition;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly invocationId: string;
  readonly branch: string | undefined;
  readonly userContent: Content | undefined;
  readonly events: readonly Event[];
  /** The merged state, `temp:` keys of the running invocation included. */
  readonly state: Readonly<Record<string, unknown>>;
  readonly artifacts: ArtifactTextReader | undefined;
  /** The extensions in effect for this agent: the runner's plugins, then the agent's own (`settingOf` reads their settings). */
  readonly extensions: readonly Extension[];
  /** The conventions of this run (value format, how summaries are shown, …). */
  readonly profile: Profile;
  /** Searches the user's memories of earlier sessions (the runner's memory service); absent without one. */
  readonly searchMemory?: (query: string) => Promise<SearchMemoryResponse>;
  /** Keep generated function call ids (the model's provider pairs calls with responses by id). */
  readonly preserveFunctionCallIds: boolean;
  /** The model takes deferred tool definitions itself (`Model.loadsDeferredTools`); tool search then uses that form. */
  readonly loadsDeferredTools?: boolean;
  /** Values derived from this session, kept between its requests (the contents feature keeps its built messages here). */
  readonly memo: SessionMemo;
};

/**
 * One named step of request assembly. It returns a new draft (adding system blocks, messages or tools, each with
 * its source) and must not change the draft it was given; errors it throws are reported with its name and the agent.
 */
export type Processor = {
  readonly name: string;
  process(draft: RequestDraft, context: AssemblyContext): RequestDraft | Promise<RequestDraft>;
};

// Extensions: what an agent (or, as plugins, a runner) is extended with.

/**
 * Where an extension puts one of its processors: before or after a named processor (the first of several names that
 * the pipeline has), or at its start or end. A placement whose anchors are all missing is an error naming them.
 */
export type ProcessorPlacement =
  | { readonly processor: Processor; readonly before: string | readonly string[] }
  | { readonly processor: Processor; readonly after: string | readonly string[] }
  | { readonly processor: Processor; readonly at: 'start' | 'end' };

/** Names one setting an extension carries for the processors that read it. Settings are found by the key's identity. */
export type SettingKey<T> = {
  readonly name: string;
  /** Carries the value's type only; never set. */
  readonly valueType?: T;
};

/** One setting: a key and its value (build it with `setting(key, value)` so the two agree). */
export type Setting = { readonly key: SettingKey<unknown>; readonly value: unknown };

/**
 * What agentctx is extended with: a feature of one agent (skills, memory, sections, paging, one of your own) or,
 * registered on a runner, a plugin for every agent. It may add processors to the request pipeline, offer tools, carry
 * settings that processors read, and hook into the run. Everything an extension adds to a request is attributed to it
 * in the provenance, so `inspect` shows where it came from.
 */
export type Extension = {
  /** Names it in provenance, traces and errors: `skills`, `paging:reports`, `global_instruction`. Unique where it is registered. */
  readonly name: string;
  /** Processors it adds to the pipeline of each agent it applies to. */
  readonly processors?: readonly ProcessorPlacement[];
  /** Tools it offers each agent it applies to, after the agent's own. */
  readonly tools?: readonly Tool[];
  /** Settings for processors of the pipeline (its own, or built-in ones such as the skills listing). */
  readonly settings?: readonly Setting[];
  /**
   * Hooks into the run. On a runner (a plugin) they apply to every agent and run first; on an agent, only to that
   * agent, after the plugins'. Run-level hooks (`onUserMessage`, `beforeRun`, `onEvent`, `afterRun`) need a runner.
   */
  readonly hooks?: PluginHooks;
};

/** An extension registered on a runner: it applies to every agent of the tree (ADK's plugins). */
export type Plugin = Extension;

// Hooks into a run.

/** What run-level hooks see: the invocation, its session as it stands, and the means to add to it. */
export type InvocationContext = {
  readonly invocationId: string;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  /** The user message that started the invocation (after `onUserMessage` hooks). */
  readonly userContent: Content | undefined;
  readonly agents: AgentTree;
  /** Every event of the session stored so far, oldest first. */
  readonly events: readonly Event[];
  /** The merged state, `temp:` keys of this invocation included. */
  readonly state: Readonly<Record<string, unknown>>;
  readonly profile: Profile;
  /** Aborted when the invocation is cancelled. */
  readonly signal: AbortSignal | undefined;
  /** Values derived from this session, kept while the runner keeps it. */
  readonly memo: SessionMemo;
  /**
   * Stores an event of this invocation after every earlier one (its id and time from the runner's clock) and hands it
   * to the caller next, as every event of the run is.
   */
  appendEvent(input: Omit<EventInput, 'invocationId'>): Promise<Event>;
  /** The model an agent of the tree calls, resolved as the runner resolves it. */
  modelFor(agent: AgentNode): Promise<Model>;
  /**
   * Turns texts into vectors with `model` (its `embed`; a `ValidationError` when it has none), recorded in the runner's
   * call log as a call of `agent` (operation `embeddings`: the texts, the usage, the wire), priced and traced like one.
   */
  embed(
    model: Model,
    texts: readonly string[],
    options?: { agent?: string; dimensions?: number; purpose?: 'query' | 'document' },
  ): Promise<EmbedResponse>;
  /**
   * `model` with every call it makes recorded in the runner's call log as a call of `agent` (the request, the answer,
   * usage and wire body), priced and traced like an agent's: for a model called beside the agents, such as a
   * compaction's summarizer, so what it was sent and what it cost are on record. `note` says what its requests are.
   */
  recordedModel(model: Model, agent: string, note: string): Model;
  /** A new id from the runner's source of ids (deterministic when the runner's is). */
  newId(): string;
};

/**
 * Hooks into a run, as ADK's plugins have them. Hooks of one kind run in order (plugins first, then the agent's own
 * extensions, then the agent's callbacks); the first that returns something wins and the rest are skipped
 * (`afterAssembly` and `afterRun` hooks all run). A hook that throws fails the way the callback beside it would, with
 * an `extension_failed` error that names the extension and the hook: a tool hook's becomes the tool's `{ error }`
 * response, an `afterAssembly` hook's ends the invocation with an error event, the others reject the run.
 */
export type PluginHooks = {
  /** Before the user's message is stored; returning content stores and runs that instead. */
  onUserMessage?(args: { context: InvocationContext; message: Content }): Maybe<Content>;
  /** After the user's message is stored, before any agent runs; returning content answers with it and ends the invocation. */
  beforeRun?(args: { context: InvocationContext }): Maybe<Content>;
  /** Every event the run hands to the caller, after it is stored; returning an event hands that over instead (storage keeps the original). */
  onEvent?(args: { context: InvocationContext; event: Event }): Maybe<Event>;
  /** After the invocation has run to its end (not when it was aborted or a hook failed). */
  afterRun?(args: { context: InvocationContext }): Maybe<void>;
  /** Before an agent runs; returning content skips the agent and answers with it. */
  beforeAgent?(args: { agent: AgentNode; context: CallbackContext }): Maybe<Content>;
  /** After an agent ran; returning content adds it as the agent's last word. */
  afterAgent?(args: { agent: AgentNode; context: CallbackContext }): Maybe<Content>;
  /**
   * agentctx's own: the request of the next model call is assembled, before any `beforeModel` hook sees it. A hook may
   * append events (a compaction) and ask for the request to be built again from the session as it now is.
   */
  afterAssembly?(args: {
    agent: LlmAgentNode;
    branch: string | undefined;
    context: InvocationContext;
    assembled: AssembledRequest;
  }): Maybe<{ reassemble: boolean }>;
  /** Before a model call; may edit the request in place, or return a response that replaces the call. */
  beforeModel?(args: { agent: AgentNode; context: CallbackContext; request: LlmRequest }): Maybe<ModelResponse>;
  /** After a model call; returning a response replaces the model's. */
  afterModel?(args: { agent: AgentNode; context: CallbackContext; response: ModelResponse }): Maybe<ModelResponse>;
  /**
   * agentctx's form of ADK's response processors: after `afterModel`, every one runs, in order, on the response the
   * one before it gave; returning a response replaces it (a planner marks its reasoning as thoughts).
   */
  processResponse?(args: { agent: AgentNode; context: CallbackContext; response: ModelResponse }): Maybe<ModelResponse>;
  /** A model call failed; returning a response stands in for the failure, and the turn goes on with it. */
  onModelError?(args: {
    agent: AgentNode;
    context: CallbackContext;
    request: LlmRequest;
    error: unknown;
  }): Maybe<ModelResponse>;
  /** Before a tool runs; returning a result skips the tool. */
  beforeTool?(args: {
    tool: Tool;
    args: Record<string, unknown>;
    context: ToolContext;
  }): Maybe<Record<string, unknown>>;
  /** After a tool ran; returning a result replaces the tool's. */
  afterTool?(args: {
    tool: Tool;
    args: Record<string, unknown>;
    context: ToolContext;
    result: Record<string, unknown>;
  }): Maybe<Record<string, unknown>>;
  /** A tool threw; returning a result stands in for the error response. */
  onToolError?(args: {
    tool: Tool;
    args: Record<string, unknown>;
    context: ToolContext;
    error: unknown;
  }): Maybe<Record<string, unknown>>;
};
