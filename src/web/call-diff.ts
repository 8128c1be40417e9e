import type { Provenance } from '../contracts/provenance.js';
import type { LlmRequest } from '../contracts/request.js';
import type { Source } from '../contracts/source.js';
import { diffRequests, type RequestDiff } from '../engine/assembly/diff-requests.js';
import { trustedProvenance } from './provenance-fit.js';

/** What became of one block, tool or message from call a to call b. */
export type ItemStatus = 'identical' | 'changed' | 'added' | 'removed';

/** One row of a section's diff: positions on each side (absent where it has none), its source kind and size. */
export type DiffRow = {
  status: ItemStatus;
  a: number | null;
  b: number | null;
  label: string;
  kind: string;
  charsA: number | null;
  charsB: number | null;
};

/** Two calls compared block by block, on top of the field-level `diffRequests`. */
export type CallDiff = RequestDiff & {
  sections: { system: DiffRow[]; tools: DiffRow[]; messages: DiffRow[] };
  counts: Record<ItemStatus, number>;
};

type Item = { text: string; key: string; label: string; kind: string };

/**
 * Which system blocks, tools and messages of call b are byte-identical to one of call a (matched in order, so a block
 * that moved counts as removed and added), which changed (same place and origin, other bytes), which are new and
 * which are gone; plus the common prefix a provider's prompt cache could reuse.
 */
export function diffCalls(
  a: { request: LlmRequest; provenance: Provenance },
  b: { request: LlmRequest; provenance: Provenance },
): CallDiff {
  // Blocks are cut by the provenance only where it lines up with the request (never by an old recording's stale ranges).
  const [left, right] = [trustedProvenance(a.request, a.provenance), trustedProvenance(b.request, b.provenance)];
  const sections = {
    system: diffSection(systemItems(a.request, left), systemItems(b.request, right)),
    tools: diffSection(toolItems(a.request, left), toolItems(b.request, right)),
    messages: diffSection(messageItems(a.request, left), messageItems(b.request, right)),
  };
  const counts: Record<ItemStatus, number> = { identical: 0, changed: 0, added: 0, removed: 0 };
  for (const row of [...sections.system, ...sections.tools, ...sections.messages]) counts[row.status]++;
  return { ...diffRequests(a.request, b.request), sections, counts };
}

function systemItems(request: LlmRequest, provenance: Provenance): Item[] {
  if (provenance.system.length === 0)
    return request.system === '' ? [] : [{ text: request.system, key: 'system', label: 'system', kind: 'other' }];
  return provenance.system.map((block, index) => ({
    text: request.system.slice(block.start, block.end),
    key: `${block.source.kind}\u0000${block.source.processor}\u0000${block.source.field ?? ''}`,
    label: `system block ${index + 1}: ${describe(block.source)}`,
    kind: block.source.kind,
  }));
}

function toolItems(request: LlmRequest, provenance: Provenance): Item[] {
  return request.tools.map((tool, index) => ({
    text: JSON.stringify(tool),
    key: tool.name,
    label: `tools[${index}] ${tool.name}`,
    kind: provenance.tools[index]?.kind ?? 'other',
  }));
}

function messageItems(request: LlmRequest, provenance: Provenance): Item[] {
  return request.messages.map((message, index) => ({
    text: JSON.stringify(message),
    key: message.role,
    label: `messages[${index}] ${message.role}`,
    kind: provenance.messages[index]?.[0]?.kind ?? 'other',
  }));
}

function describe(source: Source): string {
  return source.field === undefined
    ? `${source.kind} (${source.agent})`
    : `${source.kind} · ${source.field} (${source.agent})`;
}

/**
 * Matches identical items in order (longest common subsequence), then pairs what is left between two matches: an
 * item of b with an unmatched item of a of the same key in that gap has changed; the rest were added or removed.
 */
function diffSection(a: Item[], b: Item[]): DiffRow[] {
  const pairs = commonSubsequence(
    a.map((item) => item.text),
    b.map((item) => item.text),
  );
  const rows: DiffRow[] = [];
  let nextA = 0;
  let nextB = 0;
  for (const [matchA, matchB] of [...pairs, [a.length, b.length] as const]) {
    rows.push(...pairGap(a, b, nextA, matchA, nextB, matchB));
    if (matchA < a.length && matchB < b.length) {
      const item = b[matchB] as Item;
      rows.push({
        status: 'identical',
        a: matchA,
        b: matchB,
        label: item.label,
        kind: item.kind,
        charsA: item.text.length,
        charsB: item.text.length,
      });
    }
    nextA = matchA + 1;
    nextB = matchB + 1;
  }
  return rows;
}

function pairGap(a: Item[], b: Item[], fromA: number, toA: number, fromB: number, toB: number): DiffRow[] {
  const rows: DiffRow[] = [];
  const unusedA = new Set<number>();
  for (let index = fromA; index < toA; index++) unusedA.add(index);
  for (let index = fromB; index < toB; index++) {
    const item = b[index] as Item;
    const partner = [...unusedA].find((candidate) => a[candidate]?.key === item.key);
    if (partner === undefined) {
      rows.push({
        status: 'added',
        a: null,
        b: index,
        label: item.label,
        kind: item.kind,
        charsA: null,
        charsB: item.text.length,
      });
    } else {
      unusedA.delete(partner);
      rows.push({
        status: 'changed',
        a: partner,
        b: index,
        label: item.label,
        kind: item.kind,
        charsA: (a[partner] as Item).text.length,
        charsB: item.text.length,
      });
    }
  }
  for (const index of unusedA) {
    const item = a[index] as Item;
    rows.push({
      status: 'removed',
      a: index,
      b: null,
      label: item.label,
      kind: item.kind,
      charsA: item.text.length,
      charsB: null,
    });
  }
  return rows;
}

/** Index pairs of a longest common subsequence of two lists of strings (equal strings match). */
function commonSubsequence(a: string[], b: string[]): [number, number][] {
  // Trim the shared head and tail first: consecutive calls of one session mostly differ in a few items.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const pairs: [number, number][] = [];
  for (let index = 0; index < head; index++) pairs.push([index, index]);
  // Past a few million cells the middle is left unmatched (shown as changed, added or removed) rather than compared.
  if (midA.length * midB.length <= MAX_CELLS)
    pairs.push(...middlePairs(midA, midB).map(([i, j]): [number, number] => [head + i, head + j]));
  for (let index = 0; index < tail; index++) pairs.push([a.length - tail + index, b.length - tail + index]);
  return pairs;
}

const MAX_CELLS = 4_000_000;

function middlePairs(midA: string[], midB: string[]): [number, number][] {
  const cols = midB.length + 1;
  const lengths = new Uint32Array((midA.length + 1) * cols);
  for (let i = midA.length - 1; i >= 0; i--) {
    for (let j = midB.length - 1; j >= 0; j--) {
      lengths[i * cols + j] =
        midA[i] === midB[j]
          ? (lengths[(i + 1) * cols + j + 1] as number) + 1
          : Math.max(lengths[(i + 1) * cols + j] as number, lengths[i * cols + j + 1] as number);
    }
  }
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < midA.length && j < midB.length) {
    if (midA[i] === midB[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if ((lengths[(i + 1) * cols + j] as number) >= (lengths[i * cols + j + 1] as number)) i++;
    else j++;
  }
  return pairs;
}
