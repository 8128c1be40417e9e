import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvalComparison } from '../../src/analysis/eval/compare-results.js';
import { cli, expectCliError } from '../support/cli.js';

// `agentctx eval --compare` (issue 50): the same eval cases under two variants of an agent, judged by behaviour and by
// cost, offline and deterministic. A compaction setting whose summary drops a fact fails the case that needs it;
// the report analyst's paging keeps every answer and cuts the bill.

const SUPPORT = 'examples/eval';
const SCRIPT = `scripted:${SUPPORT}/support-script.yaml`;

async function compare(...args: string[]): Promise<{ code: number; comparison: EvalComparison; stderr: string }> {
  const result = await cli(['eval', '--compare', ...args, '--json']);
  return { code: result.code, comparison: JSON.parse(result.stdout) as EvalComparison, stderr: result.stderr };
}

describe('agentctx eval --compare', () => {
  it('names the case a compaction setting breaks: its summary drops the fact the last turn needs', async () => {
    const { code, comparison, stderr } = await compare(
      `${SUPPORT}/support.yaml`,
      `${SUPPORT}/support-compacted.yaml`,
      SUPPORT,
      '--model',
      SCRIPT,
      '--bill-as',
      'anthropic:claude-sonnet-4-6',
    );
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(comparison.a).toMatchObject({ label: `${SUPPORT}/support.yaml`, passed: 2, failed: 0 });
    expect(comparison.b).toMatchObject({ label: `${SUPPORT}/support-compacted.yaml`, passed: 1, failed: 1 });
    const [recall, hours] = comparison.cases;
    expect(recall).toMatchObject({ evalId: 'recall-tracking-number', passedOn: 'a', run: 1 });
    expect(recall?.b.metrics).toEqual([
      expect.objectContaining({ metricName: 'response_match_score', evalStatus: 'FAILED', threshold: 0.9 }),
    ]);
    // Turns 1 and 2 are the same on both sides; turn 3's request starts with the summary on b, whose call 3 was the
    // summarizer's (recorded like any call, left out of the pairing).
    expect(recall?.firstDifference).toMatchObject({
      calls: { a: 3, b: 4 },
      agents: { a: 'support_agent', b: 'support_agent' },
    });
    expect(recall?.firstDifference?.where).toEqual(['messages[0].content[0]']);
    expect(hours).toMatchObject({ evalId: 'opening-hours', passedOn: 'both' });
    expect(hours?.firstDifference).toBeUndefined();
    // Billed as Claude would bill the exact bodies: tokens and USD on both sides, fewer on the compacted one.
    for (const side of [comparison.a, comparison.b]) {
      expect(side.efficiency.promptTokens).toBeGreaterThan(0);
      expect(side.efficiency.usd).toBeGreaterThan(0);
    }
    // The summaries are calls too, and on a chat this short they cost more than they save.
    expect([comparison.a.efficiency.modelCalls, comparison.b.efficiency.modelCalls]).toEqual([5, 7]);
    expect(recall?.b.efficiency.promptTokens).toBeGreaterThan(recall?.a.efficiency.promptTokens as number);
    expect(comparison.b.efficiency.usd).toBeGreaterThan(comparison.a.efficiency.usd as number);
    expect(hours?.a.efficiency.promptTokens).toBe(hours?.b.efficiency.promptTokens);
  });

  it('prints the comparison side by side, the changed case marked', async () => {
    const result = await cli([
      'eval',
      '--compare',
      `${SUPPORT}/support.yaml`,
      `${SUPPORT}/support-compacted.yaml`,
      SUPPORT,
      '--model',
      SCRIPT,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^ {2}cases passed +2 of 2 +1 of 2$/m);
    expect(result.stdout).toMatch(
      /✓ ✗ recall-tracking-number {2}response_match_score 1\.00 → 0\.81 {2}← passes only on a/,
    );
    expect(result.stdout).toContain(
      'first differing request: call 3 on a, 4 on b (support_agent): messages[0].content[0]',
    );
    expect(result.stdout).toContain('1 case run changed outcome: recall-tracking-number passes only on a');
  });

  it('compares one agent file under two profiles; the same requests, the same outcome, exit 0', async () => {
    const { code, comparison } = await compare(
      `${SUPPORT}/support.yaml`,
      `${SUPPORT}/support.yaml`,
      SUPPORT,
      '--model',
      SCRIPT,
      '--profile-b',
      'adk',
    );
    expect(code).toBe(0);
    expect([comparison.a.label, comparison.b.label]).toEqual([
      `${SUPPORT}/support.yaml (profile agentctx)`,
      `${SUPPORT}/support.yaml (profile adk)`,
    ]);
    expect(comparison.cases.map((each) => [each.passedOn, each.firstDifference])).toEqual([
      ['both', undefined],
      ['both', undefined],
    ]);
  });

  it('runs the report analyst naive and paged: the same answers, a tenth of the prompt, less than half the bill', async () => {
    const { code, comparison } = await compare(
      'examples/report-analyst/eval/naive.ts',
      'examples/report-analyst/eval/paged.ts',
      'examples/report-analyst/eval',
    );
    expect(code).toBe(0);
    const [only] = comparison.cases;
    expect(only).toMatchObject({ evalId: 'totals-2025', passedOn: 'both' });
    for (const side of [only?.a, only?.b])
      expect(side?.metrics.map((metric) => [metric.metricName, metric.score])).toEqual([
        ['tool_trajectory_avg_score', 1],
        ['response_match_score', 1],
      ]);
    const { a, b } = { a: comparison.a.efficiency, b: comparison.b.efficiency };
    expect(a.modelCalls).toBe(b.modelCalls);
    expect(b.promptTokens / a.promptTokens).toBeLessThan(0.15);
    expect((b.usd ?? 1) / (a.usd ?? 1)).toBeLessThan(0.5);
    expect(a.cacheHitRatio).toBeGreaterThan(0.9);
    // Search and hand-over are the same; the analysis agent's first call is where the two differ (its tools).
    expect(only?.firstDifference).toMatchObject({
      calls: { a: 3, b: 3 },
      agents: { a: 'analysis_agent', b: 'analysis_agent' },
    });
  }, 120_000);

  it('refuses what it cannot compare in one line', async () => {
    expectCliError(
      await cli(['eval', '--compare', `${SUPPORT}/support.yaml`, SUPPORT]),
      /eval --compare takes two agent files and one eval set, got 2 paths/,
    );
    expectCliError(
      await cli(['eval', '--compare', `${SUPPORT}/support.yaml`, `${SUPPORT}/support.yaml`, SUPPORT, '--csv', 'x.csv']),
      /--out and --csv are for one agent/,
    );
    expectCliError(
      await cli(['eval', `${SUPPORT}/support.yaml`, SUPPORT, '--bill-as', 'acme:big-model']),
      /--bill-as takes <provider>:<model> with provider anthropic, openai, google, got 'acme:big-model'/,
    );
    // Checked before any agent or model is opened (the agent's own model would need a key here).
    expectCliError(
      await cli([
        'eval',
        '--compare',
        `${SUPPORT}/support.yaml`,
        `${SUPPORT}/support.yaml`,
        SUPPORT,
        '--profile-b',
        'nope',
      ]),
      /--profile-b must be agentctx or adk, got 'nope'/,
    );
    const dir = await mkdtemp(join(tmpdir(), 'agentctx-compare-'));
    await writeFile(
      join(dir, 'agent.mjs'),
      "export const agent = { name: 'a', kind: 'llm', instruction: 'Hi.' };\nexport const model = 'gemini-2.5-flash';\n",
    );
    expectCliError(await cli(['eval', join(dir, 'agent.mjs'), SUPPORT]), /model.*is exported but is not a model/);
    await writeFile(join(dir, 'test_config.json'), 'not json');
    expectCliError(
      await cli(['eval', `${SUPPORT}/support.yaml`, SUPPORT, '--config', join(dir, 'test_config.json')]),
      /test_config\.json: is not JSON/,
    );
  });
});
