import { UsageError } from '../contracts/errors/usage-error.js';
import type { Runner } from '../engine/runner/runner.js';
import { HttpError } from './http-error.js';
import { createHttpHost, type AgentctxServer, type HostSettings } from './http-host.js';
import { checkBodyHeaders } from './read-json-body.js';
import type { NewSessionDefaults, RouteContext } from './route-context.js';
import { matchRoute } from './routes.js';

export type { AgentctxServer, ServerAddress } from './http-host.js';
export { DEFAULT_SHUTDOWN_GRACE_MS } from './http-host.js';

export type ServerOptions = HostSettings & {
  /** Answers every turn; its app name is the only `{app}` this server serves. */
  runner: Runner;
  /**
   * What every session created through `POST …/sessions` starts with: state under the request's own, and artifacts
   * (which need the runner's artifact store).
   */
  newSessions?: NewSessionDefaults | undefined;
};

/**
 * An HTTP server for a runner: sessions, turns as server-sent events, recorded model calls.
 *
 * @example
 * const server = createServer({ runner: createRunner({ agents, sessions }) });
 * const { url } = await server.listen(8080);
 * process.once('SIGTERM', () => void server.close());
 */
export function createServer(options: ServerOptions): AgentctxServer {
  const { runner, newSessions } = options;
  if ((newSessions?.artifacts?.length ?? 0) > 0 && runner.artifacts === undefined) {
    throw new UsageError(
      'newSessions.artifacts needs an artifact store, and the runner has none.',
      'Pass `artifacts` to createRunner.',
    );
  }
  return createHttpHost(options, {
    async dispatch(request) {
      const { req, url } = request;
      const { handler, params } = matchRoute(req.method ?? 'GET', url.pathname);
      if (params['app'] !== undefined && params['app'] !== runner.appName) {
        throw new HttpError(
          404,
          'app_not_found',
          `App '${params['app']}' is not served here; this server serves '${runner.appName}'.`,
          {
            hint: `Use /apps/${encodeURIComponent(runner.appName)}/…`,
          },
        );
      }
      // Checked here for every route that may change state, so no handler can forget it (see checkBodyHeaders).
      if (req.method !== 'GET' && req.method !== 'HEAD') checkBodyHeaders(req, req.method !== 'DELETE');
      const context: RouteContext = { ...request, params, runner, newSessions };
      return handler(context);
    },
  });
}
