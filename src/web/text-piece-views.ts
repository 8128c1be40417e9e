import type { Provenance, RequestEdit } from '../contracts/provenance.js';
import type { LlmRequest } from '../contracts/request.js';
import type { Source } from '../contracts/source.js';
import {
  editsIn,
  partPieces,
  systemPieces,
  toolDescriptionPieces,
  type TextPiece,
} from '../engine/assembly/provenance-pieces.js';

/**
 * A run of a text as the page draws it: the text's own (`own`, with the text's source), text a hook wrote (`edit`,
 * source the hook), a place where a hook deleted text (`deletion`: no text of its own, what it deleted in `replaced`),
 * or a separator assembly put between system blocks (no source). `offset` is where it starts in its block or text.
 */
export type TextPieceView = {
  role: 'own' | 'edit' | 'deletion' | 'separator';
  offset: number;
  text: string;
  source: Source | undefined;
  replaced?: string;
};

/** One system block's pieces and the separator text before it; both cover the system text exactly, in order. */
export type SystemBlockPieces = {
  start: number;
  end: number;
  source: Source;
  separatorBefore: string;
  pieces: TextPieceView[];
};

/** The system text cut into its blocks' pieces (for a provenance that fits: see `checkProvenanceFit`). */
export function systemBlockPieces(
  request: LlmRequest,
  provenance: Provenance,
): { blocks: SystemBlockPieces[]; separatorAfter: string } {
  const pieces = systemPieces(request, provenance);
  // Each deletion goes to the first block whose range holds its place (a place between two blocks belongs to both).
  let deletions = editsIn(provenance, { in: 'system' }).filter((edit) => edit.start === edit.end);
  const separators = (from: number, to: number) =>
    pieces
      .filter((piece) => piece.separator === true && piece.start >= from && piece.end <= to)
      .map((piece) => request.system.slice(piece.start, piece.end))
      .join('');
  let cursor = 0;
  const blocks = provenance.system.map((block): SystemBlockPieces => {
    const own = pieces.filter(
      (piece) => piece.separator !== true && piece.start >= block.start && piece.end <= block.end,
    );
    const inBlock = deletions.filter((edit) => edit.start >= block.start && edit.start <= block.end);
    deletions = deletions.filter((edit) => !inBlock.includes(edit));
    const view = {
      start: block.start,
      end: block.end,
      source: block.source,
      separatorBefore: separators(cursor, block.start),
      pieces: pieceViews(request.system, own, inBlock, block.start),
    };
    cursor = block.end;
    return view;
  });
  return { blocks, separatorAfter: separators(cursor, request.system.length) };
}

/** A text part's pieces; other parts are never edited and keep their one source. */
export function partPieceViews(
  request: LlmRequest,
  provenance: Provenance,
  message: number,
  part: number,
): TextPieceView[] {
  const value = request.messages[message]?.content[part];
  if (value === undefined || !('text' in value)) return [];
  const deletions = editsIn(provenance, { in: 'part', message, part }).filter((edit) => edit.start === edit.end);
  return pieceViews(value.text, partPieces(request, provenance, message, part), deletions, 0);
}

/** A tool description's pieces. */
export function toolPieceViews(request: LlmRequest, provenance: Provenance, tool: number): TextPieceView[] {
  const deletions = editsIn(provenance, { in: 'tool', tool }).filter((edit) => edit.start === edit.end);
  return pieceViews(
    request.tools[tool]?.description ?? '',
    toolDescriptionPieces(request, provenance, tool),
    deletions,
    0,
  );
}

/** Pieces as views relative to `base`, with the (empty) deletions placed where they happened, splitting a piece if need be. */
function pieceViews(
  text: string,
  pieces: readonly TextPiece[],
  deletions: readonly RequestEdit[],
  base: number,
): TextPieceView[] {
  const views: TextPieceView[] = [];
  let next = 0;
  for (const piece of pieces) {
    const role = piece.separator === true ? 'separator' : piece.edit === undefined ? 'own' : 'edit';
    let from = piece.start;
    for (let edit = deletions[next]; edit !== undefined && edit.start < piece.end; edit = deletions[++next]) {
      const at = Math.max(edit.start, from);
      if (at > from) views.push(pieceView(role, text, from, at, base, piece));
      views.push(deletionView(edit, at - base));
      from = at;
    }
    if (piece.end > from) views.push(pieceView(role, text, from, piece.end, base, piece));
  }
  for (const edit of deletions.slice(next)) views.push(deletionView(edit, edit.start - base));
  return views;
}

function deletionView(edit: RequestEdit, offset: number): TextPieceView {
  return {
    role: 'deletion',
    offset,
    text: '',
    source: edit.by,
    ...(edit.replaced === undefined ? {} : { replaced: edit.replaced }),
  };
}

function pieceView(
  role: TextPieceView['role'],
  text: string,
  start: number,
  end: number,
  base: number,
  piece: TextPiece,
): TextPieceView {
  const view: TextPieceView = { role, offset: start - base, text: text.slice(start, end), source: piece.source };
  if (piece.edit?.replaced !== undefined) view.replaced = piece.edit.replaced;
  return view;
}
