/** The kind of thing a piece of the request is; the inspector colours by it. */
export type SourceKind =
  | 'global-instruction'
  | 'instruction'
  | 'static-instruction'
  | 'identity'
  | 'transfer'
  | 'tool'
  | 'history'
  | 'other-agent'
  /** Taken from another session's events (a memory of session 1 in session 2's request); `session` names it. */
  | 'other-session'
  | 'summary'
  | 'instruction-content'
  | 'finalize'
  | 'section'
  | 'skill-listing'
  | 'skill'
  | 'memory'
  | 'page'
  | 'custom'
  /** Written by a `beforeModel` callback or plugin hook after assembly. */
  | 'callback';

/** A state value or artifact inserted into a text, at `start`–`end` of that text (block, part or field). */
export type SourceSubstitution = {
  placeholder: string;
  start: number;
  end: number;
} & (
  | { kind: 'state'; key: string; scope: string; present: boolean }
  | { kind: 'artifact'; name: string; present: boolean }
);

/** Where one system block, tool or message part came from. */
export type Source = {
  kind: SourceKind;
  /** The processor that added it. */
  processor: string;
  /** The extension or plugin whose processor added it; absent for the pipeline's own processors. */
  extension?: string;
  /** The agent whose definition or turn it comes from. */
  agent: string;
  /** The definition field it was taken from: `instruction`, `description`, `tools[1]`, … */
  field?: string;
  /** Events it was built from, in order (of `session` when that is set). */
  eventIds?: string[];
  /** The session its events belong to, when that is not the session of the call (kind `other-session`). */
  session?: { appName: string; userId: string; sessionId: string };
  /** Values inserted into its text by templating. */
  substitutions?: SourceSubstitution[];
  /** A short human note, such as "rendered as another agent's turn". */
  note?: string;
  /** For a tool: which kind it is and, for a toolset's tool, the toolset and the name it has there. */
  tool?: ToolOrigin;
  /**
   * For memories put into the request (kind `memory`), each one in the order of the text: its id and, as the memory
   * service has them, the session and event it was taken from (absent for one written directly), its author and time.
   */
  memories?: { id: string; sessionId?: string; eventId?: string; author?: string; timestamp?: string }[];
};

/**
 * Where a tool definition came from: a function tool, an agent tool, a tool declared without an implementation, or a
 * toolset's (an MCP server's, with the server and the tool's name on it, which a prefix may have changed).
 */
export type ToolOrigin =
  | { kind: 'function' | 'agent' | 'declared' }
  /** A tool the provider runs itself (`LlmRequest.builtInTools`). */
  | { kind: 'built-in'; provider: string }
  | { kind: 'toolset'; toolset: string; name: string }
  | { kind: 'mcp'; toolset: string; server: string; name: string };
