import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import type { Runner } from '../../src/engine/runner/runner.js';
import { createAdkServer, type AdkServerOptions } from '../../src/server/adk/create-adk-server.js';
import type { AgentctxServer } from '../../src/server/index.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { createAdkDevUi } from '../../src/web/adk-dev-ui.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import { launchPage } from '../support/chromium.js';
import { SCREENSHOTS } from './inspector-page.js';

/** ADK's dev UI served by agentctx's ADK server over a SQLite store in a folder of its own, and a Chromium page. */
export type AdkDevUiPage = {
  dir: string;
  store: SessionStoreWithCallLog;
  server: AgentctxServer;
  url: string;
  browser: Browser;
  page: Page;
  /** What failed on agentctx's side (the server's errors, answers `failOn` names) and in the page itself. */
  failures: string[];
  close(): Promise<void>;
};

export async function openAdkDevUi(options: {
  prefix: string;
  /** The apps served, on the store. */
  runners(store: SessionStoreWithCallLog): Runner[];
  /** More of the server's options (`evalDir` is given a folder inside the test's folder when `true`). */
  server?: Omit<AdkServerOptions, 'runners' | 'pages' | 'onError' | 'evalDir'> & { evalDir?: boolean };
  /** Which answers count as failures (default: 5xx). */
  failOn?: (response: Response) => boolean;
}): Promise<AdkDevUiPage> {
  const dir = await mkdtemp(join(tmpdir(), options.prefix));
  const store = createSqliteSessionStore({ path: join(dir, 'agentctx.db') });
  const failures: string[] = [];
  const runners = options.runners(store);
  const inspector = createInspectorApp({ store, apps: runners.map((runner) => runner.appName), version: 'test' });
  const { evalDir, ...rest } = options.server ?? {};
  const server = createAdkServer({
    ...rest,
    runners,
    pages: await createAdkDevUi({ inspector }),
    ...(evalDir === true ? { evalDir: join(dir, 'agents') } : {}),
    onError: (error) => failures.push(`server: ${String(error)}`),
  });
  const url = (await server.listen(0)).url;
  await mkdir(SCREENSHOTS, { recursive: true });
  const { browser, page } = await launchPage({ width: 1400, height: 900 });
  const failOn = options.failOn ?? ((response: Response) => response.status() >= 500);
  page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
  // A dialog is nothing these pages should open: noted, and dismissed so the page goes on.
  page.on('dialog', (dialog) => {
    failures.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  page.on('response', (response) => {
    if (response.url().startsWith(url) && failOn(response)) failures.push(`${response.status()} ${response.url()}`);
  });
  return {
    dir,
    store,
    server,
    url,
    browser,
    page,
    failures,
    async close() {
      await browser.close();
      await server.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
