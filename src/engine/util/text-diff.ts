/** One step of an edit script: keep, remove or add this many items (characters for `diffText`). */
export type DiffOp = 'equal' | 'delete' | 'insert';
export type DiffRun = { op: DiffOp; length: number };
export type DiffSegment = { op: DiffOp; text: string };

export type DiffOptions = {
  /** Edit distance above which the changed middle becomes one deletion and one insertion (default 1000). */
  maxEdits?: number;
  /**
   * Fold short equalities that sit between larger changes into them, so a rewrite reads as one replacement
   * instead of a scatter of edits around characters that happen to coincide ('Ada' → 'REDACTED' keeps no 'A').
   */
  semantic?: boolean;
};

const DEFAULT_MAX_EDITS = 1000;
// Following snakes can cost up to N+M per diagonal; capping the total keeps a large rewrite in the milliseconds.
const WORK_LIMIT = 10_000_000;

/**
 * An edit script turning `a` into `b`: common prefix and suffix trimmed, Myers O(ND) on the rest. Within a run of
 * changes the deletion comes before the insertion; adjacent segments never share an op and none is empty. Works on
 * code points, so no segment splits a surrogate pair.
 */
export function diffText(a: string, b: string, options: DiffOptions = {}): DiffSegment[] {
  if (a === b) return a === '' ? [] : [{ op: 'equal', text: a }];
  let prefix = 0;
  const shorter = Math.min(a.length, b.length);
  while (prefix < shorter && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  if (prefix > 0 && isHighSurrogate(a.charCodeAt(prefix - 1))) prefix--;
  let suffix = 0;
  while (suffix < shorter - prefix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix))
    suffix++;
  if (suffix > 0 && isLowSurrogate(a.charCodeAt(a.length - suffix))) suffix--;

  const middleA = codePoints(a, prefix, a.length - suffix);
  const middleB = codePoints(b, prefix, b.length - suffix);
  const runs = diffSequences(middleA.points, middleB.points, options.maxEdits);
  const segments: DiffSegment[] = [];
  pushSegment(segments, 'equal', a.slice(0, prefix));
  let inA = 0;
  let inB = 0;
  for (const run of runs) {
    if (run.op === 'insert') {
      pushSegment(segments, 'insert', sliceCodePoints(b, middleB.offsets, inB, inB + run.length));
      inB += run.length;
    } else {
      pushSegment(segments, run.op, sliceCodePoints(a, middleA.offsets, inA, inA + run.length));
      inA += run.length;
      if (run.op === 'equal') inB += run.length;
    }
  }
  pushSegment(segments, 'equal', a.slice(a.length - suffix));
  return options.semantic === true ? slideToBoundaries(mergeShortEqualities(segments)) : segments;
}

/**
 * An edit script turning sequence `a` into `b` (items compared with ===), in runs. Beyond `maxEdits` edits (or the
 * work limit) the differing middle is reported as one deletion and one insertion: still correct, only coarser.
 */
export function diffSequences(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  maxEdits: number = DEFAULT_MAX_EDITS,
): DiffRun[] {
  let start = 0;
  const shorter = Math.min(a.length, b.length);
  while (start < shorter && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const runs: DiffRun[] = [];
  pushRun(runs, 'equal', start);
  const middle = myers(a, start, endA - start, b, start, endB - start, maxEdits) ?? [
    { op: 'delete', length: endA - start },
    { op: 'insert', length: endB - start },
  ];
  for (const run of middle) pushRun(runs, run.op, run.length);
  pushRun(runs, 'equal', a.length - endA);
  return deletionsFirst(runs);
}

/** Myers' greedy forward search, keeping each round's frontier to walk the path back; undefined past the limits. */
function myers(
  a: ArrayLike<number>,
  aOff: number,
  n: number,
  b: ArrayLike<number>,
  bOff: number,
  m: number,
  maxEdits: number,
): DiffRun[] | undefined {
  if (n === 0 || m === 0)
    return [
      { op: 'delete', length: n },
      { op: 'insert', length: m },
    ];
  const maxD = Math.min(n + m, Math.max(0, maxEdits));
  if (Math.abs(n - m) > maxD) return undefined;
  const offset = maxD + 1;
  const frontier = new Int32Array(2 * maxD + 3);
  const trace: Int32Array[] = [];
  let work = 0;
  for (let d = 0; d <= maxD; d++) {
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (frontier[offset + k - 1] as number) < (frontier[offset + k + 1] as number));
      let x = down ? (frontier[offset + k + 1] as number) : (frontier[offset + k - 1] as number) + 1;
      let y = x - k;
      const from = x;
      while (x < n && y < m && a[aOff + x] === b[bOff + y]) {
        x++;
        y++;
      }
      work += 1 + x - from;
      frontier[offset + k] = x;
      if (x >= n && y >= m) {
        trace.push(frontier.slice(offset - d, offset + d + 1));
        return backtrack(trace, n, m);
      }
    }
    trace.push(frontier.slice(offset - d, offset + d + 1));
    if (work > WORK_LIMIT) return undefined;
  }
  return undefined;
}

