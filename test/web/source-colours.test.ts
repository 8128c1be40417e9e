import { describe, expect, it } from 'vitest';
import type { SourceKind } from '../../src/contracts/source.js';
import { colourDifference } from './colour-difference.js';

// The page's own module (plain JavaScript, no types): its colour map is data, read as it is served.
const sources: { KIND_COLOURS: Record<string, string>; kindColour(kind: string): string } = await import(
  new URL('../../assets/web/sources.js', import.meta.url).href
);

// Every kind the contract names (the compiler checks this list against SourceKind), and the two the chart adds.
const KINDS: Record<SourceKind | 'framing' | 'other', true> = {
  'global-instruction': true,
  instruction: true,
  'static-instruction': true,
  'instruction-content': true,
  identity: true,
  transfer: true,
  tool: true,
  history: true,
  'other-agent': true,
  'other-session': true,
  summary: true,
  finalize: true,
  section: true,
  'skill-listing': true,
  skill: true,
  memory: true,
  page: true,
  custom: true,
  callback: true,
  framing: true,
  other: true,
};
const MIN_DIFFERENCE = 15;

describe('source kind colours', () => {
  it('give every kind a colour of its own', () => {
    expect(Object.keys(sources.KIND_COLOURS).sort()).toEqual(Object.keys(KINDS).sort());
    const colours = Object.keys(KINDS).map((kind) => sources.kindColour(kind));
    expect(new Set(colours).size).toBe(colours.length);
  });

  it('that no other kind shares: every two differ clearly (CIEDE2000, not just in their hex)', () => {
    const close: string[] = [];
    const kinds = Object.keys(KINDS);
    kinds.forEach((one, at) => {
      for (const two of kinds.slice(at + 1)) {
        const difference = colourDifference(sources.kindColour(one), sources.kindColour(two));
        if (difference < MIN_DIFFERENCE)
          close.push(`${one} ${sources.kindColour(one)} ~ ${two} ${sources.kindColour(two)}: ${difference.toFixed(1)}`);
      }
    });
    expect(close).toEqual([]);
  });

  it('keeps the hook colour for callback, which style.css uses for what a hook wrote', () => {
    expect(sources.kindColour('callback')).toBe('#c2185b');
    expect(sources.kindColour('a-kind-nobody-knows')).toBe(sources.KIND_COLOURS['other']);
  });
});
