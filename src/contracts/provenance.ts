import type { DraftTool } from './draft.js';
import type { LlmRequest } from './request.js';
import type { Source } from './source.js';
import type { Tool } from './tool.js';

/**
 * Where every piece of a request came from, parallel to the request itself. After a `beforeModel` callback or plugin
 * hook changed the request, it describes the changed request: untouched pieces keep their sources, pieces the hook
 * added are sourced to it (kind `callback`), and text it wrote inside a piece is listed in `edits`.
 */
export type Provenance = {
  /**
   * One entry per system block, with its place in `request.system`, in order and not overlapping; substitution
   * ranges are relative to the block. What lies between blocks is the separator assembly joined them with.
   */
  system: { start: number; end: number; source: Source }[];
  /** One entry per tool. */
  tools: Source[];
  /** One entry per deferred tool definition (`request.deferredTools.declarations`); absent when the request has none. */
  deferredTools?: Source[];
  /** One entry per built-in tool (`request.builtInTools`); absent when the request has none. */
  builtInTools?: Source[];
  /** One list per message, one entry per part. */
  messages: Source[][];
  /** Text a hook wrote inside a piece that keeps its own source, in the order of the request; absent when none. */
  edits?: RequestEdit[];
  /** Pieces a hook took out of the request; absent when none. */
  removed?: RequestRemoval[];
};

/** The text an edit is in: the system text, a message's text part, or a tool's description. */
export type EditTarget =
  | { in: 'system' }
  | { in: 'part'; message: number; part: number }
  | { in: 'tool'; tool: number };

/** Text a hook wrote at `start`–`end` of its target (offsets in the text as sent; `start === end` for a deletion). */
export type RequestEdit = {
  target: EditTarget;
  start: number;
  end: number;
  /** The hook that wrote it (kind `callback`). */
  by: Source;
  /** The text it replaced, if any. */
  replaced?: string;
};

/** A whole piece a hook removed: what it was, where it came from, who removed it. */
export type RequestRemoval = {
  what: 'system-block' | 'tool' | 'message' | 'part';
  /** The removed piece's own source. */
  source: Source;
  by: Source;
  /** The start of its text (at most 120 characters), so a reader can tell which piece it was. */
  preview: string;
};

/** What one processor added, in pipeline order. */
export type ProcessorTrace = {
  processor: string;
  /** The extension or plugin that put the processor in the pipeline; absent for the pipeline's own. */
  extension?: string;
  systemBlocks: number;
  tools: number;
  messages: number;
};

/** A request as assembly leaves it: what the model will receive, and where every part of it came from. */
export type AssembledRequest = {
  request: LlmRequest;
  provenance: Provenance;
  trace: ProcessorTrace[];
  /** Things worth knowing about this request, such as skills left out of a listing that exceeded its budget. */
  warnings: string[];
  /** The tools offered, with what runs for each (parallel to `request.tools`); the runner answers calls with these. */
  tools: readonly DraftTool[];
  /** The deferred tools, parallel to `request.deferredTools.declarations` (empty when there are none). */
  deferredTools: readonly DraftTool[];
  /** Tools that answer calls to names the request does not offer (see `RequestDraft.handlers`). */
  handlers: readonly Tool[];
};
