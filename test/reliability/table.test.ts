import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { GUARANTEES, guaranteeOf } from './guarantees.js';
import { AREAS, ENTRY_POINTS, testName, type RowGroup } from './rows.js';
import { loadRowGroups, renderTable, TABLE_PATH } from './table.js';

// The table cannot drift: it is generated from the rows the tests run, and this test compares it with the page.
describe('docs/reliability.md', () => {
  let groups: RowGroup[] = [];

  it('is generated from the rows the tests declare (npm run reliability:table)', async () => {
    groups = await loadRowGroups();
    const committed = await readFile(new URL(`../../${TABLE_PATH}`, import.meta.url), 'utf8').catch(() => '');
    expect(committed, `${TABLE_PATH} is out of date: run \`npm run reliability:table\` and commit the result`).toBe(
      renderTable(groups),
    );
  });

  it('has more than 70 rows, every one distinct and complete, and every part of the issue covered', () => {
    const rows = groups.flatMap((group) => group.rows);
    expect(rows.length).toBeGreaterThan(70);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    expect(new Set(rows.map(testName)).size).toBe(rows.length);
    for (const row of rows) {
      expect(row.id, row.id).toMatch(/^[a-z0-9]+(?:[.-][a-z0-9]+)*$/);
      for (const field of [row.entry, row.tried, row.expected]) expect(field.trim(), row.id).not.toBe('');
    }
    for (const area of Object.keys(AREAS))
      expect(
        groups.some((group) => group.area === area && group.rows.length > 0),
        area,
      ).toBe(true);
    const badInput = groups.filter((group) => group.area === 'bad-input').flatMap((group) => group.rows);
    for (const entry of ENTRY_POINTS)
      expect(badInput.filter((row) => row.entry === entry).length, entry).toBeGreaterThanOrEqual(2);
  });

  it('puts every row under a guarantee, and every guarantee has rows and limits', () => {
    const rows = groups.flatMap((group) => group.rows);
    expect(rows.filter((row) => guaranteeOf(row) === undefined).map((row) => row.id)).toEqual([]);
    for (const guarantee of GUARANTEES) {
      expect(rows.filter((row) => guaranteeOf(row) === guarantee).length, guarantee.title).toBeGreaterThanOrEqual(2);
      expect(guarantee.limits.length, guarantee.title).toBeGreaterThan(0);
    }
  });
});
