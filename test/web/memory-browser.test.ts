// Memories in the web inspector, in a real browser (issue 49): the preload_memory part of a later session's call
// shows where each memory came from (session, event, author, time), and its session and event link to that session.
// The sessions are recorded by the runner in SQLite, so the memories' provenance is read back from it.
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../src/contracts/memory-service.js';
import type { SessionStore } from '../../src/contracts/session-store.js';
import { llmAgent } from '../../src/engine/agent/define-agent.js';
import { createInMemoryMemoryService } from '../../src/engine/memory/in-memory-memory-service.js';
import { preloadMemory } from '../../src/features/memory-tools/preload-memory.js';
import { createScriptedModel } from '../../src/models/scripted/scripted-model.js';
import { createRunner } from '../../src/presets/create-runner.js';
import type { ServedInspector } from '../../src/web/serve-inspector.js';
import { hasChromium, skipWithoutChromium } from '../support/chromium.js';
import { openInspectorPage, SCREENSHOTS, type InspectorPage } from './inspector-page.js';

const SCOPE = { appName: 'app', userId: 'u' };
let remembered: MemoryEntry | undefined;

/** Session s1 states a fact and is remembered; session s2's first call carries it through preload_memory. */
async function writeMemorySessions(store: SessionStore): Promise<void> {
  const memory = createInMemoryMemoryService();
  const runner = createRunner({
    agents: llmAgent({ name: SCOPE.appName, instruction: 'Help.', extensions: [preloadMemory()] }),
    model: createScriptedModel([{ text: 'Noted.' }, { text: 'Lisbon.' }]),
    sessions: store,
    memory,
  });
  const say = async (sessionId: string, message: string) => {
    await runner.createSession({ userId: SCOPE.userId, sessionId });
    for await (const _event of runner.run({ userId: SCOPE.userId, sessionId, message }));
  };
  await say('s1', 'My favourite city is Lisbon.');
  const first = await store.getSession({ ...SCOPE, sessionId: 's1' });
  if (first !== undefined) await memory.addSessionToMemory(first);
  [remembered] = await memory.listMemories(SCOPE);
  await say('s2', 'What is my favourite city?');
}

if (!hasChromium()) skipWithoutChromium('memories in the web inspector');
else
  describe('memories in the web inspector, in Chromium', () => {
    let opened: InspectorPage;
    let served: ServedInspector;
    let page: Page;
    let problems: string[] = [];

    beforeAll(async () => {
      opened = await openInspectorPage({
        prefix: 'agentctx-web-memory-',
        apps: [SCOPE.appName],
        write: writeMemorySessions,
      });
      ({ served, page, problems } = opened);
    }, 90_000);

    afterAll(() => opened?.close());

    const openCall = async () => {
      const params = new URLSearchParams({ app: SCOPE.appName, user: SCOPE.userId, session: 's2', call: '1' });
      await page.goto(`${served.url}#${params.toString()}`);
      const head = page.locator('.request[data-call="1"] .piece[data-kind="memory"] .piece-head');
      await head.click({ timeout: 10_000 });
      return page.locator('.request[data-call="1"] .piece[data-kind="memory"] .memory-origin');
    };

    it('shows each memory’s session, event, author and time, linked to the session it came from', async () => {
      const eventId = remembered?.source?.eventId as string;
      expect(remembered).toMatchObject({ author: 'user', source: { sessionId: 's1' } });
      const origins = await openCall();
      await origins.first().waitFor({ timeout: 10_000 });
      expect(await origins.allTextContents()).toEqual([
        `memory from session s1, event ${eventId} (user, ${remembered?.timestamp})`,
      ]);
      await page
        .locator('.request[data-call="1"] .piece[data-kind="memory"]')
        .screenshot({ path: join(SCREENSHOTS, 'memory-provenance.png') });
      // The event link opens the event in its own session's timeline.
      await origins.locator('.event-link').click({ timeout: 10_000 });
      await page.locator(`.timeline [data-event-id="${eventId}"].focused`).waitFor({ timeout: 10_000 });
      expect(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('session')).toBe('s1');
      // The session link opens that session's view.
      await (await openCall()).locator('.memory-session').click({ timeout: 10_000 });
      await page.locator('.session-head h2', { hasText: /^Session s1$/ }).waitFor({ timeout: 10_000 });
      expect(new URLSearchParams(new URL(page.url()).hash.slice(1)).get('tab')).toBeNull();
      expect(problems).toEqual([]);
    }, 60_000);
  });
