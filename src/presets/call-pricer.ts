import { costOfCall } from '../analysis/cost/call-cost.js';
import { DEFAULT_PRICES } from '../analysis/cost/default-prices.js';
import type { PriceTable } from '../analysis/cost/price-table.js';
import type { CallPricer } from '../engine/telemetry/genai-attributes.js';

/** Prices calls under `table` (the built-in one when absent): what a span's `agentctx.cost.usd` says. */
export function tableCallPricer(table: PriceTable = DEFAULT_PRICES): CallPricer {
  return (model, usage) => costOfCall(model, usage, table).usd?.total;
}

/** The pricer `createRunner` and the servers' trace routes use when given none: the built-in price table. */
export const defaultCallPricer: CallPricer = tableCallPricer();
