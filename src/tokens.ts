/**
 * @module agentctx/tokens
 * Token counts with the local tokenizer (o200k, loaded on first use), section by section, and a calibration against
 * what a provider billed.
 */
export { loadTokenCounter } from './engine/tokens/token-counter.js';
export type { TokenCounter } from './contracts/tokens.js';
export { countRequestTokens } from './engine/tokens/count-request-tokens.js';
export type { RequestTokenCount } from './engine/tokens/count-request-tokens.js';
