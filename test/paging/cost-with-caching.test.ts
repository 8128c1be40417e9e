import { describe, expect, it } from 'vitest';
import { floorUsd, priceAnalyst } from '../../bench/cost-scenarios.js';
import { generateReports } from '../../examples/report-analyst/reports.js';

// What bench:cost measures, held as properties: under Anthropic's caching rules, with agentctx's default breakpoints,
// paging in the history beats paging in the system text, which beats the naive history; and the naive history with
// breakpoints beats the same history sent without any (what a framework that marks nothing pays).
describe('the report analyst with prompt caching (Anthropic rules, simulated)', () => {
  it('orders the placements by cost, and keeps paging within 2× the floor', async () => {
    const reports = generateReports();
    const [naive, system, history, unmarked] = await Promise.all([
      priceAnalyst('naive', reports, { provider: 'anthropic' }),
      priceAnalyst('paged-system', reports, { provider: 'anthropic' }),
      priceAnalyst('paged', reports, { provider: 'anthropic' }),
      priceAnalyst('naive', reports, { provider: 'anthropic', anthropic: false }),
    ]);
    const usd = (run: typeof naive) => run.total.usd ?? Number.NaN;
    expect(usd(history)).toBeLessThan(usd(system));
    expect(usd(system)).toBeLessThan(usd(naive));
    expect(usd(naive) / usd(history)).toBeGreaterThan(2.4);
    expect(usd(unmarked) / usd(naive)).toBeGreaterThan(5);
    expect(unmarked.total.tokens.cacheRead).toBe(0);
    // Each body is written once and read once from the cache (1.35× the floor); the rest is per-call overhead.
    const floor = await floorUsd(reports, 'anthropic');
    expect(usd(history) / floor.usd).toBeGreaterThan(1.35);
    expect(usd(history) / floor.usd).toBeLessThan(2);
    // Every call after the first of its agent reads its stable prefix from the cache.
    expect(history.total.cacheHitRatio).toBeGreaterThan(0.6);
  });
});
