import type { EditTarget, Provenance, RequestEdit } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';
import { searchableText } from './part-text.js';

/**
 * A run of text with one origin: a block's or piece's own text (its source), text a hook wrote (`edit`, source the
 * hook), or the separator assembly put between system blocks (no source).
 */
export type TextPiece = {
  start: number;
  end: number;
  source: Source | undefined;
  edit?: RequestEdit;
  separator?: true;
};

/** The pieces of `request.system`, covering it exactly and in order; empty pieces are left out. */
export function systemPieces(request: LlmRequest, provenance: Provenance): TextPiece[] {
  const length = request.system.length;
  const edits = editsIn(provenance, { in: 'system' });
  const pieces: TextPiece[] = [];
  let cursor = 0;
  for (const block of provenance.system) {
    const start = Math.min(Math.max(block.start, cursor), length);
    const end = Math.min(Math.max(block.end, start), length);
    pushSeparator(pieces, cursor, start);
    pieces.push(
      ...piecesIn(
        start,
        end,
        block.source,
        edits.filter((edit) => edit.start >= start && edit.end <= end),
      ),
    );
    cursor = end;
  }
  pushSeparator(pieces, cursor, length);
  return pieces;
}

/** The pieces of one text (a part's, a tool description) with its source and the edits made in it. */
export function textPieces(text: string, source: Source | undefined, edits: readonly RequestEdit[]): TextPiece[] {
  return piecesIn(0, text.length, source, edits);
}

/**
 * The pieces of a message part: a text part's text, for other parts the text `findInRequest` searches (a call's
 * JSON, …), which hooks' edits never touch.
 */
export function partPieces(request: LlmRequest, provenance: Provenance, message: number, part: number): TextPiece[] {
  const value = request.messages[message]?.content[part];
  if (value === undefined) return [];
  return textPieces(
    searchableText(value),
    provenance.messages[message]?.[part],
    editsIn(provenance, { in: 'part', message, part }),
  );
}

/** The pieces of a tool's description. */
export function toolDescriptionPieces(request: LlmRequest, provenance: Provenance, tool: number): TextPiece[] {
  const value = request.tools[tool];
  if (value === undefined) return [];
  return textPieces(value.description, provenance.tools[tool], editsIn(provenance, { in: 'tool', tool }));
}

/** The one source of the character at `offset` of a target's text; undefined for a separator or outside the text. */
export function sourceAt(
  request: LlmRequest,
  provenance: Provenance,
  target: EditTarget,
  offset: number,
): Source | undefined {
  const pieces =
    target.in === 'system'
      ? systemPieces(request, provenance)
      : target.in === 'part'
        ? partPieces(request, provenance, target.message, target.part)
        : toolDescriptionPieces(request, provenance, target.tool);
  return pieces.find((piece) => piece.start <= offset && offset < piece.end)?.source;
}

/** The edits made in one target, in order. */
export function editsIn(provenance: Provenance, target: EditTarget): RequestEdit[] {
  return (provenance.edits ?? [])
    .filter((edit) => sameTarget(edit.target, target))
    .sort((a, b) => a.start - b.start || a.end - b.end);
}

function sameTarget(a: EditTarget, b: EditTarget): boolean {
  if (a.in === 'system' || b.in === 'system') return a.in === b.in;
  if (a.in === 'tool' || b.in === 'tool') return a.in === 'tool' && b.in === 'tool' && a.tool === b.tool;
  return a.message === b.message && a.part === b.part;
}

function piecesIn(start: number, end: number, source: Source | undefined, edits: readonly RequestEdit[]): TextPiece[] {
  const pieces: TextPiece[] = [];
  let cursor = start;
  for (const edit of edits) {
    // Clipped to what is left, so even inconsistent edits cannot make two pieces claim one character.
    const editStart = Math.max(edit.start, cursor);
    const editEnd = Math.min(edit.end, end);
    if (editEnd <= editStart) continue;
    if (editStart > cursor) pieces.push({ start: cursor, end: editStart, source });
    pieces.push({ start: editStart, end: editEnd, source: edit.by, edit });
    cursor = editEnd;
  }
  if (end > cursor) pieces.push({ start: cursor, end, source });
  return pieces;
}

function pushSeparator(pieces: TextPiece[], start: number, end: number): void {
  if (end > start) pieces.push({ start, end, source: undefined, separator: true });
}
