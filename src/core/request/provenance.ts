import type { RequestDraft } from './draft.js';
import { joinSystemBlocks } from './draft.js';
import type { LlmRequest } from './request.js';
import type { Source } from './source.js';

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
  systemBlocks: number;
  tools: number;
  messages: number;
};

/** Turns a finished draft into the request and its provenance. */
export function finishDraft(draft: RequestDraft): { request: LlmRequest; provenance: Provenance; warnings: string[] } {
  const system = joinSystemBlocks(draft.systemBlocks);
  return {
    request: {
      system: system.text,
      tools: draft.tools.map((tool) => tool.declaration),
      messages: draft.messages.map((draftMessage) => draftMessage.message),
      config: draft.config,
    },
    provenance: {
      system: draft.systemBlocks.map((block, index) => ({ ...(system.ranges[index] as { start: number; end: number }), source: block.source })),
      tools: draft.tools.map((tool) => tool.source),
      messages: draft.messages.map((draftMessage) => draftMessage.sources as Source[]),
    },
    warnings: [...draft.warnings],
  };
}
