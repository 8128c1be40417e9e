import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../examples/report-analyst/compare.js';
import { expectedAnswer, generateReports } from '../../examples/report-analyst/reports.js';
import { runAnalysis } from '../../examples/report-analyst/run-analysis.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';

const reports = generateReports();
const expected = expectedAnswer(reports);

describe('the report analyst (examples/report-analyst)', () => {
  it('gives the same right answer paged and naive, with paged prompts ≥ 10× smaller, near flat, and naive ones growing', async () => {
    const result = await compareRuns(createInMemorySessionStore(), reports);
    expect(result.paged.answer.endsWith(expected)).toBe(true);
    expect(result.naive.answer.endsWith(expected)).toBe(true);
    expect(result.ratio).toBeGreaterThanOrEqual(10);
    // Each saved batch leaves its one save_result call in the history (about 50 tokens, read from a prompt cache at
    // 0.1×): the reading call grows by that much per batch and no more.
    expect((result.pagedLastBatchTokens - result.pagedFirstBatchTokens) / 15).toBeLessThanOrEqual(60);
    // Naive: every batch's reading call carries more than the one before.
    const naiveReading = result.naive.tokens.filter((_, index) => index >= 2 && (index - 2) % 3 === 1);
    expect(naiveReading.length).toBe(17);
    for (let index = 1; index < naiveReading.length; index++)
      expect(naiveReading[index]).toBeGreaterThan(naiveReading[index - 1] as number);
  });

  it('answers wrongly when page-in is broken: the numbers come only from the paged text', async () => {
    const broken = await runAnalysis({
      mode: 'paged',
      store: createInMemorySessionStore(),
      reports,
      breakPageIn: true,
    });
    expect(broken.answer).toMatch(/Across 164 reports: revenue 0\.0k USD/);
    expect(broken.answer.endsWith(expected)).toBe(false);
  });

  it('fetches each report once, and keeps every body out of the stored history', async () => {
    const loads = new Map<string, number>();
    const store = createInMemorySessionStore();
    const run = await runAnalysis({
      mode: 'paged',
      store,
      reports,
      onLoad: (id) => loads.set(id, (loads.get(id) ?? 0) + 1),
    });
    expect(loads.size).toBe(164);
    expect([...loads.values()].every((count) => count === 1)).toBe(true);
    const session = await store.getSession({ appName: 'report_analyst', userId: 'analyst', sessionId: run.sessionId });
    const stored = JSON.stringify(session);
    expect(stored).not.toContain('Prepared by the regional finance office');
    expect(Object.keys(session?.state ?? {}).filter((key) => key.startsWith('temp:'))).toEqual([]);
    expect(Object.keys(session?.state ?? {}).filter((key) => key.startsWith('reports:result:'))).toHaveLength(17);
  });
});
