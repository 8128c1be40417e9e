/**
 * @module agentctx/cost
 * What calls cost and why: the stable prefix of a request (where prompt caching puts its marks), the price table
 * (assets/prices.json: every price with its source and date; yours merged over it), the bill of a call, an
 * invocation and a session, and the cache-miss explainer (where a call's prefix stopped matching its agent's
 * previous call, named by source, and the tokens that re-billed).
 */
export { stablePrefixOf } from './engine/assembly/stable-prefix.js';
export type { CacheTokens } from './analysis/cache/cache-types.js';

export { DEFAULT_PRICES } from './analysis/cost/default-prices.js';
export { findPrice, mergePriceTables, parsePriceTable } from './analysis/cost/price-table.js';
export type { ModelPrice, PriceTable, TokenPrices } from './analysis/cost/price-table.js';
export { costOfCall } from './analysis/cost/call-cost.js';
export type { BilledTokens, CallCost, UsdBreakdown } from './analysis/cost/call-cost.js';
export { costOfCalls, sumCosts } from './analysis/cost/session-cost.js';
export type { CallCostRow, CostReport, CostTotal } from './analysis/cost/session-cost.js';
