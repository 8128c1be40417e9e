// A tool confirmation approved in ADK's own dev UI (the prebuilt bundle of @google/adk-devtools 2.0.0), in Debian's
// Chromium, against agentctx's ADK protocol (issue 48): the run pauses on ADK's adk_request_confirmation, the UI shows
// its hint with a Confirmed box, and submitting it resumes the run, which runs the tool once and finishes.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';
import { createScriptedModel } from '../../src/models/scripted/index.js';
import { createRunner } from '../../src/presets/create-runner.js';
import { openAdkDevUi, type AdkDevUiPage } from './adk-dev-ui-page.js';
import { hasChromium, skipWithoutChromium } from '../support/chromium.js';
import { SCREENSHOTS } from './inspector-page.js';

if (!hasChromium()) skipWithoutChromium("a confirmation in ADK's dev UI");
else
  describe("a tool confirmation approved in ADK's dev UI, in Chromium", () => {
    let opened: AdkDevUiPage;
    let store: SessionStoreWithCallLog;
    let url: string;
    let page: Page;
    let failures: string[] = [];
    let moved = 0;

    beforeAll(async () => {
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
      opened = await openAdkDevUi({
        prefix: 'agentctx-adk-ui-confirm-',
        runners: (sessions) => [
          createRunner({ agents: llmAgent({ name: 'bank', tools: [transfer] }), model, sessions }),
        ],
      });
      ({ store, url, page, failures } = opened);
    }, 90_000);

    afterAll(() => opened?.close());

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
