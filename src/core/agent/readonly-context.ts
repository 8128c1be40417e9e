import type { Content } from '../session/content.js';

/** Read access to state: values come out as copies. */
export type ReadonlyState = {
  get<T = unknown>(key: string): T | undefined;
  has(key: string): boolean;
  /** A copy of every visible key, `temp:` ones included. */
  toRecord(): Record<string, unknown>;
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
