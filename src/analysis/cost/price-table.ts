import { ValidationError, type ValidationIssue } from '../../contracts/errors/validation-error.js';

/** Prices of one kind of token, in USD per `perTokens` tokens. */
export type TokenPrices = {
  input?: number;
  output?: number;
  /** Input read from the prompt cache. */
  cacheRead?: number;
  /** Input written to a cache entry that lives 5 minutes (Anthropic), or written at all (OpenAI models that bill writes). */
  cacheWrite5m?: number;
  /** Input written to a cache entry that lives an hour (Anthropic). */
  cacheWrite1h?: number;
  /** Explicit cache storage, per `perTokens` tokens per hour (Gemini `cachedContents`). */
  cacheStoragePerHour?: number;
};

/** One model's prices, where they come from and when they were read. */
export type ModelPrice = TokenPrices & {
  provider: string;
  /** The API model id. */
  model: string;
  /** Other ids it covers; a trailing `*` matches any ending (`claude-sonnet-4-5-*`). */
  match?: string[];
  /** Prices for prompts longer than `inputTokens` (long-context tiers); fields left out keep the base price. */
  above?: TokenPrices & { inputTokens: number };
  /** The page the prices were read from. */
  source: string;
  /** The date the source gives for them (YYYY-MM-DD). */
  date: string;
  note?: string;
};

export type PriceTable = {
  currency: 'USD';
  /** The number of tokens each price is for (1,000,000). */
  perTokens: number;
  models: ModelPrice[];
};

const PRICE_FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite5m', 'cacheWrite1h', 'cacheStoragePerHour'] as const;
const MODEL_KEYS = new Set<string>(['provider', 'model', 'match', 'above', 'source', 'date', 'note', ...PRICE_FIELDS]);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A price table read from JSON (the form of `assets/prices.json`), checked field by field: every problem is named
 * with its path, so a user's own table fails with the line to fix rather than with a wrong bill.
 */
export function parsePriceTable(value: unknown, subject = 'price table'): PriceTable {
  const issues: ValidationIssue[] = [];
  if (!isRecord(value))
    throw new ValidationError({
      subject,
      issues: [{ path: '', message: 'expected an object with currency, perTokens and models' }],
    });
  if (value['currency'] !== 'USD') issues.push({ path: 'currency', message: 'must be "USD"' });
  const perTokens = value['perTokens'];
  if (typeof perTokens !== 'number' || !Number.isInteger(perTokens) || perTokens <= 0)
    issues.push({ path: 'perTokens', message: 'must be a positive whole number (1000000)' });
  const models = value['models'];
  if (!Array.isArray(models)) issues.push({ path: 'models', message: 'must be a list of model prices' });
  const seen = new Set<string>();
  (Array.isArray(models) ? models : []).forEach((entry: unknown, index) => {
    const path = `models[${index}]`;
    if (!isRecord(entry)) {
      issues.push({ path, message: 'expected an object' });
      return;
    }
    for (const key of Object.keys(entry))
      if (!MODEL_KEYS.has(key))
        issues.push({
          path: `${path}.${key}`,
          message: `unknown field; expected one of ${[...MODEL_KEYS].join(', ')}`,
        });
    for (const key of ['provider', 'model', 'source'] as const) {
      if (typeof entry[key] !== 'string' || entry[key] === '')
        issues.push({ path: `${path}.${key}`, message: 'must be a non-empty string' });
    }
    if (typeof entry['date'] !== 'string' || !DATE.test(entry['date']))
      issues.push({ path: `${path}.date`, message: 'must be a date, YYYY-MM-DD' });
    checkPrices(entry, path, issues);
    const match = entry['match'];
    if (
      match !== undefined &&
      (!Array.isArray(match) ||
        !match.every((pattern) => typeof pattern === 'string' && pattern !== '' && !pattern.slice(0, -1).includes('*')))
    ) {
      issues.push({ path: `${path}.match`, message: 'must be a list of model ids, each with at most a trailing *' });
    }
    const above = entry['above'];
    if (above !== undefined) {
      if (!isRecord(above) || typeof above['inputTokens'] !== 'number' || above['inputTokens'] <= 0)
        issues.push({ path: `${path}.above.inputTokens`, message: 'must be a positive number of prompt tokens' });
      else checkPrices(above, `${path}.above`, issues);
    }
    const id = `${String(entry['provider'])}:${String(entry['model'])}`;
    if (seen.has(id)) issues.push({ path: `${path}.model`, message: `${id} is listed twice` });
    seen.add(id);
  });
  if (issues.length > 0)
    throw new ValidationError({
      subject,
      issues,
      hint: 'Prices are USD per perTokens tokens; see assets/schema/prices.schema.json.',
    });
  return value as PriceTable;
}

function checkPrices(entry: Record<string, unknown>, path: string, issues: ValidationIssue[]): void {
  for (const field of PRICE_FIELDS) {
    const price = entry[field];
    if (price !== undefined && (typeof price !== 'number' || !Number.isFinite(price) || price < 0))
      issues.push({ path: `${path}.${field}`, message: 'must be a price: a number, 0 or more' });
  }
}

/** The table with `override`'s models in place of the base's of the same provider and model, and its new ones added. */
export function mergePriceTables(base: PriceTable, override: PriceTable): PriceTable {
  if (override.perTokens !== base.perTokens) {
    const factor = base.perTokens / override.perTokens;
    return mergePriceTables(base, {
      ...override,
      perTokens: base.perTokens,
      models: override.models.map((model) => rescale(model, factor)),
    });
  }
  const key = (model: ModelPrice) => `${model.provider}:${model.model}`;
  const replaced = new Set(override.models.map(key));
  return { ...base, models: [...override.models, ...base.models.filter((model) => !replaced.has(key(model)))] };
}

function rescale(model: ModelPrice, factor: number): ModelPrice {
  const scaled: ModelPrice = { ...model };
  for (const field of PRICE_FIELDS) if (model[field] !== undefined) scaled[field] = (model[field] as number) * factor;
  if (model.above !== undefined) {
    const above = { ...model.above };
    for (const field of PRICE_FIELDS)
      if (model.above[field] !== undefined) above[field] = (model.above[field] as number) * factor;
    scaled.above = above;
  }
  return scaled;
}

/**
 * The price of a model: its exact id first, then the longest `match` pattern that covers it. Provider names are
 * compared as the adapters report them (`openai-compatible` servers have no price). Undefined when none is known.
 */
export function findPrice(table: PriceTable, provider: string, modelId: string): ModelPrice | undefined {
  const candidates = table.models.filter((model) => model.provider === provider);
  const exact = candidates.find((model) => model.model === modelId);
  if (exact !== undefined) return exact;
  let best: { price: ModelPrice; length: number } | undefined;
  for (const price of candidates) {
    for (const pattern of price.match ?? []) {
      const matches = pattern.endsWith('*') ? modelId.startsWith(pattern.slice(0, -1)) : modelId === pattern;
      if (matches && (best === undefined || pattern.length > best.length)) best = { price, length: pattern.length };
    }
  }
  return best?.price;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
