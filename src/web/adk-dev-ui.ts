import { readdir, readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Hono } from 'hono';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../contracts/errors/usage-error.js';
import { inspectorRequestListener } from './serve-inspector.js';

/** Where ADK's dev UI is served: its pages use relative addresses, so it needs the trailing slash. */
export const ADK_DEV_UI_PATH = '/dev-ui/';
/** Where agentctx's own inspector is served beside it (its files and API keep their own `/assets/` and `/api/`). */
export const INSPECTOR_PATH = '/inspector';

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  version: 'text/plain; charset=utf-8',
};

// The UI reads where its API is from this file; "" is its own origin, where the ADK routes are.
const RUNTIME_CONFIG = 'assets/config/runtime-config.json';

export type AdkDevUi = {
  /**
   * Answers a GET for `/`, `/dev-ui` or a file under `/dev-ui/` and, with an inspector, for `/inspector`, `/assets/…`
   * and `/api/…`; false for any other path (the ADK routes').
   */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
};

export type AdkDevUiOptions = {
  /** The bundle's folder; `dist/browser/` of the installed `@google/adk-devtools` by default. */
  bundleDir?: string | undefined;
  /** agentctx's inspector app (`createInspectorApp`), served at `/inspector` beside the UI. */
  inspector?: Hono | undefined;
};

/**
 * ADK's dev UI (the prebuilt Angular app in `@google/adk-devtools`, `dist/browser/`) served beside the ADK routes.
 * Only files that are in the bundle are served, looked up by their exact relative path, so no path from a request
 * reaches the file system; `runtime-config.json` is written here, pointing the UI at this server.
 */
export async function createAdkDevUi(options: AdkDevUiOptions = {}): Promise<AdkDevUi> {
  const dir = options.bundleDir ?? findBundle();
  const inspector = options.inspector === undefined ? undefined : inspectorRequestListener(options.inspector);
  const files = new Map<string, string>();
  for (const path of await listFiles(dir)) {
    const name = relative(dir, path).split(sep).join('/');
    if (TYPES[name.split('.').pop() ?? ''] !== undefined) files.set(name, path);
  }
  if (!files.has('index.html'))
    throw new UsageError(
      `${dir} holds no index.html, so it is not ADK's dev UI bundle.`,
      'Install @google/adk-devtools (npm install @google/adk-devtools).',
    );
  const config = Buffer.from(`${JSON.stringify({ backendUrl: '' })}\n`);
  return {
    async serve(req, res, pathname) {
      const method = req.method ?? 'GET';
      if (method !== 'GET' && method !== 'HEAD') return false;
      if (
        inspector !== undefined &&
        (pathname === INSPECTOR_PATH ||
          pathname === `${INSPECTOR_PATH}/` ||
          pathname.startsWith('/assets/') ||
          pathname.startsWith('/api/'))
      ) {
        // The inspector's page is its root; its files and API are where it expects them.
        if (pathname.startsWith(INSPECTOR_PATH)) {
          const query = (req.url ?? '').indexOf('?');
          req.url = query === -1 ? '/' : `/${(req.url ?? '').slice(query)}`;
        }
        await inspector(req, res);
        return true;
      }
      if (pathname === '/' || pathname === '/dev-ui') {
        res.writeHead(302, { location: ADK_DEV_UI_PATH, 'content-length': '0' });
        res.end();
        return true;
      }
      if (!pathname.startsWith(ADK_DEV_UI_PATH)) return false;
      const name = pathname.slice(ADK_DEV_UI_PATH.length) || 'index.html';
      const type = TYPES[name.split('.').pop() ?? ''];
      const file = files.get(name);
      if (type === undefined || (file === undefined && name !== RUNTIME_CONFIG)) return false;
      const body = name === RUNTIME_CONFIG ? config : await readFile(file as string);
      res.writeHead(200, {
        'content-type': type,
        'content-length': String(body.byteLength),
        'x-content-type-options': 'nosniff',
        'cache-control': 'no-cache',
      });
      res.end(method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}

/** `dist/browser/` of the installed `@google/adk-devtools`, found without loading the package. */
export function findBundle(): string {
  let entry: string;
  try {
    entry = fileURLToPath(import.meta.resolve('@google/adk-devtools'));
  } catch {
    throw new UsageError(
      "ADK's dev UI comes with @google/adk-devtools, which is not installed.",
      'Install it next to agentctx: npm install @google/adk-devtools',
    );
  }
  // The package's entry is dist/esm/index.js (or dist/cjs/index.js); the UI is dist/browser.
  return join(entry, '..', '..', 'browser');
}

async function listFiles(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    throw new UsageError(
      `ADK's dev UI bundle is not at ${dir}.`,
      'Install @google/adk-devtools (npm install @google/adk-devtools).',
    );
  }
  const found: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await listFiles(path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}
