import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { propertyRuns } from '../../../test/support/property-runs.js';
import { diffSequences, diffText, mergeShortEqualities, slideToBoundaries, type DiffSegment } from './text-diff.js';

const runs = propertyRuns();

function sides(script: readonly DiffSegment[]): { a: string; b: string } {
  let a = '';
  let b = '';
  for (const segment of script) {
    if (segment.op !== 'insert') a += segment.text;
    if (segment.op !== 'delete') b += segment.text;
  }
  return { a, b };
}

function wellFormed(script: readonly DiffSegment[]): void {
  script.forEach((segment, index) => {
    expect(segment.text).not.toBe('');
    const next = script[index + 1];
    if (next !== undefined) {
      expect(next.op).not.toBe(segment.op);
      // Within a change the deletion comes first.
      expect(segment.op === 'insert' && next.op === 'delete').toBe(false);
    }
  });
}

function editCount(script: readonly DiffSegment[]): number {
  return script.filter((segment) => segment.op !== 'equal').reduce((sum, segment) => sum + [...segment.text].length, 0);
}

describe('diffText', () => {
  it('returns one equality for equal texts and nothing for two empty ones', () => {
    expect(diffText('abc', 'abc')).toEqual([{ op: 'equal', text: 'abc' }]);
    expect(diffText('', '')).toEqual([]);
  });

  it('finds an insertion, a deletion and a replacement', () => {
    expect(diffText('hello world', 'hello brave world')).toEqual([
      { op: 'equal', text: 'hello ' },
      { op: 'insert', text: 'brave ' },
      { op: 'equal', text: 'world' },
    ]);
    expect(diffText('abcdef', 'abef')).toEqual([
      { op: 'equal', text: 'ab' },
      { op: 'delete', text: 'cd' },
      { op: 'equal', text: 'ef' },
    ]);
    expect(diffText('Hi Ada!', 'Hi Bob!')).toEqual([
      { op: 'equal', text: 'Hi ' },
      { op: 'delete', text: 'Ada' },
      { op: 'insert', text: 'Bob' },
      { op: 'equal', text: '!' },
    ]);
  });

  it('is minimal in the middle (Myers)', () => {
    expect(editCount(diffText('abcabba', 'cbabac'))).toBe(5);
    expect(editCount(diffText('kitten sitting', 'sitting kitten'))).toBeLessThanOrEqual(14);
  });

  it('folds a coincidental shared character into the replacement when semantic', () => {
    const raw = diffText('Hello Ada.', 'Hello REDACTED.');
    expect(raw.filter((segment) => segment.op === 'equal').length).toBeGreaterThan(2);
    expect(diffText('Hello Ada.', 'Hello REDACTED.', { semantic: true })).toEqual([
      { op: 'equal', text: 'Hello ' },
      { op: 'delete', text: 'Ada' },
      { op: 'insert', text: 'REDACTED' },
      { op: 'equal', text: '.' },
    ]);
  });

  it('never splits a surrogate pair', () => {
    const script = diffText('a😀b', 'a😃b');
    expect(script).toEqual([
      { op: 'equal', text: 'a' },
      { op: 'delete', text: '😀' },
      { op: 'insert', text: '😃' },
      { op: 'equal', text: 'b' },
    ]);
  });

  it('falls back to one deletion and one insertion past maxEdits', () => {
    expect(diffText('xaaaay', 'xbbbby', { maxEdits: 3 })).toEqual([
      { op: 'equal', text: 'x' },
      { op: 'delete', text: 'aaaa' },
      { op: 'insert', text: 'bbbb' },
      { op: 'equal', text: 'y' },
    ]);
    expect(diffText('xabcy', 'xabdy', { maxEdits: 3 })).toEqual([
      { op: 'equal', text: 'xab' },
      { op: 'delete', text: 'c' },
      { op: 'insert', text: 'd' },
      { op: 'equal', text: 'y' },
    ]);
  });

  it('finds a small replacement in a 100 KB text as one hunk between two equal runs', () => {
    // Speed is bench:assembly's business (its reconcile line diffs a 150 KB request); the shape shows the common
    // prefix and suffix were trimmed rather than diffed.
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(2300);
    const changed = text.slice(0, 50_000) + 'XYZ' + text.slice(50_003);
    const script: DiffSegment[] = diffText(text, changed, { semantic: true });
    expect(sides(script)).toEqual({ a: text, b: changed });
    expect(script.length).toBe(4);
  });

  it('stays bounded on a large rewrite', () => {
    const letters = (seed: number): string =>
      Array.from({ length: 100_000 }, (_, index) =>
        String.fromCharCode(97 + ((index * seed + (index >> 3)) % 26)),
      ).join('');
    const a = letters(7);
    const b = letters(11);
    const script = diffText(a, b);
    expect(sides(script)).toEqual({ a, b });
    // Past the edit bound the diff gives up on minimality: what was common, then one deletion and one insertion.
    expect(script.map((segment) => segment.op)).toEqual(['equal', 'delete', 'insert']);
  });

  it('applying the script to a gives b (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '\n', '😀', 'é'), maxLength: 40 });
    fc.assert(
      fc.property(text, text, fc.boolean(), fc.integer({ min: 0, max: 30 }), (a, b, semantic, maxEdits) => {
        const script = diffText(a, b, { semantic, maxEdits });
        wellFormed(script);
        expect(sides(script)).toEqual({ a, b });
        for (const segment of script)
          expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(segment.text)).toBe(
            false,
          );
      }),
      runs,
    );
  });

  it('edits texts derived from each other at most as much as the edits made (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 60 });
    fc.assert(
      fc.property(text, fc.nat(), fc.nat(), text, (a, at, length, inserted) => {
        const start = at % (a.length + 1);
        const end = Math.min(a.length, start + (length % 5));
        const b = a.slice(0, start) + inserted + a.slice(end);
        const script = diffText(a, b);
        expect(sides(script)).toEqual({ a, b });
        expect(editCount(script)).toBeLessThanOrEqual(end - start + inserted.length);
      }),
      runs,
    );
  });
});

