import { describe, expect, it } from 'vitest';
import type { Provenance } from '../contracts/provenance.js';
import type { LlmRequest } from '../contracts/request.js';
import type { Source } from '../contracts/source.js';
import { reconcileProvenance } from '../engine/assembly/reconcile-provenance.js';
import { checkProvenanceFit } from './provenance-fit.js';
import { partPieceViews, systemBlockPieces, type TextPieceView } from './text-piece-views.js';

const hook: Source = { kind: 'callback', processor: 'beforeModel', agent: 'a', field: 'callbacks.beforeModel' };
const one: Source = { kind: 'instruction', processor: 'one', agent: 'a' };
const two: Source = { kind: 'memory', processor: 'two', agent: 'a' };

const before: LlmRequest = {
  system: 'Be kind and brief.\n\nThe user is Ada.',
  tools: [],
  messages: [{ role: 'user', content: [{ text: 'hello there, Ada' }] }],
  config: {},
};
const provenance: Provenance = {
  system: [
    { start: 0, end: 18, source: one },
    { start: 20, end: 36, source: two },
  ],
  tools: [],
  messages: [[{ kind: 'history', processor: 'contents', agent: 'a' }]],
};

function edited(edit: (request: LlmRequest) => void): { request: LlmRequest; provenance: Provenance } {
  const request = structuredClone(before);
  edit(request);
  return { request, provenance: reconcileProvenance(before, provenance, request, hook) };
}

const text = (blocks: ReturnType<typeof systemBlockPieces>) =>
  blocks.blocks.map((block) => block.separatorBefore + block.pieces.map((piece) => piece.text).join('')).join('') +
  blocks.separatorAfter;
const shape = (pieces: TextPieceView[]) =>
  pieces.map(
    (piece) => `${piece.role}:${piece.text}${piece.replaced === undefined ? '' : `<${piece.replaced}`}@${piece.offset}`,
  );

describe('text pieces for the page', () => {
  it('cover the system text exactly, with separators apart and offsets relative to each block', () => {
    const after = edited((request) => (request.system = request.system.replace('Ada', 'REDACTED')));
    const views = systemBlockPieces(after.request, after.provenance);
    expect(text(views)).toBe(after.request.system);
    expect(views.blocks.map((block) => block.separatorBefore)).toEqual(['', '\n\n']);
    expect(shape(views.blocks[1]!.pieces)).toEqual(['own:The user is @0', 'edit:REDACTED<Ada@12', 'own:.@20']);
  });

  it('place a deletion where it happened, splitting the text around it, without adding text', () => {
    const after = edited((request) => (request.system = request.system.replace(' and brief', '')));
    const views = systemBlockPieces(after.request, after.provenance);
    expect(text(views)).toBe(after.request.system);
    expect(shape(views.blocks[0]!.pieces)).toEqual(['own:Be kind@0', 'deletion:< and brief@7', 'own:.@7']);
  });

  it('mark edits in a text part', () => {
    const after = edited(
      (request) => ((request.messages[0]!.content[0] as { text: string }).text = 'hello there, REDACTED'),
    );
    expect(shape(partPieceViews(after.request, after.provenance, 0, 0))).toEqual([
      'own:hello there, @0',
      'edit:REDACTED<Ada@13',
    ]);
  });

  it('find a provenance that no longer lines up: stale ranges, text outside the blocks, counts that differ', () => {
    expect(checkProvenanceFit(before, provenance).notes).toEqual([]);
    const appended = { ...before, system: `${before.system} Always cite.` };
    expect(checkProvenanceFit(appended, provenance).system).toBe(false);
    expect(checkProvenanceFit({ ...before, system: 'short' }, provenance).system).toBe(false);
    expect(checkProvenanceFit({ ...before, messages: [] }, provenance)).toMatchObject({
      system: true,
      messages: false,
    });
    // Blank separators left before the first block, once a hook removed it, still line up.
    const removed = edited((request) => (request.system = request.system.slice(18)));
    expect(checkProvenanceFit(removed.request, removed.provenance).notes).toEqual([]);
  });
});
