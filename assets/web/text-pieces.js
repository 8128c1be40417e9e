// A text drawn as its pieces (src/web/text-piece-views.ts): its own text with substitutions marked, text a hook wrote
// highlighted and naming the hook, deletions as markers, separators and text without a source grey. Markers and badges
// are CSS-generated content, so an element's textContent stays exactly the text that was sent.
import { el, markedText } from './dom.js';
import { editTitle, hookName } from './sources.js';

/** The nodes of a text's pieces (an own piece carries its text's source, whose substitution ranges are relative to that text). */
export function pieceNodes(pieces) {
  return pieces.map((piece) => {
    switch (piece.role) {
      case 'edit':
        return el('mark', {
          class: 'edit',
          title: editTitle(piece),
          dataset: { by: hookName(piece.source), offset: piece.offset },
          text: piece.text,
        });
      case 'deletion':
        return el('del', {
          class: 'deletion',
          title: editTitle(piece),
          dataset: { by: hookName(piece.source), offset: piece.offset },
        });
      case 'separator':
        return el('span', {
          class: 'separator unsourced',
          title: 'separator between system blocks (no source)',
          text: piece.text,
        });
      default:
        if (!piece.source)
          return el('span', { class: 'unsourced', title: 'no source lines up with this text', text: piece.text });
        return markedText(piece.text, substitutionMarks(piece.source, piece.offset, piece.text.length));
    }
  });
}

/** A line under a piece's head saying which hooks wrote or deleted text in it, when any did. */
export function editNote(pieces) {
  const edits = pieces.filter((piece) => piece.role === 'edit' || piece.role === 'deletion');
  if (edits.length === 0) return '';
  const hooks = [...new Set(edits.map((piece) => hookName(piece.source)))];
  const written = edits.filter((piece) => piece.role === 'edit').length;
  const deleted = edits.length - written;
  const what = [
    written ? `${written} passage${written === 1 ? '' : 's'} written` : '',
    deleted ? `${deleted} deletion${deleted === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  return el(
    'p',
    { class: 'edit-note' },
    `✎ ${what} by ${hooks.join(', ')}, marked in the text (hover for what was there before).`,
  );
}

/** Substitutions of a source (relative to its text) that fall inside a piece at `offset`, relative to the piece. */
export function substitutionMarks(source, offset = 0, length = Infinity) {
  return (source?.substitutions ?? [])
    .map((sub) => ({
      start: Math.max(sub.start, offset) - offset,
      end: Math.min(sub.end, offset + length) - offset,
      title: sub.kind === 'state' ? `state ${sub.key} (${sub.scope})` : `artifact ${sub.name}`,
    }))
    .filter((mark) => mark.end > mark.start);
}
