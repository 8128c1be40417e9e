import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { NotFoundError } from '../contracts/errors/not-found-error.js';
import { ValidationError } from '../contracts/errors/validation-error.js';
import { DEFAULT_PRICES } from '../analysis/cost/default-prices.js';
import { mergePriceTables, parsePriceTable, type PriceTable } from '../analysis/cost/price-table.js';

/**
 * The built-in prices, with the entries of a user's price file (`--prices`, a JSON file in the form of
 * assets/prices.json) in place of the built-in ones for the same models.
 */
export async function loadPrices(file: string | undefined, cwd: string): Promise<PriceTable> {
  if (file === undefined) return DEFAULT_PRICES;
  const path = resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new NotFoundError({
      resource: 'price file',
      id: file,
      message: `The price file ${file} cannot be read.`,
      hint: 'Check the path given to --prices.',
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ValidationError({
      subject: `price file ${file}`,
      issues: [{ path: '', message: `not JSON: ${error instanceof Error ? error.message : String(error)}` }],
      hint: 'A price file is JSON; agentctx schema prices prints its schema.',
    });
  }
  return mergePriceTables(DEFAULT_PRICES, parsePriceTable(value, `price file ${file}`));
}