function backtrack(trace: Int32Array[], n: number, m: number): DiffRun[] {
  const reversed: DiffRun[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const previous = trace[d - 1] as Int32Array;
    const at = (k: number): number => previous[k + d - 1] as number;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = at(previousK);
    const afterMoveX = down ? previousX : previousX + 1;
    if (x > afterMoveX) reversed.push({ op: 'equal', length: x - afterMoveX });
    reversed.push({ op: down ? 'insert' : 'delete', length: 1 });
    x = previousX;
    y = previousX - previousK;
  }
  if (x > 0) reversed.push({ op: 'equal', length: x });
  const runs: DiffRun[] = [];
  for (let index = reversed.length - 1; index >= 0; index--) {
    const run = reversed[index] as DiffRun;
    pushRun(runs, run.op, run.length);
  }
  return runs;
}

/** Reorders each run of changes as one deletion then one insertion (valid: both sides of a change are contiguous). */
function deletionsFirst(runs: DiffRun[]): DiffRun[] {
  const result: DiffRun[] = [];
  let deleted = 0;
  let inserted = 0;
  for (const run of runs) {
    if (run.op === 'delete') deleted += run.length;
    else if (run.op === 'insert') inserted += run.length;
    else {
      pushRun(result, 'delete', deleted);
      pushRun(result, 'insert', inserted);
      deleted = inserted = 0;
      pushRun(result, 'equal', run.length);
    }
  }
  pushRun(result, 'delete', deleted);
  pushRun(result, 'insert', inserted);
  return result;
}

type Change = { deleted: string; inserted: string };

/**
 * Folds an equality into the changes around it when it is no longer than the larger side of each (the rule of
 * diff-match-patch's semantic cleanup), repeatedly, since a merged change can swallow its next neighbour too.
 */
export function mergeShortEqualities(segments: readonly DiffSegment[]): DiffSegment[] {
  const stack: (string | Change)[] = [];
  for (const segment of segments) {
    const top = stack[stack.length - 1];
    if (segment.op === 'equal') {
      stack.push(segment.text);
      continue;
    }
    const change: Change = top !== undefined && typeof top !== 'string' ? top : { deleted: '', inserted: '' };
    if (change !== top) stack.push(change);
    if (segment.op === 'delete') change.deleted += segment.text;
    else change.inserted += segment.text;
    while (stack.length >= 3) {
      const right = stack[stack.length - 1];
      const equal = stack[stack.length - 2];
      const left = stack[stack.length - 3];
      if (
        right === undefined ||
        typeof right === 'string' ||
        typeof equal !== 'string' ||
        left === undefined ||
        typeof left === 'string'
      )
        break;
      const size = equal.length;
      if (
        size > Math.max(left.deleted.length, left.inserted.length) ||
        size > Math.max(right.deleted.length, right.inserted.length)
      )
        break;
      stack.length -= 3;
      stack.push({ deleted: left.deleted + equal + right.deleted, inserted: left.inserted + equal + right.inserted });
    }
  }
  const result: DiffSegment[] = [];
  for (const item of stack) {
    if (typeof item === 'string') pushSegment(result, 'equal', item);
    else {
      pushSegment(result, 'delete', item.deleted);
      pushSegment(result, 'insert', item.inserted);
    }
  }
  return result;
}

