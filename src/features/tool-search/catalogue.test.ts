import { describe, expect, it } from 'vitest';
import type { TokenCounter } from '../../contracts/tokens.js';
import { loadTokenCounter } from '../../engine/tokens/token-counter.js';
import { buildCatalogue, firstLine } from './catalogue.js';

// One token per word: the budgets below are easy to check by hand.
const words: TokenCounter = {
  encoding: 'words',
  count: (text) => text.split(/\s+/).filter((word) => word !== '').length,
};
const TOOLS = [
  { name: 'c_tool', description: 'Third tool here.\nMore text.' },
  { name: 'a_tool', description: 'First tool here.' },
  { name: 'b_tool', description: 'Second tool here.' },
  { name: 'd_tool', description: '' },
];

describe('the catalogue', () => {
  it('lists every tool with its first line, sorted by name, when they fit', () => {
    const catalogue = buildCatalogue(TOOLS, 100, words);
    expect(catalogue.text).toBe(
      '- a_tool: First tool here.\n- b_tool: Second tool here.\n- c_tool: Third tool here.\n- d_tool',
    );
    expect(catalogue).toMatchObject({ described: 4, named: 0, omitted: 0, tokens: 17 });
  });

  it('past the budget, lists the first tools with a line and names the rest', () => {
    // Every line: 17 words; two lines and the names of the other two: 5 + 5 + 3.
    const catalogue = buildCatalogue(TOOLS, 13, words);
    expect(catalogue.text).toBe('- a_tool: First tool here.\n- b_tool: Second tool here.\nAlso: c_tool, d_tool');
    expect(catalogue).toMatchObject({ described: 2, named: 2, omitted: 0, tokens: 13 });
    expect(buildCatalogue(TOOLS, 5, words).text).toBe('Also: a_tool, b_tool, c_tool, d_tool');
  });

  it('when not even the names fit, names as many as fit and says how many more there are', () => {
    const ten = Array.from({ length: 10 }, (_, index) => ({ name: `t${index}`, description: 'A tool.' }));
    // "Also: t0" is 2 words, "and 9 more — search to find them." 8.
    const catalogue = buildCatalogue(ten, 10, words);
    expect(catalogue.text).toBe('Also: t0\nand 9 more — search to find them.');
    expect(catalogue).toMatchObject({ described: 0, named: 1, omitted: 9, tokens: 10 });
    expect(buildCatalogue(ten, 11, words).text).toBe('Also: t0, t1, t2, t3, t4, t5, t6, t7, t8, t9');
    expect(buildCatalogue(TOOLS, 1, words).text).toBe('and 4 more — search to find them.');
  });

  it('is the same text whatever order the tools come in', () => {
    expect(buildCatalogue([...TOOLS].reverse(), 13, words)).toEqual(buildCatalogue(TOOLS, 13, words));
  });

  it('keeps a long first line to its first sentence, or cuts it at a word', () => {
    expect(
      firstLine(
        '\n  Creates a pull request. Then it does many other things that take a very long time to describe in full, far more than fits on one line of it.',
      ),
    ).toBe('Creates a pull request.');
    const long = `${'word '.repeat(40)}end`;
    expect(firstLine(long)).toBe(`${'word '.repeat(24).trim()}…`);
    expect(firstLine('Short.\nSecond line.')).toBe('Short.');
  });

  it('fits 150 tools in the default 1,000 tokens of the real tokenizer', async () => {
    const counter = await loadTokenCounter();
    const many = Array.from({ length: 150 }, (_, index) => ({
      name: `tool_number_${String(index).padStart(3, '0')}`,
      description: `Does the thing number ${index} for a repository, a channel or an issue.`,
    }));
    const catalogue = buildCatalogue(many, 1000, counter);
    expect(catalogue.tokens).toBeLessThanOrEqual(1000);
    expect(catalogue.described).toBeGreaterThan(0);
    expect(catalogue.described + catalogue.named + catalogue.omitted).toBe(150);
    expect(catalogue.text).toContain('- tool_number_000: Does the thing number 0');
  });
});
