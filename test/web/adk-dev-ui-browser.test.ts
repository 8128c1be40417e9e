// ADK's own dev UI (the prebuilt bundle of @google/adk-devtools 2.0.0) against agentctx's ADK protocol, in Debian's
// Chromium: a session started from the chat, the agent's answer, a tool's state and artifact, a transfer, the state
// and artifact panels, and the request agentctx recorded for a model call, as the UI's trace view shows it.
// Screenshots go to test-results/screenshots/.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import { INSPECTOR_PATH } from '../../src/web/adk-dev-ui.js';
import { weatherRunner } from '../adk/weather-app.js';
import { openAdkDevUi, type AdkDevUiPage } from './adk-dev-ui-page.js';
import { hasChromium, skipWithoutChromium } from '../support/chromium.js';
import { SCREENSHOTS } from './inspector-page.js';

if (!hasChromium()) skipWithoutChromium("ADK's dev UI against agentctx");
else
  describe("ADK's dev UI against agentctx, in Chromium", () => {
    let opened: AdkDevUiPage;
    let store: SessionStoreWithCallLog;
    let url: string;
    let page: Page;
    let failures: string[] = [];

    beforeAll(async () => {
      opened = await openAdkDevUi({
        prefix: 'agentctx-adk-ui-',
        runners: (store) => [weatherRunner(store)],
        server: {
          inspectorLink: (key, call) =>
            `${INSPECTOR_PATH}#${new URLSearchParams({ app: key.appName, user: key.userId, session: key.sessionId, call: String(call) }).toString()}`,
        },
      });
      ({ store, url, page, failures } = opened);
    }, 90_000);

    afterAll(() => opened?.close());

    const send = async (text: string) => {
      const input = page.getByPlaceholder('Type a message...');
      await input.fill(text);
      await input.press('Enter');
    };

    it('chats: the answer, the tool’s state change and artifact, then a transfer to another agent', async () => {
      await page.goto(`${url}/`);
      await expect.poll(() => page.url()).toBe(`${url}/dev-ui/`);
      await page.getByPlaceholder('Type a message...').waitFor();
      await send('Weather in Paris?');
      await page.getByText('It is sunny in Paris.').waitFor();
      await page.getByText('State: last_city').waitFor();
      await page.getByText('Artifact: report.txt').waitFor();
      await send('And the forecast?');
      await page.getByText('Tomorrow: rain.').waitFor();
      await page.getByText('weather_agent → forecaster').waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'adk-dev-ui-chat.png') });
      // The session the UI created is agentctx's, in its store, with every event.
      const sessions = await store.listSessions({ appName: 'weather_agent', userId: 'user' });
      expect(sessions).toHaveLength(1);
      const session = await store.getSession({
        appName: 'weather_agent',
        userId: 'user',
        sessionId: sessions[0]?.id ?? '',
      });
      expect(session?.events.map((event) => event.author)).toEqual([
        'user',
        'weather_agent',
        'weather_agent',
        'weather_agent',
        'user',
        'weather_agent',
        'weather_agent',
        'forecaster',
      ]);
    });

    it('shows the session’s state and its artifact', async () => {
      await page.getByText('State', { exact: true }).first().click();
      await page.getByText('"Paris"').first().waitFor();
      expect(await page.getByText('last_city').count()).toBeGreaterThan(0);
      await page.screenshot({ path: join(SCREENSHOTS, 'adk-dev-ui-state.png') });
      await page.getByText('Artifacts', { exact: true }).first().click();
      await page.getByText('report.txt').first().waitFor();
    });

    it('opens a model call and shows the request agentctx recorded for it', async () => {
      await page.getByText('get_weather("Paris")').first().click();
      await page.getByText('input', { exact: true }).first().click();
      await page.getByText('Answer weather questions with get_weather.', { exact: false }).first().waitFor();
      const shown = await page.locator('body').innerText();
      const recorded = await store.getModelCall({
        appName: 'weather_agent',
        userId: 'user',
        sessionId: (await store.listSessions({ appName: 'weather_agent', userId: 'user' }))[0]?.id ?? '',
        index: 1,
      });
      // The system text the UI shows is the recorded request's, byte for byte (ADK's identity and transfer text included).
      for (const line of (recorded?.request.system ?? '').split('\n').filter((each) => each.trim() !== ''))
        expect(shown).toContain(line);
      await page.screenshot({ path: join(SCREENSHOTS, 'adk-dev-ui-request.png') });
      await page.getByText('Traces', { exact: true }).first().click();
      await page.getByText('call_llm').first().waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'adk-dev-ui-traces.png') });
      expect(failures).toEqual([]);
    });

    it('links each model call to agentctx’s inspector on the same server, which shows where every piece came from', async () => {
      const sessionId = (await store.listSessions({ appName: 'weather_agent', userId: 'user' }))[0]?.id ?? '';
      const spans = (await (await fetch(`${url}/dev/apps/weather_agent/debug/trace/session/${sessionId}`)).json()) as {
        name: string;
        attributes: Record<string, unknown>;
      }[];
      const link = spans.find((span) => span.name === 'call_llm')?.attributes['agentctx.inspector'];
      expect(link).toBe(`/inspector#app=weather_agent&user=user&session=${sessionId}&call=1`);
      await page.goto(`${url}${String(link)}`);
      const call = page.locator('.request[data-call="1"]');
      await call.waitFor();
      // The system text's blocks, each under its source: the agent's instruction first.
      await call.locator('.piece[data-kind="instruction"]').first().waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'adk-dev-ui-inspector.png') });
      expect(failures).toEqual([]);
    });
  });
