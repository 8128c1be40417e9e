// The inspector in a real browser: Debian's Chromium driven by playwright-core, on sessions written by the report
// analyst example and by an agent whose state and answers carry markup. Screenshots go to test-results/screenshots/.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionKey } from '../../src/contracts/session.js';
import { diffRequests } from '../../src/engine/assembly/diff-requests.js';
import { findInRequest } from '../../src/engine/assembly/find-in-request.js';
import { requestToJson } from '../../src/engine/assembly/request-json.js';
import { countRequestTokens } from '../../src/engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../../src/engine/tokens/token-counter.js';
import { diffCalls } from '../../src/web/call-diff.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { serveInspector, type ServedInspector } from '../../src/web/serve-inspector.js';
import { hasChromium, launchPage, skipWithoutChromium } from '../support/chromium.js';
import { repositoryRoot } from '../support/cli.js';
import { BATCH_AGENT, BATCH_COUNT, SKEWED_CALL } from './batch-session.js';
import { ANSWER, APPENDED, INSERTED, WIRE_BODY } from './edited-session.js';
import {
  BATCHES,
  createFixtureStore,
  EDITED,
  HOSTILE,
  MARKUP_IN_OUTPUT,
  PAGED,
  SCRIPT_IN_STATE,
  type InspectorFixture,
} from './fixtures.js';
import { LONG, writeLongSession } from './long-session.js';
import { COUNTERS, writeCounterSession } from './counter-session.js';
import { widths, wordsBrokenNeedlessly } from './page-checks.js';

const SCREENSHOTS = join(repositoryRoot, 'test-results', 'screenshots');

/** The page's getComputedStyle, for callbacks that run in the browser (the tests compile without the DOM library). */
type InPage = {
  getComputedStyle(
    node: unknown,
    pseudo?: string,
  ): Record<'color' | 'backgroundColor' | 'borderLeftColor' | 'marginLeft' | 'content', string>;
};

