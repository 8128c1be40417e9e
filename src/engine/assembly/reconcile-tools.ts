import type { EditTarget, RequestEdit, RequestRemoval } from '../../contracts/provenance.js';
import type { ToolDeclaration } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';
import { canonicalJson, removal, type TextEdit } from './reconcile-shared.js';
import { reconcileWhole } from './reconcile-text.js';

// Tools: matched by name, in order; only a description is reconciled as text.

/** The sources of `after`'s tools; what changed is appended to `edits` and `removed`. */
export function reconcileTools(
  before: readonly ToolDeclaration[],
  after: readonly ToolDeclaration[],
  sources: readonly Source[],
  earlier: ReadonlyMap<number, TextEdit[]>,
  by: Source,
  edits: RequestEdit[],
  removed: RequestRemoval[],
): Source[] {
  const byName = new Map<string, number[]>();
  before.forEach((tool, index) => byName.set(tool.name, [...(byName.get(tool.name) ?? []), index]));
  const matched = new Set<number>();
  const result = after.map((tool, index): Source => {
    const old = byName.get(tool.name)?.shift();
    if (old === undefined) return by;
    matched.add(old);
    const oldTool = before[old] as ToolDeclaration;
    const source = sources[old] ?? by;
    const oldEdits = earlier.get(old) ?? [];
    const target: EditTarget = { in: 'tool', tool: index };
    if (canonicalJson(withoutDescription(oldTool)) !== canonicalJson(withoutDescription(tool)))
      return changedBy(by, source);
    const reconciled = reconcileWhole(oldTool.description, tool.description, source, oldEdits, by);
    for (const edit of reconciled.edits) edits.push({ target, ...edit });
    return reconciled.source;
  });
  before.forEach((tool, index) => {
    if (!matched.has(index))
      removed.push(removal('tool', sources[index] ?? by, by, `${tool.name}: ${tool.description}`));
  });
  return result;
}

function withoutDescription(tool: ToolDeclaration): Omit<ToolDeclaration, 'description'> {
  const { description: _description, ...rest } = tool;
  return rest;
}

/** A tool the hook rewrote beyond its description is the hook's now; the note keeps where it first came from. */
function changedBy(by: Source, original: Source): Source {
  return {
    ...by,
    note: `${by.note ?? by.processor} changed this tool; it was ${original.kind} from agent ${original.agent}`,
  };
}
