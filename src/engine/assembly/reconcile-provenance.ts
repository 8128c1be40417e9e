import type { Provenance, RequestEdit, RequestRemoval } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';
import { reconcileMessages } from './reconcile-messages.js';
import { partKey, removal, type TextEdit } from './reconcile-shared.js';
import { reconcileText } from './reconcile-text.js';
import { reconcileTools } from './reconcile-tools.js';

/**
 * The provenance of `after`, a request a hook (`by`, kind `callback`) made by editing `before` in place, given the
 * provenance of `before`: what the hook left keeps its source, what it wrote is attributed to it, what it took out is
 * listed in `removed`. Edits and removals recorded by earlier hooks carry over, re-mapped. Inputs are not mutated.
 */
export function reconcileProvenance(
  before: LlmRequest,
  provenance: Provenance,
  after: LlmRequest,
  by: Source,
): Provenance {
  const earlier = groupEdits(provenance.edits ?? []);
  const edits: RequestEdit[] = [];
  const removed: RequestRemoval[] = [...(provenance.removed ?? [])];

  const system = reconcileText(
    before.system,
    after.system,
    { blocks: provenance.system, edits: earlier.system },
    by,
    false,
  );
  for (const edit of system.edits) edits.push({ target: { in: 'system' }, ...edit });
  for (const block of system.removed)
    removed.push(removal('system-block', block.source, by, before.system.slice(block.start, block.end)));

  const tools = reconcileTools(before.tools, after.tools, provenance.tools, earlier.tools, by, edits, removed);
  const messages = reconcileMessages(
    before.messages,
    after.messages,
    provenance.messages,
    earlier.parts,
    by,
    edits,
    removed,
  );

  const result: Provenance = { system: system.blocks, tools, messages };
  if (after.deferredTools !== undefined) result.deferredTools = reconcileDeferred(before, provenance, after, by);
  if (after.builtInTools !== undefined) result.builtInTools = reconcileBuiltIn(before, provenance, after, by);
  if (edits.length > 0) result.edits = edits.sort(requestOrder);
  if (removed.length > 0) result.removed = removed;
  return result;
}

// A deferred definition the hook left as it was keeps its source; one it added or changed is the hook's.
function reconcileDeferred(before: LlmRequest, provenance: Provenance, after: LlmRequest, by: Source): Source[] {
  const earlier = new Map<string, { json: string; source: Source }>();
  (before.deferredTools?.declarations ?? []).forEach((declaration, index) => {
    const source = provenance.deferredTools?.[index];
    if (source !== undefined) earlier.set(declaration.name, { json: JSON.stringify(declaration), source });
  });
  return (after.deferredTools?.declarations ?? []).map((declaration) => {
    const kept = earlier.get(declaration.name);
    return kept !== undefined && kept.json === JSON.stringify(declaration) ? kept.source : by;
  });
}

// A built-in tool the hook left as it was keeps its source; one it added or changed is the hook's.
function reconcileBuiltIn(before: LlmRequest, provenance: Provenance, after: LlmRequest, by: Source): Source[] {
  const earlier = new Map<string, Source>();
  (before.builtInTools ?? []).forEach((tool, index) => {
    const source = provenance.builtInTools?.[index];
    if (source !== undefined) earlier.set(JSON.stringify(tool), source);
  });
  return (after.builtInTools ?? []).map((tool) => earlier.get(JSON.stringify(tool)) ?? by);
}

function groupEdits(edits: readonly RequestEdit[]): {
  system: TextEdit[];
  tools: Map<number, TextEdit[]>;
  parts: Map<string, TextEdit[]>;
} {
  const system: TextEdit[] = [];
  const tools = new Map<number, TextEdit[]>();
  const parts = new Map<string, TextEdit[]>();
  for (const { target, ...edit } of edits) {
    if (target.in === 'system') system.push(edit);
    else if (target.in === 'tool') tools.set(target.tool, [...(tools.get(target.tool) ?? []), edit]);
    else {
      const key = partKey(target.message, target.part);
      parts.set(key, [...(parts.get(key) ?? []), edit]);
    }
  }
  return { system, tools, parts };
}

const TARGET_RANK = { system: 0, tool: 1, part: 2 } as const;

function requestOrder(a: RequestEdit, b: RequestEdit): number {
  return (
    TARGET_RANK[a.target.in] - TARGET_RANK[b.target.in] ||
    (a.target.in === 'tool' && b.target.in === 'tool' ? a.target.tool - b.target.tool : 0) ||
    (a.target.in === 'part' && b.target.in === 'part'
      ? a.target.message - b.target.message || a.target.part - b.target.part
      : 0) ||
    a.start - b.start ||
    a.end - b.end
  );
}
