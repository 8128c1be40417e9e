import type { Source, SourceSubstitution } from '../../contracts/source.js';
import { diffText } from '../util/text-diff.js';
import type { TextEdit } from './reconcile-shared.js';
import { firstHunkEndingAfter, hunksOf, mapPosition, overlappingHunk, type Hunk } from './text-hunks.js';

// Text: the system text, a text part, a tool description.

type Block = { start: number; end: number; source: Source };
/** A text's blocks (one covering it all for a part or description) and the edits earlier hooks made in it. */
type TextLayout = { blocks: readonly Block[]; edits: readonly TextEdit[] };
type ReconciledText = { blocks: Block[]; edits: TextEdit[]; removed: Block[] };

/**
 * Re-maps blocks, substitutions and earlier edits of `before` onto `after` through a character diff, and records
 * what changed as edits of the block that owns it. With `whole`, the text is one block that always survives.
 */
export function reconcileText(
  before: string,
  after: string,
  layout: TextLayout,
  by: Source,
  whole: boolean,
): ReconciledText {
  if (before === after)
    return {
      blocks: layout.blocks.map((block) => ({ ...block })),
      edits: layout.edits.map((edit) => ({ ...edit })),
      removed: [],
    };
  const hunks = hunksOf(diffText(before, after, { semantic: true }));
  const map = (position: number, side: 'left' | 'right'): number => mapPosition(hunks, position, side);
  const blocks = layout.blocks;
  const blockAt = blockFinder(blocks);

  // Inserted text joins the block on its left, else the one on its right (it follows a separator or opens the
  // text), else it is a block of its own.
  const neighbours = hunks.map((hunk) => ({
    left: whole ? 0 : hunk.os > 0 ? blockAt(hunk.os - 1) : undefined,
    right: whole ? 0 : hunk.oe < before.length ? blockAt(hunk.oe) : undefined,
  }));

  const placed: (Block | undefined)[] = blocks.map((block) => {
    if (whole) return { start: 0, end: after.length, source: block.source };
    if (block.start === block.end) {
      const at = map(block.start, 'left');
      return { start: at, end: at, source: block.source };
    }
    const start = map(block.start, 'right');
    const end = map(block.end, 'left');
    // A block keeps a character exactly when its mapped range is not empty.
    return end > start ? { start, end, source: block.source } : undefined;
  });
  const added: Block[] = [];
  const edits: TextEdit[] = [];
  hunks.forEach((hunk, index) => {
    const { left, right } = neighbours[index] as { left: number | undefined; right: number | undefined };
    const owner = left ?? right;
    const owned = owner === undefined ? undefined : placed[owner];
    if (owned !== undefined) {
      owned.start = Math.min(owned.start, hunk.ns);
      owned.end = Math.max(owned.end, hunk.ne);
    } else if (hunk.ne > hunk.ns) added.push({ start: hunk.ns, end: hunk.ne, source: by });
    edits.push(...hunkEdits(before, hunk, left, right, blocks, by));
  });
  if (!whole) clampEmptyBlocks(placed, blocks);

  const removed: Block[] = [];
  const kept: Block[] = [];
  blocks.forEach((block, index) => {
    const place = placed[index];
    if (place === undefined) removed.push(block);
    else kept.push({ ...place, source: remapSubstitutions(place.source, block.start, place, hunks) });
  });

  for (const edit of layout.edits) edits.push(...carryEdit(edit, hunks, blocks, placed, whole));
  return {
    blocks: [...kept, ...added].sort((a, b) => a.start - b.start || a.end - b.end),
    edits: edits.sort((a, b) => a.start - b.start || a.end - b.end),
    removed,
  };
}

/** The edits one hunk makes: one in its owner (the text written, and what it replaced), deletions in the others. */
function hunkEdits(
  before: string,
  hunk: Hunk,
  left: number | undefined,
  right: number | undefined,
  blocks: readonly Block[],
  by: Source,
): TextEdit[] {
  const inserted = hunk.ne > hunk.ns;
  if (left !== undefined && left === right) return [textEdit(hunk.ns, hunk.ne, by, before.slice(hunk.os, hunk.oe))];
  const leftEnd = left === undefined ? hunk.os : Math.min(hunk.oe, (blocks[left] as Block).end);
  const rightStart = right === undefined ? hunk.oe : Math.max(hunk.os, (blocks[right] as Block).start);
  const edits: TextEdit[] = [];
  if (left !== undefined) {
    // What the other surviving block lost is its own deletion, so every edit stays inside one block.
    if (inserted) edits.push(textEdit(hunk.ns, hunk.ne, by, before.slice(hunk.os, rightStart)));
    else if (leftEnd > hunk.os) edits.push(textEdit(hunk.ns, hunk.ns, by, before.slice(hunk.os, leftEnd)));
    if (right !== undefined && rightStart < hunk.oe)
      edits.push(textEdit(hunk.ne, hunk.ne, by, before.slice(rightStart, hunk.oe)));
  } else if (right !== undefined) {
    if (inserted) edits.push(textEdit(hunk.ns, hunk.ne, by, before.slice(hunk.os, hunk.oe)));
    else if (rightStart < hunk.oe) edits.push(textEdit(hunk.ns, hunk.ns, by, before.slice(rightStart, hunk.oe)));
  }
  return edits;
}

