// Deferred tool definitions in the web inspector, in a real browser: a call to a model that holds definitions back
// (Anthropic's form of tool search) shows them in their own section, each with its origin and whether a search in the
// history loaded it, and counts only the loaded ones. The session is recorded by the runner in SQLite.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStore } from '../../src/contracts/session-store.js';
import type { Toolset } from '../../src/contracts/tool.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { declareTool } from '../../src/engine/tools/tool.js';
import { SEARCH_TOOLS, toolSearch } from '../../src/features/tool-search/tool-search.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import type { ServedInspector } from '../../src/web/serve-inspector.js';
import { hasChromium, skipWithoutChromium } from '../support/chromium.js';
import { openInspectorPage, SCREENSHOTS, type InspectorPage } from './inspector-page.js';
const KEY = { appName: 'dev', userId: 'u', sessionId: 's' };

/** A session whose second call has a search in its history that loaded `merge_pull_request`, on a model that loads deferred tools. */
async function writeDeferredSession(store: SessionStore): Promise<void> {
  const tool = (name: string, description: string) =>
    declareTool({ name, description, parameters: { type: 'object', properties: { number: { type: 'integer' } } } });
  const github: Toolset = {
    kind: 'toolset',
    name: 'github',
    deferred: true,
    origin: { kind: 'mcp', server: 'github' },
    listTools: async () => ({
      tools: [
        tool('merge_pull_request', 'Merges a pull request into its base branch.'),
        tool('create_issue', 'Creates an issue in a repository.'),
      ],
    }),
  };
  const scripted = createScriptedModel([
    { functionCall: { id: 'search-1', name: SEARCH_TOOLS, args: { query: 'merge a pull request', limit: 1 } } },
    { text: 'Found it.' },
  ]);
  const runner = createRunner({
    agents: llmAgent({ name: 'dev', instruction: 'Help.', toolsets: [github], extensions: [toolSearch()] }),
    model: { ...scripted, loadsDeferredTools: true },
    sessions: store,
  });
  await runner.createSession({ userId: KEY.userId, sessionId: KEY.sessionId });
  for await (const _event of runner.run({ userId: KEY.userId, sessionId: KEY.sessionId, message: 'Merge PR 4.' }));
}

if (!hasChromium()) skipWithoutChromium('deferred tool definitions in the web inspector');
else
  describe('deferred tool definitions in the web inspector, in Chromium', () => {
    let opened: InspectorPage;
    let served: ServedInspector;
    let page: Page;
    let problems: string[] = [];

    beforeAll(async () => {
      opened = await openInspectorPage({
        prefix: 'agentctx-web-deferred-',
        apps: [KEY.appName],
        write: writeDeferredSession,
      });
      ({ served, page, problems } = opened);
    }, 90_000);

    afterAll(() => opened?.close());

    it('lists the held-back definitions apart from the tools, marks the one a search loaded and counts only it', async () => {
      const params = new URLSearchParams({ app: KEY.appName, user: KEY.userId, session: KEY.sessionId, call: '2' });
      await page.goto(`${served.url}#${params.toString()}`);
      const section = page.locator('.request[data-call="2"] .deferred-tools');
      await section.waitFor();
      const view = (await (await fetch(`${served.url}api/apps/dev/users/u/sessions/s/calls/2`)).json()) as {
        tokens: { deferredTools: number };
        deferredTools: { tokens: number; loaded: boolean }[];
      };
      expect(view.deferredTools.map((tool) => tool.loaded)).toEqual([true, false]);
      expect(view.tokens.deferredTools).toBe(view.deferredTools[0]?.tokens);
      expect(view.tokens.deferredTools).toBeGreaterThan(0);
      expect(await section.locator('h4').textContent()).toBe(
        `deferred tools: 2, 1 loaded by ${SEARCH_TOOLS}, ${view.tokens.deferredTools} tokens`,
      );
      const pieces = await section
        .locator('.piece')
        .evaluateAll((nodes) =>
          nodes.map((node) => [
            node.getAttribute('data-path'),
            node.getAttribute('data-tokens'),
            node.querySelector('.piece-label')?.textContent,
          ]),
        );
      expect(pieces).toEqual([
        [
          'deferredTools.declarations[0]',
          String(view.tokens.deferredTools),
          'deferredTools.declarations[0] merge_pull_request · MCP server github, tool merge_pull_request · loaded',
        ],
        [
          'deferredTools.declarations[1]',
          '0',
          'deferredTools.declarations[1] create_issue · MCP server github, tool create_issue · held back',
        ],
      ]);
      // The tools the model sees up front: search_tools only.
      expect(await page.locator('.request[data-call="2"] .tools .piece .piece-label').allTextContents()).toEqual([
        expect.stringContaining(`tools[0] ${SEARCH_TOOLS}`),
      ]);
      await section.screenshot({ path: join(SCREENSHOTS, 'deferred-tools.png') });
      expect(problems).toEqual([]);
    });
  });
