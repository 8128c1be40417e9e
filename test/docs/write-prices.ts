// Writes src/analysis/cost/default-prices.ts from assets/prices.json (the price table as data, with a source and a
// date per model), after checking it. Run: npm run prices:write
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parsePriceTable } from '../../src/analysis/cost/price-table.js';
import { renderDefaultPrices } from './render-default-prices.js';

const root = new URL('../..', import.meta.url).pathname;
const table = parsePriceTable(
  JSON.parse(readFileSync(join(root, 'assets', 'prices.json'), 'utf8')),
  'assets/prices.json',
);
writeFileSync(join(root, 'src', 'analysis', 'cost', 'default-prices.ts'), renderDefaultPrices(table));
console.log(`wrote src/analysis/cost/default-prices.ts (${table.models.length} models)`);
