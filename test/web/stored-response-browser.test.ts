// A call that continues a response OpenAI stores (previous_response_id) in the web inspector, in Chromium (issue 51):
// its wire panel says plainly that the server holds the conversation before the body, which carries only the rest;
// a body that carries the whole conversation says nothing of the kind.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import type { SessionKey } from '../../src/contracts/session.js';
import type { ServedInspector } from '../../src/web/serve-inspector.js';
import { hasChromium, skipWithoutChromium } from '../support/chromium.js';
import { openInspectorPage, type InspectorPage } from './inspector-page.js';

const KEY: SessionKey = { appName: 'stored_app', userId: 'u1', sessionId: 'stored' };

async function writeStoredSession(store: SessionStoreWithCallLog): Promise<void> {
  await store.createSession({ ...KEY });
  const bodies = [
    { model: 'gpt-5', store: true, input: [{ role: 'user', content: 'Hi.' }] },
    { model: 'gpt-5', store: true, previous_response_id: 'resp_1', input: [{ role: 'user', content: 'Again.' }] },
  ];
  for (const [index, body] of bodies.entries())
    await store.recordModelCall({
      ...KEY,
      call: {
        invocationId: `inv-${index + 1}`,
        agent: 'chat',
        timestamp: 1_770_000_000 + index,
        model: { provider: 'openai', modelId: 'gpt-5' },
        request: { system: '', tools: [], messages: [{ role: 'user', content: [{ text: 'Hi.' }] }], config: {} },
        provenance: { system: [], tools: [], messages: [[{ kind: 'custom', processor: 'test', agent: 'chat' }]] },
        editedByCallback: false,
        status: 'answered',
        latencyMs: 10,
        response: { content: { role: 'model', parts: [{ text: 'Hello.' }] } },
        wire: {
          url: 'https://api.openai.com/v1/responses',
          method: 'POST',
          body: JSON.stringify(body),
          status: 200,
          attempts: 1,
        },
      },
    });
}

if (!hasChromium()) skipWithoutChromium('a stored OpenAI response in the web inspector');
else
  describe('a call that continues a stored response, in the web inspector', () => {
    let opened: InspectorPage;
    let served: ServedInspector;
    let page: Page;
    let problems: string[] = [];

    beforeAll(async () => {
      opened = await openInspectorPage({
        prefix: 'agentctx-web-stored-',
        apps: ['stored_app'],
        write: writeStoredSession,
      });
      ({ served, page, problems } = opened);
    }, 90_000);

    afterAll(() => opened?.close());

    const wireOf = async (call: number) => {
      const params = new URLSearchParams({
        app: KEY.appName,
        user: KEY.userId,
        session: KEY.sessionId,
        call: String(call),
      });
      await page.goto(`${served.url}#${params.toString()}`);
      await page.locator(`.request[data-call="${call}"]`).waitFor();
      const wire = page.locator('details.wire');
      await wire.locator('summary').click();
      return wire;
    };

    it('says the server holds the rest when the body continues a stored response, and nothing otherwise', async () => {
      expect(await (await wireOf(1)).locator('.wire-held').count()).toBe(0);
      const held = (await wireOf(2)).locator('.wire-held');
      await held.waitFor();
      expect(await held.textContent()).toBe(
        'The server holds the conversation up to response resp_1 (previous_response_id): this body carries only what came after it.',
      );
      expect(problems).toEqual([]);
    }, 60_000);
  });
