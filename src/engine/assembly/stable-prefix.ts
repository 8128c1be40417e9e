import type { StablePrefix } from '../../contracts/model.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { SourceKind } from '../../contracts/source.js';

// System text of these kinds is expected to change from one call to the next: the working set of a pager, and
// whatever a hook wrote (it may be a timestamp). Everything else in the system text is the agent's definition.
const VOLATILE_IN_SYSTEM: ReadonlySet<SourceKind> = new Set(['page', 'callback']);
// Messages that are not history: put in for this call only (a dynamic instruction beside a static one, the finalize
// turn) or written by a hook. The next call will not have them where this one does. A page in the messages stays
// where its page-in put it for the rest of its batch, so it counts as history.
const VOLATILE_IN_MESSAGES: ReadonlySet<SourceKind> = new Set(['instruction', 'callback', 'finalize']);

/**
 * Where the request's stable prefix ends: the system text up to its first volatile block (or first hook edit), and
 * the messages before the first one holding a volatile part. Prompt caching marks these places, and the cache-miss
 * explainer reads them; the same request and provenance always give the same answer.
 */
export function stablePrefixOf(request: LlmRequest, provenance: Provenance): StablePrefix {
  let systemChars = request.system.length;
  for (const block of provenance.system) {
    if (VOLATILE_IN_SYSTEM.has(block.source.kind)) {
      systemChars = block.start;
      break;
    }
  }
  let messages = request.messages.length;
  provenance.messages.some((sources, index) => {
    if (index >= messages || !sources.some((source) => VOLATILE_IN_MESSAGES.has(source.kind))) return false;
    messages = index;
    return true;
  });
  for (const edit of provenance.edits ?? []) {
    if (edit.target.in === 'system') systemChars = Math.min(systemChars, edit.start);
    else if (edit.target.in === 'part') messages = Math.min(messages, edit.target.message);
  }
  // Text between the last stable block and a volatile one is the separator; the prefix ends with the stable text.
  if (systemChars < request.system.length)
    while (systemChars > 0 && /\s/.test(request.system[systemChars - 1] ?? '')) systemChars--;
  return { systemChars, messages };
}
