// ADK's own dev UI (the prebuilt bundle of @google/adk-devtools 2.0.0), in Debian's Chromium, evaluating a session on
// agentctx's ADK server (issue 50): one turn chatted, an eval set created from the eval tab, the session added to it
// as a case, the set run with the UI's default metrics, and the run's result shown as a pass. Screenshots go to
// test-results/screenshots/.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP, clockRunner } from '../adk/eval-server.js';
import { openAdkDevUi, type AdkDevUiPage } from './adk-dev-ui-page.js';
import { hasChromium, skipWithoutChromium } from '../support/chromium.js';
import { SCREENSHOTS } from './inspector-page.js';

if (!hasChromium()) skipWithoutChromium("an evaluation in ADK's dev UI");
else
  describe("an evaluation run from ADK's dev UI, in Chromium", () => {
    let opened: AdkDevUiPage;
    let url: string;
    let page: Page;
    let failures: string[] = [];

    beforeAll(async () => {
      opened = await openAdkDevUi({
        prefix: 'agentctx-adk-ui-eval-',
        runners: (store) => [clockRunner(store)],
        server: { evalDir: true },
        failOn: (response) => response.status() >= 400 && response.url().includes('eval'),
      });
      ({ url, page, failures } = opened);
    }, 90_000);

    afterAll(() => opened?.close());

    it('creates an eval set from the eval tab, adds the chatted session, runs it and shows the pass', async () => {
      await page.goto(`${url}/`);
      const input = page.getByPlaceholder('Type a message...');
      await input.waitFor();
      await input.fill('what time is it?');
      await input.press('Enter');
      await page.getByText('It is 12:00.').first().waitFor();
      await page.getByRole('tab', { name: 'Evals' }).click();
      await page.getByText('Create Evaluation Set').first().click();
      const setDialog = page.getByRole('dialog').filter({ hasText: 'Create New Eval Set' });
      await setDialog.getByRole('textbox').fill('clock_checks');
      await setDialog.getByRole('button', { name: 'Create' }).click();
      await page.locator('.eval-set-row', { hasText: 'clock_checks' }).click();
      await page.getByRole('button', { name: 'From Current Session' }).click();
      const caseDialog = page.getByRole('dialog').filter({ hasText: 'Add Current Session To Eval Set' });
      await caseDialog.getByRole('textbox').fill('tells_time');
      await caseDialog.getByRole('button', { name: 'Create' }).click();
      await page.locator('.eval-case-row', { hasText: 'tells_time' }).waitFor();
      await page.getByRole('button', { name: 'Run All' }).click();
      const metricsDialog = page.getByRole('dialog').filter({ hasText: 'EVALUATION METRICS' });
      // The metrics the server offers (its metrics-info), the UI's defaults ticked.
      await metricsDialog.getByText('Response Match').waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'adk-dev-ui-eval-metrics.png') });
      await metricsDialog.getByRole('button', { name: 'Start' }).click();
      // The run's page: the set passed, and its one case with both metrics passed.
      await page.getByText('1 PASS').first().waitFor();
      await expect
        .poll(() => page.locator('.status-card__history-case', { hasText: 'tells_time' }).innerText())
        .toContain('2/2');
      await page.screenshot({ path: join(SCREENSHOTS, 'adk-dev-ui-eval-result.png') });
      // Kept as ADK keeps them: the set beside its app's name, the run in the app's eval history.
      const apps = join(opened.dir, 'agents', APP);
      expect(await readdir(apps)).toContain('clock_checks.evalset.json');
      expect(await readdir(join(apps, '.adk', 'eval_history'))).toEqual([
        expect.stringMatching(/^clock_clock_checks_[\d.]+\.evalset_result\.json$/),
      ]);
      expect(failures).toEqual([]);
    }, 60_000);
  });
