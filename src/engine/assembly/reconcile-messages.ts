import type { Part, TextPart } from '../../contracts/content.js';
import type { RequestEdit, RequestRemoval } from '../../contracts/provenance.js';
import type { Message } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';
import { diffSequences, type DiffRun } from '../util/text-diff.js';
import { canonicalJson, internKey, partKey, removal, type TextEdit } from './reconcile-shared.js';
import { reconcileWhole } from './reconcile-text.js';

// Messages: unchanged ones line up by a diff of the list, the rest pair up by role, and a pair is compared part by part.

/** The sources of `after`'s parts, message by message; what changed is appended to `edits` and `removed`. */
export function reconcileMessages(
  before: readonly Message[],
  after: readonly Message[],
  sources: readonly Source[][],
  earlier: ReadonlyMap<string, TextEdit[]>,
  by: Source,
  edits: RequestEdit[],
  removed: RequestRemoval[],
): Source[][] {
  const result: Source[][] = new Array(after.length);
  const carry = (from: number, to: number, parts: readonly (readonly [number, number])[]): void => {
    for (const [oldPart, newPart] of parts) {
      for (const edit of earlier.get(partKey(from, oldPart)) ?? [])
        edits.push({ target: { in: 'part', message: to, part: newPart }, ...edit });
    }
  };
  const keepMessage = (from: number, to: number): void => {
    const partSources = sources[from] ?? [];
    result[to] = (after[to] as Message).content.map((_, part) => partSources[part] ?? by);
    if (earlier.size > 0)
      carry(
        from,
        to,
        partSources.map((_, part) => [part, part] as const),
      );
  };
  const addMessage = (to: number): void => {
    result[to] = (after[to] as Message).content.map(() => by);
  };
  const removeMessage = (from: number): void => {
    const message = before[from] as Message;
    const source = sources[from]?.[0];
    // An empty message has no source to tell; nothing of it was in the view.
    if (source !== undefined) removed.push(removal('message', source, by, message.content.map(partText).join(' ')));
  };
  const pairMessages = (from: number, to: number): void => {
    const oldParts = (before[from] as Message).content;
    const newParts = (after[to] as Message).content;
    const partSources = sources[from] ?? [];
    const partIds = new Map<string, number>();
    const kept: [number, number][] = [];
    const target = new Array<Source>(newParts.length);
    walkMatches(
      diffSequences(
        Int32Array.from(oldParts, (part) => internKey(partIds, canonicalJson(part))),
        Int32Array.from(newParts, (part) => internKey(partIds, canonicalJson(part))),
      ),
      (oldPart, newPart) => {
        target[newPart] = partSources[oldPart] ?? by;
        kept.push([oldPart, newPart]);
      },
      (oldStart, oldEnd, newStart, newEnd) => {
        for (let offset = 0; offset < Math.max(oldEnd - oldStart, newEnd - newStart); offset++) {
          const oldPart = oldStart + offset < oldEnd ? oldStart + offset : undefined;
          const newPart = newStart + offset < newEnd ? newStart + offset : undefined;
          const oldValue = oldPart === undefined ? undefined : oldParts[oldPart];
          const newValue = newPart === undefined ? undefined : newParts[newPart];
          if (oldPart !== undefined && newPart !== undefined && isText(oldValue) && isText(newValue)) {
            const reconciled = reconcileWhole(
              oldValue.text,
              newValue.text,
              partSources[oldPart] ?? by,
              earlier.get(partKey(from, oldPart)) ?? [],
              by,
            );
            target[newPart] = reconciled.source;
            for (const edit of reconciled.edits)
              edits.push({ target: { in: 'part', message: to, part: newPart }, ...edit });
            continue;
          }
          if (newPart !== undefined) target[newPart] = by;
          if (oldPart !== undefined && oldValue !== undefined)
            removed.push(removal('part', partSources[oldPart] ?? by, by, partText(oldValue)));
        }
      },
    );
    result[to] = target;
    if (earlier.size > 0) carry(from, to, kept);
  };

  walkMatches(matchSequences(before, after), keepMessage, (oldStart, oldEnd, newStart, newEnd) => {
    // Within a gap, a changed message pairs with the new message most like it, in order; the rest were removed or added.
    const pairs = pairInGap(before.slice(oldStart, oldEnd), after.slice(newStart, newEnd));
    let from = 0;
    let to = 0;
    for (const [pairFrom, pairTo] of [...pairs, [oldEnd - oldStart, newEnd - newStart] as const]) {
      for (; from < pairFrom; from++) removeMessage(oldStart + from);
      for (; to < pairTo; to++) addMessage(newStart + to);
      if (pairFrom < oldEnd - oldStart) pairMessages(oldStart + from++, newStart + to++);
    }
  });
  return result;
}

// Beyond this many candidate pairs in one gap, pairing falls back to roles in order (a hook rewrote the history).
const MAX_GAP_CELLS = 10_000;