describe('diffSequences', () => {
  it('diffs number sequences in runs', () => {
    expect(diffSequences([1, 2, 3, 4], [1, 3, 4, 5])).toEqual([
      { op: 'equal', length: 1 },
      { op: 'delete', length: 1 },
      { op: 'equal', length: 2 },
      { op: 'insert', length: 1 },
    ]);
  });
});

describe('mergeShortEqualities', () => {
  it('keeps long equalities', () => {
    const script: DiffSegment[] = [
      { op: 'delete', text: 'a' },
      { op: 'equal', text: 'long shared text' },
      { op: 'insert', text: 'b' },
    ];
    expect(mergeShortEqualities(script)).toEqual(script);
  });
});

describe('slideToBoundaries', () => {
  it('puts an ambiguous insertion where it starts and ends on natural boundaries', () => {
    const a = 'You help Ada.\n\nYou are "x".';
    const b = 'You help REDACTED.\n\nYou are "x".\n\nAppended line.';
    const script = diffText(a, b, { semantic: true });
    expect(script.at(-1)).toEqual({ op: 'insert', text: '\n\nAppended line.' });
    expect(
      script
        .filter((segment) => segment.op !== 'delete')
        .map((segment) => segment.text)
        .join(''),
    ).toBe(b);
  });

  it('leaves a change alone when nothing is ambiguous, and keeps surrogate pairs whole', () => {
    expect(
      slideToBoundaries([
        { op: 'equal', text: 'ab' },
        { op: 'insert', text: 'X' },
        { op: 'equal', text: 'cd' },
      ]),
    ).toEqual([
      { op: 'equal', text: 'ab' },
      { op: 'insert', text: 'X' },
      { op: 'equal', text: 'cd' },
    ]);
    const emoji = diffText('a😀b', 'a😀😀b', { semantic: true });
    for (const segment of emoji) expect(segment.text).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
  });

  it('never changes what the script produces', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const script = diffText(a, b, { semantic: true });
        expect(
          script
            .filter((segment) => segment.op !== 'insert')
            .map((segment) => segment.text)
            .join(''),
        ).toBe(a);
        expect(
          script
            .filter((segment) => segment.op !== 'delete')
            .map((segment) => segment.text)
            .join(''),
        ).toBe(b);
      }),
      propertyRuns(300),
    );
  });
});
