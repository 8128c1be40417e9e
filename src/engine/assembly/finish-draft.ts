import type { RequestDraft } from '../../contracts/draft.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';
import { joinSystemBlocks } from './draft.js';

/** Turns a finished draft into the request and its provenance (system blocks in the order the text has them). */
export function finishDraft(draft: RequestDraft): { request: LlmRequest; provenance: Provenance; warnings: string[] } {
  const system = joinSystemBlocks(draft.systemBlocks);
  const blocks = draft.systemBlocks.map((block, index) => ({
    ...(system.ranges[index] as { start: number; end: number }),
    source: block.source,
  }));
  // Blocks placed at the start lead the text; a stable sort keeps every other block where it was.
  if (draft.systemBlocks.some((block) => block.placement === 'start')) blocks.sort((a, b) => a.start - b.start);
  // A request with no deferred definitions has no `deferredTools`, so every other request keeps its bytes.
  const deferred =
    draft.deferredTools !== undefined && draft.deferredTools.tools.length > 0 ? draft.deferredTools : undefined;
  const builtIn = draft.builtInTools ?? [];
  return {
    request: {
      system: system.text,
      tools: draft.tools.map((tool) => tool.declaration),
      ...(deferred === undefined
        ? {}
        : { deferredTools: { loader: deferred.loader, declarations: deferred.tools.map((tool) => tool.declaration) } }),
      ...(builtIn.length === 0 ? {} : { builtInTools: builtIn.map((entry) => entry.tool) }),
      messages: draft.messages.map((draftMessage) => draftMessage.message),
      config: draft.config,
    },
    provenance: {
      system: blocks,
      tools: draft.tools.map((tool) => tool.source),
      ...(deferred === undefined ? {} : { deferredTools: deferred.tools.map((tool) => tool.source) }),
      ...(builtIn.length === 0 ? {} : { builtInTools: builtIn.map((entry) => entry.source) }),
      messages: draft.messages.map((draftMessage) => draftMessage.sources as Source[]),
    },
    warnings: [...draft.warnings],
  };
}
