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
      for (const edit of earlier.get(partKey(from, oldPart)) ?? []) edits.push({ target: { in: 'part', message: to, part: newPart }, ...edit });
    }
  };
  const keepMessage = (from: number, to: number): void => {
    const partSources = sources[from] ?? [];
    result[to] = (after[to] as Message).content.map((_, part) => partSources[part] ?? by);
    if (earlier.size > 0) carry(from, to, partSources.map((_, part) => [part, part] as const));
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
            const reconciled = reconcileWhole(oldValue.text, newValue.text, partSources[oldPart] ?? by, earlier.get(partKey(from, oldPart)) ?? [], by);
            target[newPart] = reconciled.source;
            for (const edit of reconciled.edits) edits.push({ target: { in: 'part', message: to, part: newPart }, ...edit });
            continue;
          }
          if (newPart !== undefined) target[newPart] = by;
          if (oldPart !== undefined && oldValue !== undefined) removed.push(removal('part', partSources[oldPart] ?? by, by, partText(oldValue)));
        }
      },
    );
    result[to] = target;
    if (earlier.size > 0) carry(from, to, kept);
  };

  walkMatches(matchSequences(before, after), keepMessage, (oldStart, oldEnd, newStart, newEnd) => {
    // Within a gap, messages of the same role pair up in order (a longest common subsequence of roles).
    const roleIds = (messages: readonly Message[], start: number, end: number): Int32Array =>
      Int32Array.from(messages.slice(start, end), (message) => (message.role === 'user' ? 0 : 1));
    walkMatches(
      diffSequences(roleIds(before, oldStart, oldEnd), roleIds(after, newStart, newEnd)),
      (from, to) => pairMessages(oldStart + from, newStart + to),
      (gapOldStart, gapOldEnd, gapNewStart, gapNewEnd) => {
        for (let from = gapOldStart; from < gapOldEnd; from++) removeMessage(oldStart + from);
        for (let to = gapNewStart; to < gapNewEnd; to++) addMessage(newStart + to);
      },
    );
  });
  return result;
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
  while (suffix < shorter - prefix && oldKeys[oldKeys.length - 1 - suffix] === newKeys[newKeys.length - 1 - suffix]) suffix++;
  const ids = new Map<string, number>();
  const middle = (keys: string[]): Int32Array => Int32Array.from(keys.slice(prefix, keys.length - suffix), (key) => internKey(ids, key));
  return [{ op: 'equal', length: prefix }, ...diffSequences(middle(oldKeys), middle(newKeys)), { op: 'equal', length: suffix }];
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