/**
 * Which old and new messages of a gap are one message changed: an order-keeping alignment of messages of the same
 * role that maximizes the text they share (common start and end), so a message inserted before an edited one is not
 * taken for it. Pairs that share nothing are not made unless roles alone must decide (a very large gap).
 */
function pairInGap(before: readonly Message[], after: readonly Message[]): (readonly [number, number])[] {
  const m = before.length;
  const n = after.length;
  if (m === 0 || n === 0) return [];
  if (m * n > MAX_GAP_CELLS) return pairByRole(before, after);
  const oldTexts = before.map(messageText);
  const newTexts = after.map(messageText);
  const score = (i: number, j: number): number =>
    before[i]?.role === after[j]?.role ? shared(oldTexts[i] as string, newTexts[j] as string) : 0;
  // best[i][j]: the most shared text aligning the first i old with the first j new messages.
  const best = Array.from({ length: m + 1 }, () => new Float64Array(n + 1));
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const row = best[i] as Float64Array;
      const up = best[i - 1] as Float64Array;
      const pair = score(i - 1, j - 1);
      row[j] = Math.max(up[j] as number, row[j - 1] as number, pair > 0 ? (up[j - 1] as number) + pair : 0);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = m, j = n; i > 0 && j > 0; ) {
    const here = (best[i] as Float64Array)[j] as number;
    if (here === ((best[i - 1] as Float64Array)[j] as number)) i--;
    else if (here === ((best[i] as Float64Array)[j - 1] as number)) j--;
    else {
      pairs.push([i - 1, j - 1]);
      i--;
      j--;
    }
  }
  return pairs.reverse();
}

function pairByRole(before: readonly Message[], after: readonly Message[]): (readonly [number, number])[] {
  const roleIds = (messages: readonly Message[]): Int32Array =>
    Int32Array.from(messages, (message) => (message.role === 'user' ? 0 : 1));
  const pairs: [number, number][] = [];
  walkMatches(
    diffSequences(roleIds(before), roleIds(after)),
    (from, to) => pairs.push([from, to]),
    () => undefined,
  );
  return pairs;
}

// Characters two texts share at their start and end (at most the shorter's length).
function shared(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  let prefix = 0;
  while (prefix < shorter && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && a.charCodeAt(a.length - 1 - suffix) === b.charCodeAt(b.length - 1 - suffix))
    suffix++;
  return prefix + suffix;
}

function messageText(message: Message): string {
  return message.content.map(partText).join('\n');
}

/**
 * How two message lists line up. Plain JSON is much faster than the canonical form, and a message it misses (keys
 * reordered) is paired by role and its parts, compared canonically, still match. Only the middle that differs is
 * interned for the diff: histories are long and hooks touch few messages.
 */
function matchSequences(before: readonly Message[], after: readonly Message[]): DiffRun[] {
  const oldKeys = before.map((message) => JSON.stringify(message));
  const newKeys = after.map((message) => JSON.stringify(message));
  const shorter = Math.min(oldKeys.length, newKeys.length);
  let prefix = 0;
  while (prefix < shorter && oldKeys[prefix] === newKeys[prefix]) prefix++;
  let suffix = 0;
  while (suffix < shorter - prefix && oldKeys[oldKeys.length - 1 - suffix] === newKeys[newKeys.length - 1 - suffix])
    suffix++;
  const ids = new Map<string, number>();
  const middle = (keys: string[]): Int32Array =>
    Int32Array.from(keys.slice(prefix, keys.length - suffix), (key) => internKey(ids, key));
  return [
    { op: 'equal', length: prefix },
    ...diffSequences(middle(oldKeys), middle(newKeys)),
    { op: 'equal', length: suffix },
  ];
}

/** Calls `match` for each pair of equal items and `gap` for each run of changes, in order. */
function walkMatches(
  runs: readonly DiffRun[],
  match: (from: number, to: number) => void,
  gap: (oldStart: number, oldEnd: number, newStart: number, newEnd: number) => void,
): void {
  let from = 0;
  let to = 0;
  let gapFrom = 0;
  let gapTo = 0;
  for (const run of runs) {
    if (run.op === 'delete') from += run.length;
    else if (run.op === 'insert') to += run.length;
    else {
      if (from > gapFrom || to > gapTo) gap(gapFrom, from, gapTo, to);
      for (let index = 0; index < run.length; index++) match(from + index, to + index);
      from = gapFrom = from + run.length;
      to = gapTo = to + run.length;
    }
  }
  if (from > gapFrom || to > gapTo) gap(gapFrom, from, gapTo, to);
}

function isText(part: Part | undefined): part is TextPart {
  return part !== undefined && 'text' in part && typeof part.text === 'string';
}

function partText(part: Part): string {
  return isText(part) ? part.text : JSON.stringify(part);
}
