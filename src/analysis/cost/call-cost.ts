import type { Usage } from '../../contracts/event.js';
import { findPrice, type ModelPrice, type PriceTable, type TokenPrices } from './price-table.js';

/** A call's tokens as billed: `input` is the prompt neither read from nor written to a cache. */
export type BilledTokens = {
  input: number;
  cacheRead: number;
  /** All cache writes; `cacheWrite1h` is the part that lives an hour. */
  cacheWrite: number;
  cacheWrite1h: number;
  output: number;
  /** Part of `output`. */
  reasoning: number;
  /** Explicit cache storage started by the call, in token-hours. */
  storageTokenHours: number;
};

/** What each kind of token cost, in USD. */
export type UsdBreakdown = {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  storage: number;
  total: number;
};

export type CallCost = {
  tokens: BilledTokens;
  /** Absent when the price is not known; `unpriced` says why. */
  usd?: UsdBreakdown;
  /** The price used: the table entry's model, source and date. */
  price?: { provider: string; model: string; source: string; date: string };
  unpriced?: string;
};

/** The usage's tokens as a bill counts them. Prompt counts include cached and written tokens in every adapter. */
export function billedTokens(usage: Usage | undefined): BilledTokens {
  const prompt = usage?.promptTokens ?? 0;
  const cacheRead = usage?.cachedTokens ?? 0;
  const cacheWrite = usage?.cacheWriteTokens ?? 0;
  return {
    input: Math.max(0, prompt - cacheRead - cacheWrite),
    cacheRead,
    cacheWrite,
    cacheWrite1h: Math.min(cacheWrite, usage?.cacheWrite1hTokens ?? 0),
    output: usage?.outputTokens ?? 0,
    reasoning: usage?.reasoningTokens ?? 0,
    storageTokenHours: usage?.cacheStorageTokenHours ?? 0,
  };
}

/**
 * What a call cost under `table`, from the usage its provider reported. No price is guessed: a model not in the
 * table, or a kind of token the call used whose price the entry lacks, leaves `usd` out and says which. Cache writes
 * of a model without a write price are billed as input (providers that do not charge extra for writes).
 */
export function costOfCall(
  called:
    | { provider: string; modelId: string; billedAs?: { provider: string; modelId: string } | undefined }
    | undefined,
  usage: Usage | undefined,
  table: PriceTable,
): CallCost {
  const tokens = billedTokens(usage);
  if (usage === undefined) return { tokens, unpriced: 'the call reported no usage' };
  if (called === undefined) return { tokens, unpriced: 'the call names no model' };
  // A model billed as another (a scripted one with simulated billing) is priced as that one.
  const model = called.billedAs ?? called;
  const entry = findPrice(table, model.provider, model.modelId);
  if (entry === undefined) return { tokens, unpriced: `no price known for ${model.provider}:${model.modelId}` };
  const price = { provider: entry.provider, model: entry.model, source: entry.source, date: entry.date };
  const prices = pricesFor(entry, usage.promptTokens ?? 0);
  const missing: string[] = [];
  const per = (field: keyof TokenPrices, count: number, fallback?: number): number => {
    if (count === 0) return 0;
    const value = prices[field] ?? fallback;
    if (value === undefined) {
      missing.push(field);
      return 0;
    }
    return (value * count) / table.perTokens;
  };
  const write5m = tokens.cacheWrite - tokens.cacheWrite1h;
  const usd = {
    input: per('input', tokens.input),
    cacheRead: per('cacheRead', tokens.cacheRead),
    cacheWrite: per('cacheWrite5m', write5m, prices.input) + per('cacheWrite1h', tokens.cacheWrite1h),
    output: per('output', tokens.output),
    storage: per('cacheStoragePerHour', tokens.storageTokenHours),
  };
  if (missing.length > 0)
    return { tokens, price, unpriced: `the price of ${entry.model} has no ${[...new Set(missing)].join(', ')}` };
  return {
    tokens,
    price,
    usd: { ...usd, total: usd.input + usd.cacheRead + usd.cacheWrite + usd.output + usd.storage },
  };
}

// A long prompt may be billed at the entry's higher tier, for every kind of token the tier prices.
function pricesFor(entry: ModelPrice, promptTokens: number): TokenPrices {
  const { above } = entry;
  return above !== undefined && promptTokens > above.inputTokens ? { ...entry, ...above } : entry;
}
