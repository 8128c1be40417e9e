import { describe, expect, it } from 'vitest';
import type { SystemBlock } from '../../contracts/draft.js';
import { joinSystemBlocks } from './draft.js';

const source = { kind: 'custom' as const, processor: 'test', agent: 'a' };
const block = (text: string, placement?: 'start'): SystemBlock =>
  placement === undefined ? { text, source } : { text, source, placement };

describe('joinSystemBlocks', () => {
  it('joins by a blank line, an empty text so far replaced by the next block (ADK’s append_instructions)', () => {
    expect(joinSystemBlocks([block(''), block('A'), block(''), block('B')])).toEqual({
      text: 'A\n\n\n\nB',
      ranges: [
        { start: 0, end: 0 },
        { start: 0, end: 1 },
        { start: 3, end: 3 },
        { start: 5, end: 6 },
      ],
    });
  });

  it('puts blocks placed at the start in front, one by one, as plugins prepend in turn', () => {
    expect(joinSystemBlocks([block('Body.'), block('First.', 'start'), block('Second.', 'start')])).toEqual({
      text: 'Second.\n\nFirst.\n\nBody.',
      ranges: [
        { start: 17, end: 22 },
        { start: 9, end: 15 },
        { start: 0, end: 7 },
      ],
    });
  });

  it('makes a leading block the whole text when the rest is empty, with no separator (ADK sets it)', () => {
    expect(joinSystemBlocks([block(''), block('Global.', 'start')]).text).toBe('Global.');
    expect(joinSystemBlocks([block('Global.', 'start')])).toEqual({ text: 'Global.', ranges: [{ start: 0, end: 7 }] });
    expect(joinSystemBlocks([block('Body.'), block('', 'start')]).text).toBe('Body.');
  });
});
