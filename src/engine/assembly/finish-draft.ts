import type { RequestDraft } from '../../contracts/draft.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';
import { joinSystemBlocks } from './draft.js';

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
