import type { DiffSegment } from '../util/text-diff.js';

// Hunks of a character diff, and how positions of the old text map through them into the new one.

/** One run of changes: `before[os, oe)` became `after[ns, ne)`. */
export type Hunk = { os: number; oe: number; ns: number; ne: number };

export function hunksOf(script: readonly DiffSegment[]): Hunk[] {
  const hunks: Hunk[] = [];
  let inBefore = 0;
  let inAfter = 0;
  let open: Hunk | undefined;
  for (const segment of script) {
    if (segment.op === 'equal') {
      open = undefined;
      inBefore += segment.text.length;
      inAfter += segment.text.length;
      continue;
    }
    if (open === undefined) {
      open = { os: inBefore, oe: inBefore, ns: inAfter, ne: inAfter };
      hunks.push(open);
    }
    if (segment.op === 'delete') open.oe = inBefore += segment.text.length;
    else open.ne = inAfter += segment.text.length;
  }
  return hunks;
}

/**
 * Where a boundary of `before` lands in `after`. A boundary at or inside a hunk lands before the hunk's new text
 * (`left`: it ends a range) or after it (`right`: it starts one), so a range never takes in text it does not own.
 */
export function mapPosition(hunks: readonly Hunk[], position: number, side: 'left' | 'right'): number {
  let low = 0;
  let high = hunks.length - 1;
  let found: Hunk | undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const hunk = hunks[middle] as Hunk;
    if (hunk.os <= position) {
      found = hunk;
      low = middle + 1;
    } else high = middle - 1;
  }
  if (found === undefined) return position;
  if (position <= found.oe) return side === 'left' ? found.ns : found.ne;
  return found.ne + (position - found.oe);
}

export function firstHunkEndingAfter(hunks: readonly Hunk[], position: number): number {
  let low = 0;
  let high = hunks.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((hunks[middle] as Hunk).oe > position) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The hunk that deletes part of `[start, end)` or inserts strictly inside it (for an empty range: deletes around it). */
export function overlappingHunk(hunks: readonly Hunk[], start: number, end: number): Hunk | undefined {
  const hunk = hunks[firstHunkEndingAfter(hunks, start)];
  return hunk !== undefined && hunk.os < end ? hunk : undefined;
}
