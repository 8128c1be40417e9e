import type { DraftTool } from './draft.js';
import type { LlmRequest } from './request.js';
import type { Source } from './source.js';
import type { Tool } from './tool.js';

/** Where every piece of a request came from, parallel to the request itself. */
export type Provenance = {
  /** One entry per system block, with its place in `request.system`; substitution ranges are relative to the block. */
  system: { start: number; end: number; source: Source }[];
  /** One entry per tool. */
  tools: Source[];
  /** One list per message, one entry per part. */
  messages: Source[][];
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
  /** Tools that answer calls to names the request does not offer (see `RequestDraft.handlers`). */
  handlers: readonly Tool[];
};
