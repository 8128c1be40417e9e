import type { SearchMemoryResponse } from './memory-service.js';
import type { Artifact, StoredArtifact } from './artifact.js';
import type { Content } from './content.js';
import type { StateOp } from './state-op.js';

/** Read access to state: values come out as copies. */
export type ReadonlyState = {
  get<T = unknown>(key: string): T | undefined;
  has(key: string): boolean;
  /** A copy of every visible key, `temp:` ones included. */
  toRecord(): Record<string, unknown>;
};

/**
 * Read-write state during an invocation: reads see the session's merged state and everything written so far; writes
 * are visible at once and travel on the next event as its state delta. Values go in and come out as copies.
 */
export type SessionState = {
  get<T = unknown>(key: string): T | undefined;
  get<T>(key: string, fallback: T): T;
  has(key: string): boolean;
  set(key: string, value: unknown): void;
  update(values: Readonly<Record<string, unknown>>): void;
  /**
   * Adds `by` to the number at `key` (absent: `by`). Like the three below, it changes the value at once (a later
   * `get` sees the result, as if `set` had written it) and travels on the next event as an operation the store
   * applies to the value it holds then, so writers in other sessions never conflict. Throws `ValidationError`
   * when the current value is of another type (set the key to a number first, or use `set`).
   */
  add(key: string, by: number): void;
  /** Appends `items` to the list at `key` (absent: `items`). */
  append(key: string, ...items: unknown[]): void;
  /** Sets one field of the object at `key` (absent: `{ [field]: value }`); an existing field keeps its place. */
  setField(key: string, field: string, value: unknown): void;
  /** Appends each of `items` to the list at `key` (absent: `[]`) unless an equal JSON value is already in it. */
  addToSet(key: string, ...items: unknown[]): void;
  /** True once anything was written through this view (a value or an operation). */
  hasDelta(): boolean;
  /** A copy of the pending writes. */
  delta(): Record<string, unknown>;
  /** A copy of the pending operations, in order; a key set after its operations has none left. */
  stateOps(): StateOp[];
  /** A copy of everything visible, optionally without `temp:` keys. */
  toRecord(options?: { includeTemp?: boolean }): Record<string, unknown>;
};

/** Who is running, where: what every context (instruction providers, callbacks, tools) knows. */
export type RunIdentity = {
  readonly agentName: string;
  readonly invocationId: string;
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly branch: string | undefined;
  /** The user message that started this invocation, when known. */
  readonly userContent: Content | undefined;
};

/** What an instruction provider may read. It is called again for every model call. */
export type ReadonlyContext = RunIdentity & {
  readonly state: ReadonlyState;
  /** Fills `{placeholders}` the way a string instruction is filled (provider output is not filled otherwise). */
  injectState(template: string): Promise<string>;
};

/** The artifacts of the running session, by name; `user:` names are shared by the user's sessions. */
export type SessionArtifacts = {
  load(name: string, version?: number): Promise<StoredArtifact | undefined>;
  /** Saves a new version, records it in the event's `artifactDelta`, and returns its number. */
  save(name: string, artifact: Artifact): Promise<number>;
  list(): Promise<string[]>;
};

/** What callbacks see: who is running, and read-write access to state, artifacts and the user's memory. */
export type CallbackContext = RunIdentity & {
  /** Writes are visible at once and travel on the next event as its state delta. */
  readonly state: SessionState;
  readonly artifacts: SessionArtifacts;
  /** The user's memories of earlier sessions that match a query (ADK's `search_memory`); throws without a memory service. */
  searchMemory(query: string): Promise<SearchMemoryResponse>;
  /** Remembers this session as it is now (ADK's `add_session_to_memory`); throws without a memory service. */
  addSessionToMemory(): Promise<void>;
};

/** Effects a tool can ask for, carried by its function response event. */
export type ToolActions = {
  /** End the current agent's turn (and a loop around it). */
  escalate?: boolean;
  /** Hand the conversation to this agent. */
  transferToAgent?: string;
  /** The tool's result is the answer: do not call the model again to phrase it. */
  skipSummarization?: boolean;
  /**
   * End the whole invocation after this response is stored, with an error event carrying this code and message: for
   * a tool that finds the conversation cannot usefully go on (the model keeps asking for an agent it cannot reach).
   */
  endInvocation?: { code: string; message: string };
  /** The agent's structured answer, given through `set_model_response`: the runner makes it the agent's final text. */
  setModelResponse?: unknown;
  /** A person must confirm this call first (`requestConfirmation`): the run pauses on ADK's `adk_request_confirmation`. */
  requestedConfirmation?: ToolConfirmation;
};

/** ADK's `ToolConfirmation`: what a person is asked (`hint`), their answer, and data they send with it. */
export type ToolConfirmation = {
  hint: string;
  confirmed: boolean;
  /** JSON data: what the tool asked for (requesting), or what the person sent (answering). */
  payload?: unknown;
};

/** What a tool receives besides its arguments. */
export type ToolContext = CallbackContext & {
  /** The id of the function call being answered. */
  readonly functionCallId: string | undefined;
  readonly actions: ToolActions;
  /** Aborted when the invocation is cancelled. */
  readonly signal: AbortSignal | undefined;
  /** The person's answer, when this call runs again after a confirmation it asked for (ADK's `tool_confirmation`). */
  readonly toolConfirmation: ToolConfirmation | undefined;
  /**
   * Asks a person to confirm this call before it takes effect (ADK's `request_confirmation`): the run pauses after
   * this call's response, and the person's answer runs the call again with `toolConfirmation` set. Return an error
   * result meanwhile (the model sees it until the answer comes).
   */
  requestConfirmation(options?: { hint?: string; payload?: unknown }): void;
  /**
   * Runs an agent from inside the tool, as an agent tool runs its agent: in a session of its own seeded with this
   * state (state it changes comes back), answering `request`; `{ result }` holds its final text, `{ error }` why it
   * failed. Its model calls are recorded in this session, linked to this tool call. The agent is a definition made
   * with `llmAgent` (or a workflow agent), typed by its name and kind alone, as `Tool['agent']` is.
   */
  runAgent(agent: { readonly name: string; readonly kind: string }, request: string): Promise<Record<string, unknown>>;
};
