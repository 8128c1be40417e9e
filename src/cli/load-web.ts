import { optionalPackage } from '../engine/util/optional-package.js';
import type { createAdkDevUi } from '../web/adk-dev-ui.js';
import type { createInspectorApp } from '../web/inspector-app.js';
import type { serveInspector } from '../web/serve-inspector.js';

type Web = {
  createInspectorApp: typeof createInspectorApp;
  serveInspector: typeof serveInspector;
  createAdkDevUi: typeof createAdkDevUi;
  ADK_DEV_UI_PATH: string;
  INSPECTOR_PATH: string;
};

/**
 * The web inspector and ADK's dev UI, loaded when a command serves them: Hono and its Node adapter are optional
 * packages, so `npm install agentctx` alone runs every other command, and these say what to install.
 */
export const loadWeb: () => Promise<Web> = optionalPackage(
  { packages: ['hono', '@hono/node-server'], purpose: 'The web inspector' },
  async () => {
    const [app, served, devUi] = await Promise.all([
      import('../web/inspector-app.js'),
      import('../web/serve-inspector.js'),
      import('../web/adk-dev-ui.js'),
    ]);
    return {
      createInspectorApp: app.createInspectorApp,
      serveInspector: served.serveInspector,
      createAdkDevUi: devUi.createAdkDevUi,
      ADK_DEV_UI_PATH: devUi.ADK_DEV_UI_PATH,
      INSPECTOR_PATH: devUi.INSPECTOR_PATH,
    };
  },
);
