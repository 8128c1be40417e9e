// The inspector in a real browser: Debian's Chromium driven by playwright-core, on sessions written by the report
// analyst example and by an agent whose state and answers carry markup. Screenshots go to test-results/screenshots/.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
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
import { CHROMIUM_ARGS, CHROMIUM_PATH, hasChromium, skipWithoutChromium } from '../support/chromium.js';
import { repositoryRoot } from '../support/cli.js';
import { createFixtureStore, HOSTILE, MARKUP_IN_OUTPUT, PAGED, SCRIPT_IN_STATE, type InspectorFixture } from './fixtures.js';

const SCREENSHOTS = join(repositoryRoot, 'test-results', 'screenshots');

if (!hasChromium()) skipWithoutChromium('the web inspector in a browser');
else describe('the web inspector in Chromium', () => {
  let fixture: InspectorFixture;
  let served: ServedInspector;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    fixture = await createFixtureStore();
    served = await serveInspector({ app: createInspectorApp({ store: fixture.store, apps: ['report_analyst', 'notes_app'], version: 'test' }), port: 0 });
    await mkdir(SCREENSHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' || /Refused to/.test(message.text())) problems.push(`console ${message.type()}: ${message.text()}`);
    });
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
    expect(await blocks.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-kind')))).toEqual(['instruction', 'page', 'identity']);
    const pageBlock = call.provenance.system[1]!;
    const pageText = await page.locator('.system-blocks .piece[data-kind="page"] pre.text').textContent();
    expect(pageText).toBe(call.request.system.slice(pageBlock.start, pageBlock.end));
    expect(pageText).toContain('--- BEGIN REPORTS (10: rpt-001');
    const messagesText = (await page.locator('.part-list.messages').textContent()) ?? '';
    expect(messagesText).not.toContain('BEGIN REPORTS');
    expect(messagesText).not.toContain('Prepared by the regional finance office');
    expect(messagesText).toContain('get_reports');

    // One bar per block, tool and part, each with its count; the largest (the page block) fills its bar.
    const expected = [...tokens.system.blocks, ...tokens.tools.each, ...tokens.messages.each.flatMap((message) => message.parts)];
    const pieces = page.locator('.request .piece');
    expect(await pieces.evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-tokens'))))).toEqual(expected);
    expect(await page.locator('.request .piece .token-count').allTextContents()).toEqual(expected.map((count) => count.toLocaleString('en-US')));
    expect(await page.locator('.request .piece .token-bar .fill').count()).toBe(expected.length);
    expect(await page.locator('.system-blocks .piece[data-kind="page"] .fill').getAttribute('style')).toBe('width: 100%;');
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
    expect(JSON.parse((await raw.textContent()) ?? '')).toEqual(JSON.parse(JSON.stringify(requestToJson(call.request))));
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
    expect(paths).toEqual(occurrences.map((occurrence) => (occurrence.path === 'system' ? 'system (block 2)' : occurrence.path)));
    expect(paths.some((path) => /^messages\[\d+\]\.content\[\d+\]$/.test(path))).toBe(true);
    const systemKinds = await page.locator('.place[data-path="system"] .badge.kind').allTextContents();
    expect(systemKinds.length).toBeGreaterThan(0);
    expect(new Set(systemKinds)).toEqual(new Set(['page']));
    expect(await page.locator('.place mark').first().textContent()).toBe('rpt-003');
    const containing: number[] = [];
    for (const summary of await fixture.store.listModelCalls(PAGED)) if (findInRequest((await record(summary.index)).request, 'rpt-003').length > 0) containing.push(summary.index);
    expect(await page.locator('.chip').evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-call'))))).toEqual(containing);
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
    const statuses = await page.locator('.diff-section[data-section="system"] .diff-row').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-status')));
    expect(statuses).toEqual(diff.sections.system.map((row) => row.status));
    expect(statuses).toContain('identical');
    expect(statuses.some((status) => status !== 'identical')).toBe(true);
    const prefix = diffRequests(a.request, b.request).commonPrefix;
    expect(await page.locator('.prefix').getAttribute('data-chars')).toBe(String(prefix.chars));
    expect(await page.locator('.prefix-text').textContent()).toContain(`Common prefix: ${prefix.chars.toLocaleString('en-US')} of ${prefix.of.toLocaleString('en-US')} characters`);
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
    expect(await page.locator('svg.chart .bar-group').evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('data-total'))))).toEqual(totals);
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
    expect(await page.locator('.system-blocks .piece[data-kind="instruction"] pre.text').textContent()).toContain(`The latest note: ${SCRIPT_IN_STATE}.`);
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

  it('asks for the token when the inspector has one, and sends it with every API request', async () => {
    const locked = await serveInspector({ app: createInspectorApp({ store: fixture.store, token: 'open-sesame' }), port: 0 });
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
});