if (!hasChromium()) skipWithoutChromium('the web inspector in a browser');
else
  describe('the web inspector in Chromium', () => {
    let fixture: InspectorFixture;
    let served: ServedInspector;
    let browser: Browser;
    let page: Page;
    let problems: string[] = [];

    beforeAll(async () => {
      fixture = await createFixtureStore();
      // Long enough that its chart, drawn at its natural width, would not fit a narrow screen.
      await writeLongSession(fixture.store, 120);
      await writeCounterSession(fixture.store);
      served = await serveInspector({
        app: createInspectorApp({ store: fixture.store, apps: ['report_analyst', 'notes_app'], version: 'test' }),
        port: 0,
      });
      await mkdir(SCREENSHOTS, { recursive: true });
      ({ browser, page, problems } = await launchPage());
    }, 90_000);

    afterAll(async () => {
      await browser?.close();
      await served?.close();
      await fixture?.cleanup();
    });

    const open = async (key: SessionKey, extra: Record<string, string | number> = {}) => {
      const params = new URLSearchParams({ app: key.appName, user: key.userId, session: key.sessionId });
      for (const [name, value] of Object.entries(extra)) params.set(name, String(value));
      await page.goto(`${served.url}#${params.toString()}`);
    };
    const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, name), fullPage: true });
    const record = async (index: number) => (await fixture.store.getModelCall({ ...PAGED, index }))!;

    it('lists the sessions of an app and opens one', async () => {
      await page.goto(`${served.url}#app=report_analyst`);
      await page.locator('.session-link').first().waitFor();
      expect(await page.locator('.session-link .session-id').allTextContents()).toEqual(['report-analyst-paged']);
      await shot('sessions.png');
      await page.locator('.session-link').first().click();
      await page.locator('.request[data-call="1"]').waitFor();
      expect(await page.locator('.session-head h2').textContent()).toBe('Session report-analyst-paged');
    });

    it("shows a call's system blocks by source, the page block in the system text and not in the messages, with token bars", async () => {
      await open(PAGED, { call: 4 });
      await page.locator('.request[data-call="4"]').waitFor();
      const call = await record(4);
      const tokens = countRequestTokens(call.request, await loadTokenCounter(), call.provenance);
      const blocks = page.locator('.system-blocks .piece');
      expect(await blocks.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-kind')))).toEqual([
        'instruction',
        'page',
        'identity',
      ]);
      const pageBlock = call.provenance.system[1]!;
      const pageText = await page.locator('.system-blocks .piece[data-kind="page"] pre.text').textContent();
      expect(pageText).toBe(call.request.system.slice(pageBlock.start, pageBlock.end));
      expect(pageText).toContain('--- BEGIN REPORTS (10: rpt-001');
      const messagesText = (await page.locator('.part-list.messages').textContent()) ?? '';
      expect(messagesText).not.toContain('BEGIN REPORTS');
      expect(messagesText).not.toContain('Prepared by the regional finance office');
      expect(messagesText).toContain('get_reports');

      // One bar per block, tool and part, each with its count; the largest (the page block) fills its bar.
      const expected = [
        ...tokens.system.blocks,
        ...tokens.tools.each,
        ...tokens.messages.each.flatMap((message) => message.parts),
      ];
      const pieces = page.locator('.request .piece');
      expect(
        await pieces.evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-tokens')))),
      ).toEqual(expected);
      expect(await page.locator('.request .piece .token-count').allTextContents()).toEqual(
        expected.map((count) => count.toLocaleString('en-US')),
      );
      expect(await page.locator('.request .piece .token-bar .fill').count()).toBe(expected.length);
      expect(await page.locator('.system-blocks .piece[data-kind="page"] .fill').getAttribute('style')).toBe(
        'width: 100%;',
      );
      expect(await page.locator('.total-tokens').getAttribute('data-tokens')).toBe(String(tokens.total));
      await shot('call-4-request.png');

      // Provenance on click; the raw JSON one click away.
      await page.locator('.system-blocks .piece[data-kind="page"] .piece-head').click();
      const provenance = page.locator('.system-blocks .piece[data-kind="page"] .provenance-box');
      await expect.poll(() => provenance.isVisible()).toBe(true);
      expect(await provenance.textContent()).toContain('paging:reports');
      expect(await provenance.textContent()).toContain('state temp:reports:working_set');
      await page.locator('.toggle-raw').click();
      const raw = page.locator('.raw-json');
      await expect.poll(() => raw.isVisible()).toBe(true);
      expect(JSON.parse((await raw.textContent()) ?? '')).toEqual(
        JSON.parse(JSON.stringify(requestToJson(call.request))),
      );
      expect(await page.locator('.raw .copy').isVisible()).toBe(true);
      await page.screenshot({ path: join(SCREENSHOTS, 'call-4-provenance-and-raw.png') });
    });

    it('finds a text: every place in the call with its path and source, and the calls that contain it', async () => {
      await open(PAGED, { call: 4, tab: 'find' });
      await page.locator('#find-input').fill('rpt-003');
      await page.locator('#find-input').press('Enter');
      await page.locator('.place').first().waitFor();
      const call = await record(4);
      const occurrences = findInRequest(call.request, 'rpt-003', call.provenance);
      const paths = await page.locator('.place .place-path').allTextContents();
      expect(paths).toEqual(
        occurrences.map((occurrence) => (occurrence.path === 'system' ? 'system (block 2)' : occurrence.path)),
      );
      expect(paths.some((path) => /^messages\[\d+\]\.content\[\d+\]$/.test(path))).toBe(true);
      const systemKinds = await page.locator('.place[data-path="system"] .badge.kind').allTextContents();
      expect(systemKinds.length).toBeGreaterThan(0);
      expect(new Set(systemKinds)).toEqual(new Set(['page']));
      expect(await page.locator('.place mark').first().textContent()).toBe('rpt-003');
      const containing: number[] = [];
      for (const summary of await fixture.store.listModelCalls(PAGED))
        if (findInRequest((await record(summary.index)).request, 'rpt-003').length > 0) containing.push(summary.index);
      expect(
        await page.locator('.chip').evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-call')))),
      ).toEqual(containing);
      await shot('find.png');
      // A place opens the request at that piece.
      await page.locator('.place[data-path="system"] .place-path').first().click();
      await page.locator('.piece.focused[data-kind="page"]').waitFor();
    });

    it('diffs a call with the one before it: changed and identical blocks, and the common prefix', async () => {
      await open(PAGED, { call: 7, tab: 'diff' });
      await page.locator('.diff-row').first().waitFor();
      const [a, b] = [await record(6), await record(7)];
      const diff = diffCalls(a, b);
      const statuses = await page
        .locator('.diff-section[data-section="system"] .diff-row')
        .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-status')));
      expect(statuses).toEqual(diff.sections.system.map((row) => row.status));
      expect(statuses).toContain('identical');
      expect(statuses.some((status) => status !== 'identical')).toBe(true);
      const prefix = diffRequests(a.request, b.request).commonPrefix;
      expect(await page.locator('.prefix').getAttribute('data-chars')).toBe(String(prefix.chars));
      expect(await page.locator('.prefix-text').textContent()).toContain(
        `Common prefix: ${prefix.chars.toLocaleString('en-US')} of ${prefix.of.toLocaleString('en-US')} characters`,
      );
      expect(await page.locator('#diff-a').inputValue()).toBe('6');
      await shot('diff-6-7.png');
    });

    it('charts prompt tokens per call stacked by source, with page-ins and compactions marked', async () => {
      await open(PAGED, { call: 4 });
      await page.locator('svg.chart .bar-group').first().waitFor();
      const counter = await loadTokenCounter();
      const totals: number[] = [];
      for (const summary of await fixture.store.listModelCalls(PAGED)) {
        const call = await record(summary.index);
        totals.push(countRequestTokens(call.request, counter, call.provenance).total);
      }
      expect(
        await page
          .locator('svg.chart .bar-group')
          .evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-total')))),
      ).toEqual(totals);
      expect(await page.locator('svg.chart .segment[data-kind="page"]').count()).toBeGreaterThan(0);
      expect(await page.locator('svg.chart .marker.page-in').count()).toBeGreaterThan(0);
      await page.locator('svg.chart .bar-group[data-call="7"] .hit').click();
      await page.locator('.request[data-call="7"]').waitFor();
      await page.locator('.chart-section').screenshot({ path: join(SCREENSHOTS, 'chart-paged.png') });

      await open(HOSTILE, { call: 3 });
      await page.locator('svg.chart .marker.compaction').first().waitFor();
      expect(await page.locator('svg.chart .segment[data-kind="summary"]').count()).toBeGreaterThan(0);
    });

    it('shows markup in state values and model output as text, and runs none of it', async () => {
      await open(HOSTILE, { tab: 'state' });
      await page.locator('.state-value').first().waitFor();
      expect(await page.locator('tr[data-key="note"] .state-value').textContent()).toBe(SCRIPT_IN_STATE);
      expect(await page.locator('tr[data-key="user:signature"] .state-value').textContent()).toBe(MARKUP_IN_OUTPUT);
      await shot('hostile-state.png');

      await open(HOSTILE, { call: 2 });
      await page.locator('.request[data-call="2"]').waitFor();
      expect(await page.locator('.system-blocks .piece[data-kind="instruction"] pre.text').textContent()).toContain(
        `The latest note: ${SCRIPT_IN_STATE}.`,
      );
      expect(await page.locator('.system-blocks mark.mark').first().getAttribute('title')).toBe('state note (session)');
      expect(await page.locator('.part-list.messages').textContent()).toContain(MARKUP_IN_OUTPUT);
      await shot('hostile-request.png');

      await open(HOSTILE, { tab: 'timeline' });
      await page.locator('.timeline').waitFor();
      expect(await page.locator('.timeline').textContent()).toContain(`Noted. ${MARKUP_IN_OUTPUT}`);
      expect(await page.locator('.item.type-compaction').count()).toBeGreaterThan(0);
      await shot('hostile-timeline.png');

      expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
      expect(await page.locator('#main img, #main script, #main iframe').count()).toBe(0);
      expect(problems).toEqual([]);
    });

    const GREY = 'rgb(128, 128, 128)';
    const colour = (selector: string, pseudo?: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((node, which) => (globalThis as unknown as InPage).getComputedStyle(node, which).color, pseudo);
    const edited = async (index: number) => (await fixture.store.getModelCall({ ...EDITED, index }))!;

    it('shows a request a callback edited as pieces: the text as sent, what the callback wrote marked and named, separators grey', async () => {
      await open(EDITED, { call: 1 });
      await page.locator('.request[data-call="1"]').waitFor();
      const call = await edited(1);
      // Every block's text and every separator, in page order, make the system text exactly.
      expect((await page.locator('.system-blocks .sys-text').allTextContents()).join('')).toBe(call.request.system);
      expect(await page.locator('.system-blocks .piece pre.text').allTextContents()).toEqual(
        call.provenance.system.map((block) => call.request.system.slice(block.start, block.end)),
      );
      expect(await page.locator('.system-blocks .separator-row pre').allTextContents()).toEqual(['\n\n']);
      expect(await colour('.system-blocks .separator-row pre')).toBe(GREY);
      expect(await colour('.system-blocks .sep-label')).toBe(GREY);

      const marks = page.locator('.system-blocks mark.edit');
      expect(await marks.allTextContents()).toEqual(['REDACTED', APPENDED]);
      expect(await marks.nth(0).getAttribute('title')).toBe(
        'written by beforeModel callback of coordinator, in place of "Ada"',
      );
      expect(await marks.nth(1).getAttribute('title')).toBe('written by beforeModel callback of coordinator');
      expect(await marks.nth(0).getAttribute('data-by')).toBe('beforeModel callback of coordinator');
      expect(
        await marks
          .nth(0)
          .evaluate((node) => (globalThis as unknown as InPage).getComputedStyle(node, '::after').content),
      ).toBe('"✎"');
      expect(
        await marks.nth(0).evaluate((node) => (globalThis as unknown as InPage).getComputedStyle(node).backgroundColor),
      ).not.toBe('rgba(0, 0, 0, 0)');
      expect(await page.locator('.system-blocks .piece[data-kind="memory"] .edit-note').textContent()).toContain(
        '2 passages written by beforeModel callback of coordinator',
      );
      // Own text keeps its block's colour, not grey.
      expect(await colour('.system-blocks .piece[data-kind="instruction"] pre.text')).not.toBe(GREY);

      // A tool description and a text part the callback edited, the message it inserted, the tool it removed.
      expect(await page.locator('.tools .tool-description mark.edit').allTextContents()).toEqual([
        ' Keep questions short.',
      ]);
      expect(await page.locator('.messages .piece[data-kind="history"] mark.edit').getAttribute('title')).toBe(
        'written by beforeModel callback of coordinator, in place of "Ada"',
      );
      const inserted = page.locator('.messages .piece[data-kind="callback"]');
      expect(await inserted.locator('pre.text').textContent()).toBe(INSERTED);
      expect(await inserted.locator('.badge.kind').textContent()).toBe('callback');
      expect(await inserted.locator('.piece-label').textContent()).toContain(
        'added by beforeModel callback of coordinator',
      );
      expect(
        await inserted.evaluate((node) => (globalThis as unknown as InPage).getComputedStyle(node).borderLeftColor),
      ).toBe('rgb(194, 24, 91)');
      const removed = page.locator('.removed-list li.removed');
      expect(await removed.count()).toBe(1);
      expect(await removed.textContent()).toContain('debug_dump: Dumps internal state.');
      expect(await removed.textContent()).toContain('removed by beforeModel callback of coordinator');
      expect(await page.locator('.warning.edited').count()).toBe(1);
      expect(await page.locator('.warning.mismatch').count()).toBe(0);
      await shot('edited-call.png');
    });

    it('shows the answer beside the request: status, latency, usage, the response, and the wire body exactly as sent', async () => {
      await open(EDITED, { call: 1 });
      const answer = page.locator('.call-outcome .answer');
      await answer.waitFor();
      expect(await answer.getAttribute('data-status')).toBe('answered');
      expect(await answer.locator('.call-status').textContent()).toBe('answered');
      expect(
        await answer
          .locator('.call-status')
          .evaluate((node) => (globalThis as unknown as InPage).getComputedStyle(node).backgroundColor),
      ).toBe('rgb(46, 125, 50)');
      expect(await answer.locator('[data-fact="model"]').textContent()).toBe('openai / gpt-4o-mini');
      expect(await answer.locator('[data-fact="latency"]').textContent()).toBe('1.23 s');
      expect(await answer.locator('[data-fact="first-token"]').textContent()).toBe('321 ms');
      const usage = Object.fromEntries(
        await answer
          .locator('dl.usage dd')
          .evaluateAll((nodes) => nodes.map((node) => [node.getAttribute('data-usage'), node.textContent])),
      );
      expect(usage).toEqual({
        promptTokens: '812',
        cachedTokens: '512',
        cacheWriteTokens: '128',
        outputTokens: '64',
        reasoningTokens: '16',
        totalTokens: '876',
      });
      expect(await answer.locator('dl.usage dt').allTextContents()).toEqual([
        'in',
        'cache read',
        'cache write',
        'out',
        'reasoning',
        'total',
      ]);
      expect(await answer.locator('.answer-text').allTextContents()).toEqual([ANSWER]);
      expect(await answer.locator('.tool-call-out code').textContent()).toBe('researcher');
      expect(await answer.locator('.tool-call-out').getAttribute('data-call-id')).toBe('call_1');
      expect(await answer.locator('.thought pre').textContent()).toBe('The researcher knows this.');
      expect(await answer.locator('.finish').textContent()).toBe('finish reason STOP');
      // Beside the request on a wide screen.
      const [requestBox, answerBox] = [await page.locator('.call-request').boundingBox(), await answer.boundingBox()];
      expect(answerBox!.x).toBeGreaterThan(requestBox!.x + requestBox!.width - 1);

      const wire = page.locator('details.wire');
      expect(await wire.locator('.wire-pretty').isVisible()).toBe(false);
      await wire.locator('summary').click();
      await expect.poll(() => wire.locator('.wire-pretty').isVisible()).toBe(true);
      expect(await wire.locator('.wire-pretty').textContent()).toBe(JSON.stringify(JSON.parse(WIRE_BODY), null, 2));
      expect(await wire.locator('.wire-raw').isVisible()).toBe(false);
      await wire.locator('.toggle-wire-raw').click();
      await expect.poll(() => wire.locator('.wire-raw').isVisible()).toBe(true);
      expect(await wire.locator('.wire-raw').textContent()).toBe((await edited(1)).wire!.body);
      expect(await wire.locator('.wire-raw').textContent()).toBe(WIRE_BODY);
      expect(await wire.locator('.wire-pretty').isVisible()).toBe(false);
      expect(await wire.locator('[data-wire="url"]').textContent()).toBe('https://api.openai.com/v1/chat/completions');
      expect(await wire.locator('[data-wire="attempts"]').textContent()).toBe('2');
      expect(await wire.locator('[data-wire="HTTP status"]').textContent()).toBe('200');
      expect(await wire.locator('.wire-usage pre').textContent()).toContain('"cached_tokens": 512');
      expect(await wire.locator('.copy').textContent()).toBe('Copy exact body');
      await shot('edited-call-answer-and-wire.png');
    });

    it('says what became of calls that did not answer, and shows a recording whose provenance does not line up in grey', async () => {
      await open(EDITED, { call: 5 });
      await page.locator('.request[data-call="5"]').waitFor();
      expect(await page.locator('.answer .call-status').textContent()).toBe('pending');
      expect(await page.locator('.answer .pending-note').textContent()).toMatch(
        /^No answer was recorded: the process ended during the call/,
      );
      expect(await page.locator('.wire.none').textContent()).toContain('Nothing from the wire was recorded');

      await open(EDITED, { call: 3 });
      await page.locator('.request[data-call="3"]').waitFor();
      expect(await page.locator('.answer .call-status').textContent()).toBe('aborted');
      expect(await page.locator('.answer .call-error').textContent()).toBe('aborted: The run was cancelled.');
      expect(await page.locator('.answer [data-fact="latency"]').textContent()).toBe('50 ms');

      await open(EDITED, { call: 4 });
      await page.locator('.request[data-call="4"]').waitFor();
      const call = await edited(4);
      expect(await page.locator('.warning.mismatch').textContent()).toContain('does not line up');
      expect(await page.locator('.system-blocks .piece').count()).toBe(1);
      expect((await page.locator('.system-blocks .sys-text').allTextContents()).join('')).toBe(call.request.system);
      expect(await colour('.system-blocks .piece pre.text')).toBe(GREY);
      expect(await page.locator('.system-blocks .piece .badge.kind').textContent()).toBe('no source');
      expect(await colour('.messages .piece pre.text')).toBe(GREY);
      await shot('mismatched-call.png');
    });

    it('nests the sub-agent call under the tool call of call 1 that started it, with status and latency of each call', async () => {
      await open(EDITED, { tab: 'timeline' });
      await page.locator('.timeline').waitFor();
      expect(await page.locator('.timeline .invocation').count()).toBe(1);
      const rows = await page
        .locator('.timeline .item')
        .evaluateAll((nodes) =>
          nodes.map((node) => node.getAttribute('data-call') ?? node.querySelector('.badge.type')?.textContent),
        );
      expect(rows).toEqual(['message', '1', 'message', 'tool-call', '2', 'tool-result', '3', '4', 'message', '5']);
      const nested = page.locator('.item[data-call="2"]');
      expect(await nested.getAttribute('class')).toContain('nested');
      expect(await nested.getAttribute('data-parent')).toBe('1');
      expect(await nested.getAttribute('data-depth')).toBe('1');
      expect(await nested.textContent()).toContain('↳ via researcher (call 1, call_1)');
      expect(await nested.evaluate((node) => (globalThis as unknown as InPage).getComputedStyle(node).marginLeft)).toBe(
        '28px',
      );
      expect(
        await page
          .locator('.item[data-call="1"]')
          .evaluate((node) => (globalThis as unknown as InPage).getComputedStyle(node).marginLeft),
      ).toBe('0px');
      expect(await page.locator('.item[data-call="1"] .call-status').textContent()).toBe('answered');
      expect(await page.locator('.item[data-call="1"] .latency').textContent()).toBe(' 1.23 s');
      expect(await page.locator('.item[data-call="3"] .call-status').textContent()).toBe('aborted');
      expect(await page.locator('.item[data-call="5"] .call-status').textContent()).toBe('pending');
      await shot('nested-timeline.png');

      // The call opens with its parent named, one click from it; the picker says which call it was made in.
      await nested.locator('button.link').click();
      await page.locator('.request[data-call="2"]').waitFor();
      expect(await page.locator('.parent-line').textContent()).toBe('↳ via researcher (tool call call_1 of call 1)');
      expect(await page.locator('#call-select option[value="2"]').textContent()).toContain(
        '↳ via researcher in call 1',
      );
      await page.locator('.parent-link').click();
      await page.locator('.request[data-call="1"]').waitFor();
      expect(problems).toEqual([]);
    });

    it('asks for the token when the inspector has one, and sends it with every API request', async () => {
      const locked = await serveInspector({
        app: createInspectorApp({ store: fixture.store, token: 'open-sesame' }),
        port: 0,
      });
      try {
        const tab = await browser.newPage();
        await tab.goto(`${locked.url}#app=report_analyst`);
        await tab.locator('#token-form').waitFor();
        expect(await tab.locator('#status').textContent()).toMatch(/needs a token/);
        await tab.locator('#token-input').fill('open-sesame');
        await tab.locator('#token-input').press('Enter');
        await tab.locator('.session-link').first().waitFor();
        expect(await tab.locator('#token-form').isVisible()).toBe(false);
        // #token=… in the address sets it too, and leaves the address at once.
        const fresh = await browser.newPage();
        await fresh.goto(`${locked.url}#token=${encodeURIComponent('open-sesame')}&app=report_analyst`);
        await fresh.locator('.session-link').first().waitFor();
        expect(new URL(fresh.url()).hash).not.toContain('token');
        await tab.close();
        await fresh.close();
      } finally {
        await locked.close();
      }
    });

    const batches = (count: number) => Array.from({ length: count }, (_, batch) => `batch-${batch + 1}`);
    const stateKeys = () =>
      page.locator('table.state tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-key')));

    it('shows the state as it was when the chosen call was sent, keys in natural order', async () => {
      await open(BATCHES, { tab: 'state', call: 11 });
      await page.locator('table.state[data-call="11"]').waitFor();
      expect(await page.locator('.state-caption strong').textContent()).toBe('State when call 11 was sent');
      expect(await stateKeys()).toEqual([...batches(10), 'owner', 'user:lang']);
      expect(await page.locator('tr[data-key="batch-10"] .state-value').textContent()).toBe('saved 10');
      expect(await page.locator('tr[data-key="owner"] .state-writer').textContent()).toBe('no event of this session');
      await shot('state-at-call-11.png');

      await page.locator('.call-picker button[title="previous call"]').click();
      await page.locator('table.state[data-call="10"]').waitFor();
      expect(await stateKeys()).toEqual([...batches(9), 'owner', 'user:lang']);
      // The answer of the last call wrote `summary`, after the call was sent: not in its state.
      await open(BATCHES, { tab: 'state', call: SKEWED_CALL });
      await page.locator(`table.state[data-call="${SKEWED_CALL}"]`).waitFor();
      expect(await stateKeys()).toEqual([...batches(BATCH_COUNT), 'owner', 'user:lang']);
      // The event that wrote a value opens in the timeline.
      await page.locator('tr[data-key="batch-3"] .event-link').click();
      await page.locator('.item.focused[data-event-id="e-result-3"]').waitFor();
    });

    it('shows the state at a call written with operations: worked out where it can be, "not known" where it cannot', async () => {
      await open(COUNTERS, { tab: 'state', call: 2 });
      await page.locator('table.state[data-call="2"]').waitFor();
      expect(await stateKeys()).toEqual(['count', 'log', 'user:visits']);
      // count: 3 now, less the add stored after the call; log: nothing appended since.
      expect(await page.locator('tr[data-key="count"] .state-value').textContent()).toBe('2');
      expect(JSON.parse((await page.locator('tr[data-key="log"] .state-value').textContent()) ?? '')).toEqual([
        'one',
        'two',
      ]);
      expect(await page.locator('tr[data-key="count"] .state-writer').textContent()).toBe('event e-answer-1');
      // Other sessions of the user change user:visits too: its value then is not in this session.
      expect(await page.locator('tr[data-key="user:visits"] .state-value.unknown').textContent()).toContain(
        'not known',
      );
      await shot('state-at-call-operations.png');
    });

    it('lists the timeline rows of every session in time order, the message before the call it triggers', async () => {
      for (const key of [BATCHES, PAGED, HOSTILE, EDITED]) {
        await open(key, { tab: 'timeline' });
        await page.locator(`.session-head h2:text-is("Session ${key.sessionId}")`).waitFor();
        await page.locator('.timeline').waitFor();
        const times = await page
          .locator('.timeline .invocation')
          .evaluateAll((invocations) =>
            invocations.map((invocation) =>
              [...invocation.querySelectorAll('.item .when')].map((when) => Number(when.textContent?.slice(1, -1))),
            ),
          );
        for (const [number, list] of times.entries())
          expect(list, `${key.sessionId}, invocation ${number + 1}`).toEqual([...list].sort((a, b) => a - b));
      }
      await open(BATCHES, { tab: 'timeline' });
      await page.locator('.timeline').waitFor();
      const second = page.locator('.timeline .invocation').nth(1);
      expect(
        await second
          .locator('.item')
          .evaluateAll((rows) =>
            rows.map((row) => row.getAttribute('data-event-id') ?? `call ${row.getAttribute('data-call')}`),
          ),
      ).toEqual(['e-ask', 'e-summary', 'e-summary', `call ${SKEWED_CALL}`]);
      expect(
        await page
          .locator('.timeline .invocation')
          .first()
          .locator('.item')
          .evaluateAll((rows) =>
            rows.slice(0, 3).map((row) => row.getAttribute('data-event-id') ?? `call ${row.getAttribute('data-call')}`),
          ),
      ).toEqual(['e-user', 'call 1', 'e-call-1']);
    });

    const NAMES =
      '.item .who, .item code, .session-id, code.state-key, .piece-label, .session-head h2, .call-head .agent-name, .tool-call-out code';

    it('wraps agent, tool, session names and state keys between words, never inside one that fits', async () => {
      for (const width of [1400, 800]) {
        await page.setViewportSize({ width, height: 1000 });
        for (const [key, extra] of [
          [BATCHES, { tab: 'timeline' }],
          [BATCHES, { tab: 'state', call: 12 }],
          [PAGED, { tab: 'timeline' }],
          [PAGED, { call: 4 }],
          [EDITED, { call: 1 }],
        ] as const) {
          await open(key, extra);
          await page.locator('.tab-content').waitFor();
          await page.locator(`.session-head h2:text-is("Session ${key.sessionId}")`).waitFor();
          expect(
            await wordsBrokenNeedlessly(page, NAMES),
            `${key.sessionId} ${JSON.stringify(extra)} at ${width}px`,
          ).toEqual([]);
        }
      }
      await page.setViewportSize({ width: 1400, height: 1000 });
      // The long agent name wraps at an underscore, and reads as itself.
      await open(BATCHES, { tab: 'timeline' });
      const who = page.locator('.item[data-call="1"] .who');
      expect(await who.textContent()).toBe(BATCH_AGENT);
      expect(await who.locator('wbr').count()).toBe(3);
    });

    it('at 800 px wide: the sidebar stacks above the session, the chart fits its box, nothing scrolls sideways', async () => {
      const narrow = await browser.newPage({ viewport: { width: 800, height: 900 } });
      try {
        for (const [key, extra] of [
          [LONG, {}],
          [PAGED, { call: 4 }],
          [PAGED, { tab: 'timeline' }],
          [PAGED, { tab: 'diff', call: 7 }],
          [PAGED, { tab: 'find', q: 'rpt-003', call: 4 }],
          [EDITED, { call: 1 }],
          [EDITED, { tab: 'timeline' }],
          [BATCHES, { tab: 'state', call: 12 }],
        ] as const) {
          const params = new URLSearchParams({
            app: key.appName,
            user: key.userId,
            session: key.sessionId,
            ...Object.fromEntries(Object.entries(extra).map(([name, value]) => [name, String(value)])),
          });
          await narrow.goto(`${served.url}#${params.toString()}`);
          await narrow.locator('.tab-content').waitFor();
          await narrow.locator('svg.chart').waitFor();
          const seen = await widths(narrow);
          const where = `${key.sessionId} ${JSON.stringify(extra)}`;
          expect(seen.scrollWidth, where).toBeLessThanOrEqual(seen.clientWidth);
          expect(seen.sidebarBottom, where).toBeLessThanOrEqual(seen.mainTop);
          expect(seen.chart, where).toBeLessThanOrEqual(seen.chartBox);
          expect(seen.chartBoxScroll, where).toBe(0);
        }
        await narrow.goto(`${served.url}#app=${LONG.appName}&user=${LONG.userId}&session=${LONG.sessionId}`);
        await narrow.locator('svg.chart .bar-group').first().waitFor();
        expect(await narrow.locator('svg.chart .bar-group').count()).toBe(120);
        await narrow.screenshot({ path: join(SCREENSHOTS, 'narrow-800.png') });
        // Made wider, the page draws the chart again at its new width.
        const drawn = () => narrow.locator('svg.chart').evaluate((chart) => Number(chart.getAttribute('width')));
        const before = await drawn();
        await narrow.setViewportSize({ width: 1300, height: 900 });
        await expect.poll(drawn).toBeGreaterThan(before + 200);
      } finally {
        await narrow.close();
      }
    });
  });
