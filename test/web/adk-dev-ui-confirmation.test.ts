// A tool confirmation approved in ADK's own dev UI (the prebuilt bundle of @google/adk-devtools 2.0.0), in Debian's
// Chromium, against agentctx's ADK protocol (issue 48): the run pauses on ADK's adk_request_confirmation, the UI shows
// its hint with a Confirmed box, and submitting it resumes the run, which runs the tool once and finishes.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { createAdkServer } from '../../src/server/adk/create-adk-server.js';
import type { AgentctxServer } from '../../src/server/index.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { createAdkDevUi } from '../../src/web/adk-dev-ui.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { hasChromium, launchPage, skipWithoutChromium } from '../support/chromium.js';
import { repositoryRoot } from '../support/cli.js';

const SCREENSHOTS = join(repositoryRoot, 'test-results', 'screenshots');

if (!hasChromium()) skipWithoutChromium("a confirmation in ADK's dev UI");
else
  describe("a tool confirmation approved in ADK's dev UI, in Chromium", () => {
    let dir: string;
    let store: SessionStoreWithCallLog;
    let server: AgentctxServer;
    let url: string;
    let browser: Browser;
    let page: Page;
    let moved = 0;
    const failures: string[] = [];

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'agentctx-adk-ui-confirm-'));
      store = createSqliteSessionStore({ path: join(dir, 'agentctx.db') });
      const transfer = functionTool({
        name: 'transfer',
        description: 'Moves money to another account.',
        jsonSchema: { type: 'object', properties: { amount: { type: 'number' }, to: { type: 'string' } } },
        requireConfirmation: true,
        execute: ({ amount, to }: { amount: number; to: string }) => {
          moved += 1;
          return { moved: amount, to };
        },
      });
      const model = createScriptedModel({
        rules: [
          {
            when: { afterToolResponse: 'transfer', toolResultContains: 'moved' },
            respond: { text: 'Moved 500 to ACC123.' },
          },
        ],
        responses: [{ functionCall: { name: 'transfer', args: { amount: 500, to: 'ACC123' } } }],
      });
      const runner = createRunner({ agents: llmAgent({ name: 'bank', tools: [transfer] }), model, sessions: store });
      const inspector = createInspectorApp({ store, apps: ['bank'], version: 'test' });
      server = createAdkServer({
        runners: [runner],
        pages: await createAdkDevUi({ inspector }),
        onError: (error) => failures.push(`server: ${String(error)}`),
      });
      url = (await server.listen(0)).url;
      await mkdir(SCREENSHOTS, { recursive: true });
      ({ browser, page } = await launchPage({ width: 1400, height: 900 }));
      page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
      page.on('response', (response) => {
        if (response.url().startsWith(url) && response.status() >= 500)
          failures.push(`${response.status()} ${response.url()}`);
      });
    }, 90_000);

    afterAll(async () => {
      await browser?.close();
      await server?.close();
      await store?.close();
      if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    });

    it('pauses on the call, shows ADK’s question, and finishes the run once approved', async () => {
      await page.goto(`${url}/`);
      await page.getByPlaceholder('Type a message...').waitFor();
      const input = page.getByPlaceholder('Type a message...');
      await input.fill('Move 500 to ACC123');
      await input.press('Enter');
      await page.getByText('Please approve or reject the tool call transfer()', { exact: false }).first().waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'adk-dev-ui-confirmation.png') });
      expect(moved).toBe(0);
      await page.getByText('Confirmed', { exact: true }).first().click();
      await page.getByRole('button', { name: 'Submit' }).first().click();
      await page.getByText('Moved 500 to ACC123.').first().waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'adk-dev-ui-confirmed.png') });
      expect(moved).toBe(1);
      const sessions = await store.listSessions({ appName: 'bank', userId: 'user' });
      const session = await store.getSession({ appName: 'bank', userId: 'user', sessionId: sessions[0]?.id ?? '' });
      const answer = session?.events.find(
        (event) => event.author === 'user' && JSON.stringify(event.content).includes('adk_request_confirmation'),
      );
      expect(JSON.stringify(answer?.content)).toContain('"confirmed":true');
      expect(failures).toEqual([]);
    });
  });