/**
 * An earlier hook's edit in the new text: the characters of it that survive (split around what this hook rewrote,
 * which is now this hook's), or, for a deletion mark, its new place inside its block while that block survives.
 */
function carryEdit(
  edit: TextEdit,
  hunks: readonly Hunk[],
  blocks: readonly Block[],
  placed: readonly (Block | undefined)[],
  whole: boolean,
): TextEdit[] {
  if (edit.start === edit.end) {
    const inside = overlappingHunk(hunks, edit.start, edit.start);
    const at = inside === undefined ? mapPosition(hunks, edit.start, 'left') : inside.ns;
    const blockIndex = whole
      ? 0
      : blocks.findIndex(
          (block, index) => block.start <= edit.start && edit.start <= block.end && placed[index] !== undefined,
        );
    const block = placed[blockIndex];
    if (block === undefined) return [];
    const position = Math.min(Math.max(at, block.start), block.end);
    return [{ ...edit, start: position, end: position }];
  }
  const pieces: [number, number][] = [];
  let cursor = edit.start;
  for (let index = firstHunkEndingAfter(hunks, edit.start); index < hunks.length; index++) {
    const hunk = hunks[index] as Hunk;
    if (hunk.os >= edit.end) break;
    if (hunk.os > cursor) pieces.push([cursor, hunk.os]);
    cursor = Math.max(cursor, hunk.oe);
  }
  if (cursor < edit.end) pieces.push([cursor, edit.end]);
  return pieces.map(([start, end], index) => {
    const piece: TextEdit = {
      start: mapPosition(hunks, start, 'right'),
      end: mapPosition(hunks, end, 'left'),
      by: edit.by,
    };
    // The replaced text is told once, on the first piece that is left.
    if (index === 0 && edit.replaced !== undefined) piece.replaced = edit.replaced;
    return piece;
  });
}

/** Substitutions move with their block; one this hook wrote into no longer shows the inserted value, so it goes. */
function remapSubstitutions(source: Source, oldStart: number, place: Block, hunks: readonly Hunk[]): Source {
  const substitutions = source.substitutions;
  if (substitutions === undefined || substitutions.length === 0 || hunks.length === 0) return source;
  let changed = false;
  const kept: SourceSubstitution[] = [];
  for (const substitution of substitutions) {
    const start = oldStart + substitution.start;
    const end = oldStart + substitution.end;
    if (overlappingHunk(hunks, start, end) !== undefined) {
      changed = true;
      continue;
    }
    const clamp = (position: number): number => Math.min(Math.max(position, place.start), place.end) - place.start;
    const newStart = clamp(mapPosition(hunks, start, start === end ? 'left' : 'right'));
    const newEnd = start === end ? newStart : clamp(mapPosition(hunks, end, 'left'));
    if (newStart !== substitution.start || newEnd !== substitution.end) changed = true;
    kept.push({ ...substitution, start: newStart, end: newEnd });
  }
  if (!changed) return source;
  if (kept.length > 0) return { ...source, substitutions: kept };
  const copy = { ...source };
  delete copy.substitutions;
  return copy;
}

/** Empty blocks own no text; they stay between their neighbours so the blocks remain in order. */
function clampEmptyBlocks(placed: (Block | undefined)[], blocks: readonly Block[]): void {
  const nextStart: number[] = new Array(placed.length);
  let next = Number.POSITIVE_INFINITY;
  for (let index = placed.length - 1; index >= 0; index--) {
    nextStart[index] = next;
    const place = placed[index];
    if (place !== undefined && (blocks[index] as Block).start !== (blocks[index] as Block).end) next = place.start;
  }
  let previousEnd = 0;
  placed.forEach((place, index) => {
    if (place === undefined) return;
    if ((blocks[index] as Block).start === (blocks[index] as Block).end) {
      place.start = place.end = Math.min(Math.max(place.start, previousEnd), nextStart[index] as number);
    }
    previousEnd = place.end;
  });
}

/** The index of the non-empty block holding character `offset`. */
function blockFinder(blocks: readonly Block[]): (offset: number) => number | undefined {
  const filled = blocks.flatMap((block, index) => (block.end > block.start ? [index] : []));
  return (offset) => {
    let low = 0;
    let high = filled.length - 1;
    let found: number | undefined;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const index = filled[middle] as number;
      if ((blocks[index] as Block).start <= offset) {
        found = index;
        low = middle + 1;
      } else high = middle - 1;
    }
    return found !== undefined && offset < (blocks[found] as Block).end ? found : undefined;
  };
}

function textEdit(start: number, end: number, by: Source, replaced: string): TextEdit {
  return replaced === '' ? { start, end, by } : { start, end, by, replaced };
}

/** A part's text or a tool's description, as one block whose source may carry substitutions. */
export function reconcileWhole(
  before: string,
  after: string,
  source: Source,
  edits: readonly TextEdit[],
  by: Source,
): { source: Source; edits: TextEdit[] } {
  const result = reconcileText(before, after, { blocks: [{ start: 0, end: before.length, source }], edits }, by, true);
  return { source: (result.blocks[0] as Block).source, edits: result.edits };
}