/**
 * Moves each lone insertion or deletion (between two equalities) along the text it is ambiguous over, to where it
 * starts and ends on the most natural boundaries (end of text, blank line, line break, sentence, space): appending
 * "\n\nMore." to "Done." is then the insertion of "\n\nMore." at the end, not ".\n\nMore" before the last dot.
 */
export function slideToBoundaries(segments: readonly DiffSegment[]): DiffSegment[] {
  const result = segments.map((segment) => ({ ...segment }));
  for (let index = 1; index < result.length - 1; index++) {
    const left = result[index - 1] as DiffSegment;
    const change = result[index] as DiffSegment;
    const right = result[index + 1] as DiffSegment;
    if (left.op !== 'equal' || right.op !== 'equal' || change.op === 'equal') continue;
    let before = left.text;
    let text = change.text;
    let after = right.text;
    // Slide as far left as the text allows, then try every position rightwards.
    while (before !== '' && before.at(-1) === text.at(-1) && !isSurrogate(before.charCodeAt(before.length - 1))) {
      text = before.slice(-1) + text.slice(0, -1);
      after = before.slice(-1) + after;
      before = before.slice(0, -1);
    }
    let best = { before, text, after, score: boundaryScore(before, text) + boundaryScore(text, after) };
    while (after !== '' && after[0] === text[0] && !isSurrogate(after.charCodeAt(0))) {
      before += text[0] as string;
      text = text.slice(1) + after[0];
      after = after.slice(1);
      const score = boundaryScore(before, text) + boundaryScore(text, after);
      if (score >= best.score) best = { before, text, after, score };
    }
    left.text = best.before;
    change.text = best.text;
    right.text = best.after;
  }
  return result.filter((segment) => segment.text !== '');
}

// How natural a cut between two texts is: higher for the end of the text, a blank line, a line break, a sentence end, a space.
function boundaryScore(one: string, two: string): number {
  if (one === '' || two === '') return 6;
  const last = one.at(-1) as string;
  const first = two[0] as string;
  if (/\n\r?\n$/.test(one) || /^\r?\n\r?\n/.test(two)) return 5;
  if (last === '\n' || first === '\n') return 4;
  if (/[.!?]/.test(last) && /\s/.test(first)) return 3;
  if (/\s/.test(last) || /\s/.test(first)) return 2;
  if (!/[\p{L}\p{N}]/u.test(last) || !/[\p{L}\p{N}]/u.test(first)) return 1;
  return 0;
}

function isSurrogate(code: number): boolean {
  return isHighSurrogate(code) || isLowSurrogate(code);
}

function pushRun(runs: DiffRun[], op: DiffOp, length: number): void {
  if (length === 0) return;
  const last = runs[runs.length - 1];
  if (last !== undefined && last.op === op) last.length += length;
  else runs.push({ op, length });
}

function pushSegment(segments: DiffSegment[], op: DiffOp, text: string): void {
  if (text === '') return;
  const last = segments[segments.length - 1];
  if (last !== undefined && last.op === op) last.text += text;
  else segments.push({ op, text });
}

/** The code points of `text[start, end)`, with the offset in `text` of each and of the end. */
function codePoints(text: string, start: number, end: number): { points: Int32Array; offsets: Int32Array } {
  const points = new Int32Array(end - start);
  const offsets = new Int32Array(end - start + 1);
  let count = 0;
  for (let index = start; index < end; count++) {
    offsets[count] = index;
    const point = text.codePointAt(index) as number;
    const pair = point > 0xffff && index + 1 < end;
    points[count] = pair ? point : text.charCodeAt(index);
    index += pair ? 2 : 1;
  }
  offsets[count] = end;
  return { points: points.subarray(0, count), offsets: offsets.subarray(0, count + 1) };
}

function sliceCodePoints(text: string, offsets: Int32Array, from: number, to: number): string {
  return text.slice(offsets[from] as number, offsets[to] as number);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
