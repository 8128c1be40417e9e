import type { PriceTable } from '../../src/analysis/cost/price-table.js';

/** The TypeScript module that carries assets/prices.json into the library (which reads no files). */
export function renderDefaultPrices(table: PriceTable): string {
  const { $schema: _schema, ...data } = table as PriceTable & { $schema?: string };
  return [
    '// Generated from assets/prices.json by `npm run prices:write`; edit that file, not this one.',
    "import type { PriceTable } from './price-table.js';",
    '',
    '/** The built-in prices: every entry names its source and the date the source gives. */',
    'export const DEFAULT_PRICES: PriceTable = {',
    `  currency: ${JSON.stringify(data.currency)},`,
    `  perTokens: ${data.perTokens},`,
    '  models: [',
    // One model per line: the table stays as readable as the JSON it comes from.
    ...data.models.map((model) => `    ${JSON.stringify(model)},`),
    '  ],',
    '};',
    '',
  ].join('\n');
}
