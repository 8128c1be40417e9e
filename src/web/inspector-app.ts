import { Hono } from 'hono';
import { UnavailableError } from '../contracts/errors/unavailable-error.js';
import { UsageError } from '../contracts/errors/usage-error.js';
import type { ModelCallReader } from '../contracts/model-call-log.js';
import type { SessionStore } from '../contracts/session-store.js';
import type { TokenCounter } from '../contracts/tokens.js';
import { DEFAULT_PRICES } from '../analysis/cost/default-prices.js';
import type { PriceTable } from '../analysis/cost/price-table.js';
import { isModelCallLog, NO_MODEL_CALLS } from '../engine/session/call-log-of.js';
import { checkLoopbackHostHeader, createTokenCheck, type Refusal } from './access.js';
import { addApiRoutes, jsonResponse } from './api-routes.js';
import { createCacheReports } from './cache-view.js';
import { createCallLoader } from './call-loader.js';
import { createChartRows } from './chart-rows.js';
import { addComparisonRoutes, type NamedComparison } from './comparison-routes.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { createAssetFiles, DEFAULT_ASSETS_DIR } from './static-assets.js';
import { WebError } from './web-error.js';

export type InspectorOptions = {
  /** Where the sessions are; read only, through the `SessionStore` contract. */
  store: SessionStore;
  /**
   * Where their model calls are recorded; read only. The store itself when it keeps calls (the SQL and in-memory
   * stores do), else none, when absent.
   */
  callLog?: ModelCallReader | undefined;
  /** When set, every `/api/…` request needs `Authorization: Bearer <token>` (the page asks for it); required beyond loopback. */
  token?: string | undefined;
  /** Apps the page lists before anyone types one. */
  apps?: readonly string[] | undefined;
  /** Folder of the page's files (default: `assets/web/` of the package). */
  assetsDir?: string | undefined;
  /** Shown by `/api/info`. */
  version?: string | undefined;
  /** The token counter (default: the local o200k tokenizer, loaded on first use). */
  tokenCounter?: (() => Promise<TokenCounter>) | undefined;
  /** The prices calls are billed at (default: the built-in `DEFAULT_PRICES`; the CLI merges a `--prices` file into them). */
  prices?: PriceTable | undefined;
  /** Comparisons of two variants of an agent to show (`agentctx eval --compare … --json`); their sessions open here. */
  comparisons?: readonly NamedComparison[] | undefined;
  /** Where errors that are bugs (answered 500 without details) are reported. Default `console.error`. */
  onError?: ((error: unknown) => void) | undefined;
};

/**
 * The web inspector as a Hono app that does not listen (`serveInspector` does): the page and its files, and JSON
 * endpoints under `/api/` that read sessions and recorded calls through the store contract. It never writes; only
 * GET and HEAD are answered. Without a token it answers only requests addressed to a loopback name.
 *
 * @example
 * const app = createInspectorApp({ store: createSqliteSessionStore() });
 * const { url } = await serveInspector({ app, port: 0 });
 */
export function createInspectorApp(options: InspectorOptions): Hono {
  if (options.token !== undefined && options.token.trim() === '')
    throw new UsageError('The inspector token is empty.', 'Pass a non-empty token, or none.');
  if (options.token !== undefined && /\s/.test(options.token))
    throw new UsageError(
      'The inspector token contains a space, which a bearer token cannot carry.',
      'Use letters, digits and -._~+/ only.',
    );
  const checkToken = options.token === undefined ? undefined : createTokenCheck(options.token);
  const assets = createAssetFiles(options.assetsDir ?? DEFAULT_ASSETS_DIR);
  const reportError = options.onError ?? ((error: unknown) => console.error('agentctx web: unexpected error:', error));
  const app = new Hono();

  app.use('*', async (c, next) => {
    await next();
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
  });

  app.use('*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD')
      throw new WebError(405, 'read_only', 'The inspector is read-only: it answers GET and HEAD only.', {
        allow: 'GET, HEAD',
      });
    const refusal: Refusal | undefined =
      checkToken === undefined
        ? checkLoopbackHostHeader(c.req.header('host'))
        : c.req.path.startsWith('/api/')
          ? checkToken(c.req.header('authorization'))
          : undefined;
    if (refusal !== undefined) throw new WebError(refusal.status, refusal.code, refusal.message, refusal.headers);
    await next();
  });

  const log = options.callLog ?? (isModelCallLog(options.store) ? options.store : NO_MODEL_CALLS);
  const calls = createCallLoader(log, options.tokenCounter);
  addApiRoutes(app, {
    store: options.store,
    log,
    calls,
    chartRows: createChartRows(calls),
    cacheReports: createCacheReports(calls),
    apps: [...new Set(options.apps ?? [])],
    tokenRequired: checkToken !== undefined,
    version: options.version ?? '',
    prices: options.prices ?? DEFAULT_PRICES,
    comparisons: options.comparisons?.length ?? 0,
  });
  addComparisonRoutes(app, options.comparisons ?? []);

  const page = async (name: string): Promise<Response> => {
    const asset = await assets.get(name);
    if (asset === undefined) throw new WebError(404, 'not_found', `There is no file ${name} here.`);
    return new Response(asset.body, { headers: { 'content-type': asset.type, 'cache-control': 'no-cache' } });
  };
  app.get('/', () => page('index.html'));
  app.get('/assets/:name', (c) => page(c.req.param('name')));

  app.notFound((c) => {
    if (c.req.path.startsWith('/api/'))
      return jsonResponse({ error: { code: 'not_found', message: `No endpoint ${c.req.path}.` } }, 404);
    return new Response('Not found. The inspector is at /.\n', {
      status: 404,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
  });

  app.onError((error) => {
    if (error instanceof WebError)
      return jsonResponse({ error: { code: error.code, message: error.message } }, error.status, error.headers);
    // The store's database is down or saturated: the client may retry, as the API servers tell theirs.
    if (UnavailableError.isInstance(error)) {
      return jsonResponse({ error: { code: error.code, message: error.message } }, 503, {
        'retry-after': String(error.retryAfterSeconds),
      });
    }
    reportError(error);
    return jsonResponse(
      { error: { code: 'internal', message: 'The inspector failed to answer; its console has the details.' } },
      500,
    );
  });

  return app;
}
