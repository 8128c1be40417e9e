import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { createInspectorApp } from '../../src/web/inspector-app.js';
import type { NamedComparison } from '../../src/web/comparison-routes.js';
import { serveInspector, type ServedInspector } from '../../src/web/serve-inspector.js';
import { launchPage } from '../support/chromium.js';
import { repositoryRoot } from '../support/cli.js';

/** Where the browser tests save their screenshots. */
export const SCREENSHOTS: string = join(repositoryRoot, 'test-results', 'screenshots');

/** A SQLite store in a folder of its own, written by `write`, served by the inspector, and a Chromium page. */
export type InspectorPage = {
  dir: string;
  store: SessionStoreWithCallLog;
  served: ServedInspector;
  browser: Browser;
  page: Page;
  problems: string[];
  close(): Promise<void>;
};

export async function openInspectorPage(options: {
  prefix: string;
  apps: string[];
  /** Writes the sessions; may give comparisons of runs it made for the inspector to show. */
  write(store: SessionStoreWithCallLog): Promise<void | { comparisons: NamedComparison[] }>;
}): Promise<InspectorPage> {
  const dir = await mkdtemp(join(tmpdir(), options.prefix));
  const store = createSqliteSessionStore({ path: join(dir, 'agentctx.db') });
  const written = await options.write(store);
  const served = await serveInspector({
    app: createInspectorApp({
      store,
      apps: options.apps,
      version: 'test',
      ...(written === undefined ? {} : { comparisons: written.comparisons }),
    }),
    port: 0,
  });
  await mkdir(SCREENSHOTS, { recursive: true });
  const { browser, page, problems } = await launchPage();
  return {
    dir,
    store,
    served,
    browser,
    page,
    problems,
    async close() {
      await browser.close();
      await served.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
