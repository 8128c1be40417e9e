// What calls cost, in a real browser (Debian's Chromium driven by playwright-core): the USD and cache-hit share of each
// call in the timeline, a call's cost panel, and the cost tab's cumulative chart, on the sessions of cost-session.ts.
// Screenshots go to test-results/screenshots/.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionKey } from '../../src/contracts/session.js';
import { DEFAULT_PRICES } from '../../src/analysis/cost/default-prices.js';
import type { ServedInspector } from '../../src/web/serve-inspector.js';
import { hasChromium, skipWithoutChromium } from '../support/chromium.js';
import { openInspectorPage, SCREENSHOTS, type InspectorPage } from './inspector-page.js';
import { PRICED, UNPRICED, UNPRICED_MODEL_ID, writeCostSessions } from './cost-session.js';
const SONNET = DEFAULT_PRICES.models.find(
  (model) => model.provider === 'anthropic' && model.model === 'claude-sonnet-4-5',
)!;
const UNPRICED_REASON = `no price known for scripted:${UNPRICED_MODEL_ID}`;

if (!hasChromium()) skipWithoutChromium('the cost views of the web inspector in a browser');
else
  describe('the cost of calls in the web inspector, in Chromium', () => {
    let opened: InspectorPage;
    let served: ServedInspector;
    let page: Page;
    let problems: string[] = [];

    beforeAll(async () => {
      opened = await openInspectorPage({ prefix: 'agentctx-web-cost-', apps: ['cost_app'], write: writeCostSessions });
      ({ served, page, problems } = opened);
    }, 90_000);

    afterAll(() => opened?.close());

    const open = async (key: SessionKey, extra: Record<string, string | number> = {}) => {
      const params = new URLSearchParams({ app: key.appName, user: key.userId, session: key.sessionId });
      for (const [name, value] of Object.entries(extra)) params.set(name, String(value));
      await page.goto(`${served.url}#${params.toString()}`);
    };
    const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
    const texts = (selector: string) => page.locator(selector).allTextContents();

    it("lists each call's USD and cache-hit share in the timeline, and a dash with the reason when it has no price", async () => {
      await open(PRICED, { tab: 'timeline' });
      await page.locator('.timeline .item[data-call="3"]').waitFor();
      expect(await texts('.timeline .item.type-model-call .call-usd')).toEqual(['$0.051', '$0.0309', '$0.051']);
      expect(await page.locator('.timeline .item[data-call="2"] .call-usd').getAttribute('title')).toBe(
        `$0.0309 (anthropic claude-sonnet-4-5, prices of ${SONNET.date})`,
      );
      // The first call wrote the cache and read none of it: no share to show but 0%.
      expect(await texts('.timeline .item.type-model-call .cache-text')).toEqual([
        '0% cached',
        '67% cached',
        '71% cached',
      ]);
      const fill = await page
        .locator('.timeline .item[data-call="2"] .cache-bar .fill')
        .evaluate((node) => (node as unknown as { style: { width: string } }).style.width);
      expect(fill).toBe('66.7%');
      expect(await page.locator('.session-head p').textContent()).toContain('3 model calls · $0.1329 · updated');
      expect(await page.locator('#call-select option[value="2"]').textContent()).toMatch(/· \$0\.0309$/);
      await shot('cost-timeline.png');

      await open(UNPRICED, { tab: 'timeline' });
      // The priced session's rows are on the page until the other session is drawn: wait for its dashes.
      await page.locator('.timeline .item[data-call="2"] .call-usd.unpriced').waitFor();
      const dashes = page.locator('.timeline .item.type-model-call .call-usd.unpriced');
      expect(await dashes.allTextContents()).toEqual(['—', '—']);
      expect(await dashes.first().getAttribute('title')).toBe(`not priced: ${UNPRICED_REASON}`);
      expect(await texts('.timeline .item.type-model-call .cache-text')).toEqual(['60% cached', '67% cached']);
      expect(await page.locator('.session-head p').textContent()).toContain('cost unknown (no call priced)');
    });

    it("shows a call's cost panel: tokens and USD of each kind, cache writes by lifetime, the price's source and date", async () => {
      await open(PRICED, { call: 3 });
      const panel = page.locator('.call-outcome .cost-panel');
      await panel.waitFor();
      expect(await panel.getAttribute('data-priced')).toBe('true');
      expect(await panel.locator('.cost-total').textContent()).toBe('$0.051');
      const rows = await panel
        .locator('tbody tr')
        .evaluateAll((nodes) =>
          nodes.map((node) => [node.getAttribute('data-cost'), ...[...node.children].map((cell) => cell.textContent)]),
        );
      expect(rows).toEqual([
        ['input', 'input', '2,000', '$0.006'],
        ['cacheRead', 'cache read', '10,000', '$0.003'],
        ['cacheWrite5m', 'cache write (5m)', '0', '$0'],
        ['cacheWrite1h', 'cache write (1h)', '2,000', '$0.012'],
        ['output', 'output', '2,000', '$0.03'],
        ['total', 'total', '16,000', '$0.051'],
      ]);
      expect(await panel.locator('.cache-line').textContent()).toBe('71% of the prompt read from the cache');
      const link = panel.locator('a.price-link');
      expect(await link.getAttribute('href')).toBe(SONNET.source);
      expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
      expect(await link.textContent()).toBe(`${SONNET.date} · ${new URL(SONNET.source).host}`);
      expect(await panel.locator('.price-source').textContent()).toContain(
        'prices of anthropic claude-sonnet-4-5, as of',
      );
      await panel.screenshot({ path: join(SCREENSHOTS, 'cost-panel.png') });

      await open(PRICED, { call: 1 });
      await page.locator('.request[data-call="1"]').waitFor();
      expect(
        await page
          .locator('.cost-panel tr[data-cost="cacheWrite5m"]')
          .evaluate((node) => [...node.children].map((cell) => cell.textContent)),
      ).toEqual(['cache write (5m)', '8,000', '$0.03']);

      await open(UNPRICED, { call: 1 });
      await page.locator('.cost-panel[data-priced="false"]').waitFor();
      const unpriced = page.locator('.cost-panel');
      expect(await unpriced.getAttribute('data-priced')).toBe('false');
      expect(await unpriced.locator('.cost-total').textContent()).toBe('—');
      expect(await unpriced.locator('.unpriced-note').textContent()).toBe(`Not priced: ${UNPRICED_REASON}.`);
      expect(await unpriced.locator('tr[data-cost="cacheRead"] td').allTextContents()).toEqual(['600', '—']);
      expect(await unpriced.locator('a.price-link').count()).toBe(0);
    });

    it('charts the session cost cumulatively per call, in USD, and opens a call from the chart and the table', async () => {
      await open(PRICED, { tab: 'cost', call: 1 });
      const chart = page.locator('svg.cost-chart.usd');
      await chart.waitFor();
      expect(await page.locator('.session-usd').textContent()).toBe('$0.1329 in all');
      expect(await chart.getAttribute('aria-label')).toBe('cumulative cost in USD over 3 calls: $0.1329 in all');
      const points = await chart
        .locator('.cost-point')
        .evaluateAll((nodes) =>
          nodes.map((node) => [Number(node.getAttribute('data-call')), Number(node.getAttribute('data-cumulative'))]),
        );
      expect(points.map(([call]) => call)).toEqual([1, 2, 3]);
      [0.051, 0.0819, 0.1329].forEach((total, at) => expect(points[at]![1]).toBeCloseTo(total, 12));
      // Drawn to scale: the axis tops at 0.2 USD, 148 px of plot below y = 22.
      const heights = await chart
        .locator('.cost-point circle')
        .evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('cy'))));
      [0.051, 0.0819, 0.1329].forEach((total, at) =>
        expect(heights[at]).toBeCloseTo(22 + 148 - (total / 0.2) * 148, 6),
      );
      expect(await chart.locator('text.axis').allTextContents()).toEqual(
        expect.arrayContaining(['$0', '$0.1', '$0.2', 'USD so far']),
      );
      expect(await chart.locator('.cost-point[data-call="2"] .hit title').textContent()).toBe(
        'call 2 · billing_agent · $0.0309 · running total $0.0819',
      );
      expect(await texts('.cost-calls tbody .call-usd')).toEqual(['$0.051', '$0.0309', '$0.051']);
      expect(await texts('.cost-calls tbody .running')).toEqual(['$0.051', '$0.0819', '$0.1329']);
      expect(await texts('.cost-calls tbody .cache-text')).toEqual(['0% cached', '67% cached', '71% cached']);
      await page.locator('.cost-chart-section').screenshot({ path: join(SCREENSHOTS, 'cost-chart-usd.png') });
      await shot('cost-tab.png');

      await chart.locator('.cost-point[data-call="2"] .hit').click();
      await page.locator('.cost-calls tr.current[data-call="2"]').waitFor();
      expect(await page.locator('svg.cost-chart .cost-point.current').getAttribute('data-call')).toBe('2');
      await page.locator('.cost-calls tr[data-call="3"] button.link').click();
      await page.locator('.cost-calls tr.current[data-call="3"]').waitFor();
      expect(new URL(page.url()).hash).toContain('call=3');
    });

    it('charts cumulative prompt tokens, cached and not, when no call is priced', async () => {
      await open(UNPRICED, { tab: 'cost' });
      const chart = page.locator('svg.cost-chart.tokens');
      await chart.waitFor();
      expect(await page.locator('.session-usd').textContent()).toBe('no USD: no call could be priced');
      expect(await chart.getAttribute('aria-label')).toBe(
        'cumulative prompt tokens over 2 calls: 1,600 read from the cache, 900 not',
      );
      const stacks = await chart
        .locator('.cost-point')
        .evaluateAll((nodes) =>
          nodes.map((node) => [node.getAttribute('data-cached'), node.getAttribute('data-uncached')]),
        );
      expect(stacks).toEqual([
        ['600', '400'],
        ['1600', '900'],
      ]);
      // The bars' heights are to scale: 2,500 tokens on an axis that tops at 2,500.
      const bars = await chart
        .locator('.cost-point rect.segment')
        .evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('height'))));
      const unit = 148 / 2_500;
      [600, 400, 1_600, 900].forEach((tokens, at) => expect(bars[at]).toBeCloseTo(tokens * unit, 6));
      expect(await texts('.cost-chart-section .legend li')).toEqual([
        'read from the cache',
        'not cached (input and cache writes)',
      ]);
      expect(await texts('.cost-calls tbody .call-usd')).toEqual(['—', '—']);
      expect(await page.locator('.cost-calls tbody .call-usd').first().getAttribute('title')).toBe(
        `not priced: ${UNPRICED_REASON}`,
      );
      await page.locator('.cost-chart-section').screenshot({ path: join(SCREENSHOTS, 'cost-chart-tokens.png') });
      expect(problems).toEqual([]);
    });
  });
