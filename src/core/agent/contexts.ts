import type { Artifact, StoredArtifact } from '../session/artifact.js';
import type { State } from '../state/state.js';
import type { RunIdentity } from './readonly-context.js';

/** The artifacts of the running session, by name; `user:` names are shared by the user's sessions. */
export type SessionArtifacts = {
  load(name: string, version?: number): Promise<StoredArtifact | undefined>;
  /** Saves a new version, records it in the event's `artifactDelta`, and returns its number. */
  save(name: string, artifact: Artifact): Promise<number>;
  list(): Promise<string[]>;
};

/** What callbacks see: who is running, and read-write access to state and artifacts. */
export type CallbackContext = RunIdentity & {
  /** Writes are visible at once and travel on the next event as its state delta. */
  readonly state: State;
  readonly artifacts: SessionArtifacts;
};

/** Effects a tool can ask for, carried by its function response event. */
export type ToolActions = {
  /** End the current agent's turn (and a loop around it). */
  escalate?: boolean;
  /** Hand the conversation to this agent. */
  transferToAgent?: string;
  /** The tool's result is the answer: do not call the model again to phrase it. */
  skipSummarization?: boolean;
};

/** What a tool receives besides its arguments. */
export type ToolContext = CallbackContext & {
  /** The id of the function call being answered. */
  readonly functionCallId: string | undefined;
  readonly actions: ToolActions;
  /** Aborted when the invocation is cancelled. */
  readonly signal: AbortSignal | undefined;
};
