import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { priceTableSchema } from '../../src/analysis/cost/price-table-schema.js';
import { parsePriceTable } from '../../src/analysis/cost/price-table.js';
import { renderDefaultPrices } from './render-default-prices.js';

const root = new URL('../..', import.meta.url).pathname;
const read = (path: string) => readFileSync(join(root, path), 'utf8');

describe('the built-in price table', () => {
  it('is assets/prices.json, checked, with a source and a date on every model (npm run prices:write)', () => {
    const table = parsePriceTable(JSON.parse(read('assets/prices.json')));
    expect(read('src/analysis/cost/default-prices.ts')).toBe(renderDefaultPrices(table));
    for (const model of table.models) {
      expect(model.source).toMatch(/^https:\/\//);
      expect(model.input, `${model.model} input`).toBeGreaterThan(0);
      expect(model.output, `${model.model} output`).toBeGreaterThan(0);
    }
    for (const provider of ['anthropic', 'openai', 'google'])
      expect(
        table.models.some((model) => model.provider === provider),
        provider,
      ).toBe(true);
  });

  it('ships the schema the table names', () => {
    expect(JSON.parse(read('assets/schema/prices.schema.json'))).toEqual(priceTableSchema());
  });
});
