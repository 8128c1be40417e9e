// A comparison of two variants of an agent in the web inspector, in Chromium (issue 50): the support agent with and
// without compaction over examples/eval's cases, compared by compareEvalSet into a SQLite store, shown from the JSON
// `agentctx eval --compare --json` prints — totals, paired bars per case, the changed case, and each side's session.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseComparison } from '../../src/analysis/eval/comparison-file.js';
import type { EvalComparison } from '../../src/analysis/eval/compare-results.js';
import { parseEvalSet } from '../../src/analysis/eval/eval-set-file.js';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { parseScript } from '../../src/models/scripted/parse-script.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { compareEvalSet } from '../../src/presets/compare-eval-set.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { withSimulatedBilling } from '../../src/testing/index.js';
import type { ServedInspector } from '../../src/web/serve-inspector.js';
import { parse } from 'yaml';
import { hasChromium, skipWithoutChromium } from '../support/chromium.js';
import { repositoryRoot } from '../support/cli.js';
import { openInspectorPage, SCREENSHOTS, type InspectorPage } from './inspector-page.js';

const EXAMPLES = join(repositoryRoot, 'examples/eval');

async function compareSupport(store: SessionStoreWithCallLog): Promise<EvalComparison> {
  const script = parseScript(
    parse(await readFile(join(EXAMPLES, 'support-script.yaml'), 'utf8')),
    'support-script.yaml',
  );
  const evalSet = parseEvalSet(await readFile(join(EXAMPLES, 'support.evalset.json'), 'utf8'), 'support.evalset.json');
  const variant = (compacted: boolean) => {
    let ids = 0;
    return createRunner({
      agents: llmAgent({ name: 'support_agent', instruction: 'You are the support agent.' }),
      model: withSimulatedBilling(createScriptedModel(script), { provider: 'anthropic', modelId: 'claude-sonnet-4-6' }),
      sessions: store,
      newId: () => `id${++ids}`,
      ...(compacted ? { eventsCompactionConfig: { compactionInterval: 2, overlapSize: 0 } } : {}),
    });
  };
  const comparison = await compareEvalSet({
    a: { label: 'support.yaml', runner: variant(false) },
    b: { label: 'support-compacted.yaml', runner: variant(true) },
    evalSet,
    metrics: [{ metricName: 'response_match_score', threshold: 0.9 }],
    sessionPrefix: 'cmp',
  });
  // As the inspector gets it: written as JSON by `eval --compare --json`, read back by `agentctx web --comparison`.
  return parseComparison(JSON.stringify(comparison), 'support.json');
}

if (!hasChromium()) skipWithoutChromium('a comparison in the web inspector');
else
  describe('a comparison of two variants in the web inspector, in Chromium', () => {
    let opened: InspectorPage;
    let served: ServedInspector;
    let page: Page;
    let problems: string[] = [];

    beforeAll(async () => {
      opened = await openInspectorPage({
        prefix: 'agentctx-web-compare-',
        apps: ['support_agent'],
        write: async (store) => ({ comparisons: [{ name: 'support.json', comparison: await compareSupport(store) }] }),
      });
      ({ served, page, problems } = opened);
    }, 90_000);

    afterAll(() => opened?.close());

    it('lists the comparison, draws both sides per case, marks the changed case and opens its sessions', async () => {
      await page.goto(`${served.url}#`);
      const link = page.locator('.comparison-links button', { hasText: 'support.json' });
      await link.waitFor();
      expect(await page.locator('.comparison-links li').textContent()).toContain('2 case runs · 1 changed');
      await link.click();
      await page.locator('.comparison .verdict').waitFor();
      expect(await page.locator('.comparison .verdict').textContent()).toBe(
        '1 case run changed outcome: recall-tracking-number passes only on a',
      );
      const totals = await page.locator('.comparison-totals tbody tr').allTextContents();
      expect(totals[0]).toBe('cases passed2 of 21 of 2');
      // Paired bars: a and b for each case, on one scale; the compacted side's recall run failed and is marked so.
      const bars = page.locator('.comparison-chart.tokens .comparison-bar');
      expect(await bars.count()).toBe(4);
      const tokens = await bars.evaluateAll((nodes) =>
        nodes.map((node) => {
          const data = (node as unknown as { dataset: Record<string, string> }).dataset;
          return [data['case'], data['side'], Number(data['value']), node.getAttribute('class')?.includes('failed')];
        }),
      );
      expect(tokens.map(([name, side, , failed]) => [name, side, failed])).toEqual([
        ['recall-tracking-number', 'a', false],
        ['recall-tracking-number', 'b', true],
        ['opening-hours', 'a', false],
        ['opening-hours', 'b', false],
      ]);
      // The compacted side pays for its summaries: more prompt tokens on this short chat, not fewer.
      expect(tokens[1]?.[2]).toBeGreaterThan(tokens[0]?.[2] as number);
      expect(await page.locator('.comparison-chart.usd .comparison-bar').count()).toBe(4);
      await page.screenshot({ path: join(SCREENSHOTS, 'comparison.png'), fullPage: true });
      // b's session of the changed case opens at the first call that differs.
      await page.locator('.comparison-case[data-case="recall-tracking-number"] .open-session.side-b').click();
      const heading = page.locator('.session-head h2', { hasText: 'Session' });
      await heading.waitFor();
      expect(await heading.textContent()).toBe('Session cmp-b-case1');
      expect(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('call')).toBe('4');
      expect(problems).toEqual([]);
    }, 60_000);
  });
