/**
 * @module agentctx/cost
 * What calls cost and why: the stable prefix of a request (where prompt caching puts its marks), the price table
 * (assets/prices.json: every price with its source and date; yours merged over it), the bill of a call, an
 * invocation and a session, and the cache-miss explainer (where a call's prefix stopped matching its agent's
 * previous call, named by source, and the tokens that re-billed).
 */
export { stablePrefixOf } from './engine/assembly/stable-prefix.js';
export { explainCacheMiss, explainSessionCache, findPreviousCall } from './engine/cache/explain-cache.js';
export type { CacheCall, CacheCandidate } from './engine/cache/explain-cache.js';
export type { CacheCauseKind, CacheDifference, CacheExplanation, CacheLocation, CacheMissCause, CacheTokens, CallCacheEntry, SessionCacheReport, SessionCacheTotals } from './engine/cache/cache-types.js';

export { DEFAULT_PRICES } from './engine/cost/default-prices.js';
export { findPrice, mergePriceTables, parsePriceTable } from './engine/cost/price-table.js';
export type { ModelPrice, PriceTable, TokenPrices } from './engine/cost/price-table.js';
export { priceTableSchema } from './engine/cost/price-table-schema.js';
export { billedTokens, costOfCall } from './engine/cost/call-cost.js';
export type { BilledTokens, CallCost, UsdBreakdown } from './engine/cost/call-cost.js';
export { costOfCalls, sumCosts } from './engine/cost/session-cost.js';
export type { CallCostRow, CostReport, CostTotal } from './engine/cost/session-cost.js';
