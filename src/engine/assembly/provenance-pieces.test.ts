import { describe, expect, it } from 'vitest';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';
import { editsIn, partPieces, sourceAt, systemPieces, textPieces, toolDescriptionPieces } from './provenance-pieces.js';

const a: Source = { kind: 'instruction', processor: 'a', agent: 'root' };
const b: Source = { kind: 'identity', processor: 'b', agent: 'root' };
const hook: Source = { kind: 'callback', processor: 'beforeModel', agent: 'root' };

const request: LlmRequest = {
  system: 'Alpha.\n\nBeta!!!',
  tools: [{ name: 'look', description: 'Look it up.' }],
  messages: [{ role: 'model', content: [{ text: 'Hello there' }, { functionCall: { name: 'look', args: { q: 1 } } }] }],
  config: {},
};
const provenance: Provenance = {
  system: [
    { start: 0, end: 6, source: a },
    { start: 8, end: 15, source: b },
  ],
  tools: [{ kind: 'tool', processor: 'tools', agent: 'root' }],
  messages: [
    [
      { kind: 'history', processor: 'contents', agent: 'root' },
      { kind: 'history', processor: 'contents', agent: 'root' },
    ],
  ],
  edits: [
    { target: { in: 'system' }, start: 12, end: 12, by: hook, replaced: 'x' },
    { target: { in: 'system' }, start: 13, end: 15, by: hook },
    { target: { in: 'tool', tool: 0 }, start: 0, end: 4, by: hook, replaced: 'Find' },
    { target: { in: 'part', message: 0, part: 0 }, start: 6, end: 11, by: hook },
  ],
};

describe('provenance pieces', () => {
  it('tiles the system text with block text, edits and separators, leaving out empty pieces', () => {
    expect(systemPieces(request, provenance)).toEqual([
      { start: 0, end: 6, source: a },
      { start: 6, end: 8, source: undefined, separator: true },
      { start: 8, end: 13, source: b },
      { start: 13, end: 15, source: hook, edit: provenance.edits?.[1] },
    ]);
  });

  it('treats text outside every block as separator', () => {
    const loose: Provenance = { system: [{ start: 2, end: 4, source: a }], tools: [], messages: [] };
    expect(
      systemPieces({ ...request, system: '--ab--' }, loose).map((piece) => [
        piece.start,
        piece.end,
        piece.separator ?? false,
      ]),
    ).toEqual([
      [0, 2, true],
      [2, 4, false],
      [4, 6, true],
    ]);
  });

  it('gives parts and tool descriptions their pieces', () => {
    expect(
      toolDescriptionPieces(request, provenance, 0).map((piece) => [piece.start, piece.end, piece.source]),
    ).toEqual([
      [0, 4, hook],
      [4, 11, provenance.tools[0]],
    ]);
    expect(partPieces(request, provenance, 0, 0).map((piece) => piece.source?.kind)).toEqual(['history', 'callback']);
    // A call's pieces cover its JSON form, the text findInRequest searches.
    expect(partPieces(request, provenance, 0, 1)).toEqual([{ start: 0, end: 30, source: provenance.messages[0]?.[1] }]);
    expect(partPieces(request, provenance, 3, 0)).toEqual([]);
    expect(textPieces('', a, [])).toEqual([]);
  });

  it('finds the one source of a character', () => {
    expect(sourceAt(request, provenance, { in: 'system' }, 0)).toBe(a);
    expect(sourceAt(request, provenance, { in: 'system' }, 7)).toBeUndefined();
    expect(sourceAt(request, provenance, { in: 'system' }, 14)).toBe(hook);
    expect(sourceAt(request, provenance, { in: 'system' }, 99)).toBeUndefined();
    expect(sourceAt(request, provenance, { in: 'part', message: 0, part: 0 }, 0)?.kind).toBe('history');
    expect(sourceAt(request, provenance, { in: 'tool', tool: 0 }, 2)).toBe(hook);
    expect(editsIn(provenance, { in: 'tool', tool: 0 })).toHaveLength(1);
  });
});
