// The prompt cache explainer in a real browser (Debian's Chromium driven by playwright-core): a call's prompt cache
// panel (prefix kept, or where and why it changed, the re-billed tokens and both sides' text there) and the
// timeline's marks on the calls whose prefix changed, on the session of cache-session.ts.
// Screenshots go to test-results/screenshots/.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelCallRecord } from '../../src/contracts/model-call.js';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import type { CacheExplanation, SessionCacheReport } from '../../src/analysis/cache/cache-types.js';
import { explainSessionCache } from '../../src/analysis/cache/explain-cache.js';
import { loadTokenCounter } from '../../src/engine/tokens/token-counter.js';
import type { ServedInspector } from '../../src/web/serve-inspector.js';
import { hasChromium, skipWithoutChromium } from '../support/chromium.js';
import { openInspectorPage, SCREENSHOTS, type InspectorPage } from './inspector-page.js';
import { CACHE_CALLS, CACHED, writeCacheSession } from '../support/cache-session.js';

if (!hasChromium()) skipWithoutChromium('the prompt cache explainer of the web inspector in a browser');
else
  describe('the prompt cache explainer in the web inspector, in Chromium', () => {
    let opened: InspectorPage;
    let store: SessionStoreWithCallLog;
    let served: ServedInspector;
    let page: Page;
    let report: SessionCacheReport;
    let problems: string[] = [];

    beforeAll(async () => {
      opened = await openInspectorPage({
        prefix: 'agentctx-web-cache-',
        apps: [CACHED.appName],
        write: writeCacheSession,
      });
      ({ store, served, page, problems } = opened);
      const records = await Promise.all(
        (await store.listModelCalls(CACHED)).map(
          async (call) => (await store.getModelCall({ ...CACHED, index: call.index })) as ModelCallRecord,
        ),
      );
      const counter = await loadTokenCounter();
      report = explainSessionCache(records, (text) => counter.count(text));
    }, 90_000);

    afterAll(() => opened?.close());

    const open = async (extra: Record<string, string | number> = {}) => {
      const params = new URLSearchParams({ app: CACHED.appName, user: CACHED.userId, session: CACHED.sessionId });
      for (const [name, value] of Object.entries(extra)) params.set(name, String(value));
      await page.goto(`${served.url}#${params.toString()}`);
    };
    const explanation = (index: number) => report.calls[index - 1]?.explanation as CacheExplanation;
    const tokens = (value: number) => `${value.toLocaleString('en-US')} tokens`;

    it('shows where and why the prefix changed, the re-billed tokens and both sides of the difference, linked to the previous call', async () => {
      await open({ call: 2 });
      const panel = page.locator('.request[data-call="2"] .cache-panel');
      await panel.waitFor();
      const second = explanation(2);
      expect(second.difference?.location).toMatchObject({ where: 'system' });
      const offset = (second.difference?.location as { offset: number }).offset;
      expect(await panel.getAttribute('data-cache')).toBe('changed');
      expect(await panel.getAttribute('data-cause')).toBe('substitution-changed');
      expect(await panel.getAttribute('data-rebilled')).toBe(String(second.tokens.rebilled));
      expect(second.tokens.rebilled).toBeGreaterThan(0);
      expect(await panel.locator('.cache-summary').textContent()).toBe(
        `prefix changed at system @${offset}: instruction: {current_time} changed — ${tokens(second.tokens.rebilled)} re-billed`,
      );
      expect(await panel.locator('.cache-details').textContent()).toBe(
        '{current_time} (state key current_time): "09:00" → "09:05"',
      );
      // Both sides: the text they share, then each side's own text, marked; as text, never markup.
      const sides = await panel
        .locator('.cache-side')
        .evaluateAll((nodes) =>
          nodes.map((node) => [
            node.getAttribute('data-side'),
            node.querySelector('.cache-side-label')?.textContent,
            node.querySelector('.cache-before')?.textContent,
            node.querySelector('mark.cache-diff')?.textContent,
          ]),
        );
      expect(sides).toEqual([
        ['previous', 'call 1', second.difference?.excerpt.before, second.difference?.excerpt.previous],
        ['current', 'call 2', second.difference?.excerpt.before, second.difference?.excerpt.current],
      ]);
      expect(second.difference?.excerpt.before).toMatch(/The time is 09:0$/);
      expect(await panel.locator('mark.cache-diff').first().textContent()).toMatch(/^0\. Be brief\./);
      expect(await panel.locator('mark.cache-diff').last().textContent()).toMatch(/^5\. Be brief\./);
      await panel.screenshot({ path: join(SCREENSHOTS, 'cache-panel-changed.png') });

      // The place opens in the request: the system block holding the offset.
      await panel.locator('button.cache-where').click();
      expect(await page.locator('.request .piece.focused').getAttribute('data-kind')).toBe('instruction');

      // The link goes to the previous call, the agent's first.
      await panel.locator('button.cache-previous').click();
      const first = page.locator('.request[data-call="1"] .cache-panel');
      await first.waitFor();
      expect(new URL(page.url()).hash).toContain('call=1');
      expect(await first.getAttribute('data-cache')).toBe('first');
      expect(await first.locator('.cache-summary').textContent()).toBe(
        'first call of its agent: nothing earlier to read from the cache',
      );
    });

    it('names a page paged in and reordered tools, and says when the prefix was kept with the tokens read from the cache', async () => {
      await open({ call: 3 });
      const paged = page.locator('.request[data-call="3"] .cache-panel');
      await paged.waitFor();
      expect(await paged.locator('.cache-summary').textContent()).toMatch(
        new RegExp(
          `^prefix changed at system @\\d+: page added: paging:items — ${tokens(explanation(3).tokens.rebilled)} re-billed$`,
        ),
      );
      expect(await paged.locator('mark.cache-diff').last().textContent()).toContain('BEGIN ITEMS');

      await open({ call: 4 });
      const reordered = page.locator('.request[data-call="4"] .cache-panel');
      await reordered.waitFor();
      const fourth = explanation(4);
      expect(await reordered.locator('.cache-summary').textContent()).toBe(
        `prefix changed at tools[0]: tools reordered — ${tokens(fourth.tokens.rebilled)} re-billed`,
      );
      expect(fourth.tokens).toMatchObject({ kept: 0, rebilled: fourth.tokens.prefix });
      expect(await reordered.locator('.cache-details').textContent()).toBe(
        'tool order: tick, lookup, get_items, save_result, list_results → lookup, tick, get_items, save_result, list_results',
      );
      await reordered.locator('button.cache-where').click();
      expect(await page.locator('.request .piece.focused').getAttribute('data-path')).toBe('tools[0]');

      await open({ call: 5 });
      const kept = page.locator('.request[data-call="5"] .cache-panel');
      await kept.waitFor();
      expect(await kept.getAttribute('data-cache')).toBe('kept');
      expect(await kept.locator('.cache-summary').textContent()).toBe(
        `prefix kept (${tokens(explanation(5).tokens.kept)} read from the cache)`,
      );
      expect(explanation(5).tokens.kept).toBeGreaterThan(0);
      expect(await kept.locator('.cache-side').count()).toBe(0);
      await kept.locator('button.cache-previous').click();
      await page.locator('.request[data-call="4"] .cache-panel').waitFor();
    });

    it('marks the calls whose prefix changed in the timeline, the cause on hover', async () => {
      await open({ tab: 'timeline' });
      await page.locator('.timeline .item[data-call="5"]').waitFor();
      await page.locator('.timeline .cache-mark').first().waitFor();
      const marks = await page.locator('.timeline .item.type-model-call').evaluateAll((nodes) =>
        nodes.map((node) => {
          const mark = node.querySelector('.cache-mark');
          return [
            Number(node.getAttribute('data-call')),
            mark?.getAttribute('title') ?? null,
            mark?.getAttribute('data-cause') ?? null,
          ];
        }),
      );
      expect(marks).toEqual(CACHE_CALLS.map((call) => [call.index, call.text ?? null, call.kind ?? null]));
      expect(await page.locator('.timeline .cache-mark').first().textContent()).toBe('⟳ prefix changed');
      await page.screenshot({ path: join(SCREENSHOTS, 'cache-timeline.png'), fullPage: true });
      // A mark's call opens with its panel.
      await page.locator('.timeline .item[data-call="4"] button.link').click();
      await page.locator('.request[data-call="4"] .cache-panel[data-cause="tools-reordered"]').waitFor();
      expect(problems).toEqual([]);
    });
  });
