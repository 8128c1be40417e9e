import type { Parameters } from 'fast-check';

/**
 * Settings for property-based tests: a fixed seed and a few hundred runs in `npm test`, so CI is reproducible;
 * `npm run fuzz` (AGENTCTX_FUZZ=1) runs many more with fresh seeds and prints the seed of any failure.
 */
export function propertyRuns(numRuns = 300): Parameters<unknown> {
  return process.env['AGENTCTX_FUZZ'] === '1' ? { numRuns: numRuns * 100 } : { seed: 20261129, numRuns };
}
