import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Model } from '../../contracts/model.js';
import type { SessionKey } from '../../contracts/session.js';
import { UsageError } from '../../contracts/errors/usage-error.js';
import type { Runner } from '../../engine/runner/runner.js';
import { createHttpHost, type AgentctxServer, type HostSettings } from '../http-host.js';
import { checkBodyHeaders } from '../read-json-body.js';
import { adkErrorBody } from './adk-errors.js';
import { matchAdkRoute } from './adk-routes.js';
import { EvalFiles } from './eval-files.js';
import { SessionNotes } from './session-notes.js';

export type AdkServerOptions = HostSettings & {
  /** The apps served: each runner under its app name (its root agent's name). */
  runners: readonly Runner[];
  /** What `GET /version` answers. Default `agentctx`. */
  version?: string;
  /**
   * Pages served beside the routes (ADK's dev UI: `createAdkDevUi()` from `agentctx/web`): asked first for every
   * request, it answers the ones that are its own and says so.
   */
  pages?: { serve(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> } | undefined;
  /** A link to a recorded call in agentctx's inspector, put in the call's trace attributes (`agentctx.inspector`). */
  inspectorLink?: ((key: SessionKey, call: number) => string) | undefined;
  /**
   * The folder of eval sets and their results, laid out as ADK's agents folder (`<dir>/<app>/<id>.evalset.json`,
   * results in `<dir>/<app>/.adk/eval_history/`): the eval routes the dev UI's eval tab uses. Without it they answer
   * 404 (naming this option), and the dev UI hides its eval tab.
   */
  evalDir?: string | undefined;
  /**
   * The judge model of the LLM-judged metrics an eval run may ask for (`final_response_match_v2`, `hallucinations_v1`,
   * the rubric-based ones); without it `metrics-info` does not offer them and a run that asks for one is refused (400).
   */
  judge?: Model | undefined;
};

/**
 * ADK's HTTP API over agentctx runners, so ADK's dev UI and clients work against agentctx: `/list-apps`, sessions
 * (with PATCH of state), artifacts, `/run` and `/run_sse`, the trace routes (from the recorded model calls), the
 * agent graph and, with `evalDir`, the eval routes (eval sets, cases, runs and their results). ADK's JSON throughout: camelCase events and sessions, `{ "error": message }` errors. The same access
 * rules as agentctx's own API: loopback only, unless a bearer token is set.
 *
 * @example
 * const server = createAdkServer({ runners: [createRunner({ agents, sessions })] });
 * await server.listen(8000);
 */
export function createAdkServer(options: AdkServerOptions): AgentctxServer {
  const apps = new Map<string, Runner>();
  for (const runner of options.runners) {
    if (apps.has(runner.appName))
      throw new UsageError(
        `Two agents are both named '${runner.appName}'; each app needs a name of its own.`,
        'Rename one root agent.',
      );
    apps.set(runner.appName, runner);
  }
  if (apps.size === 0) throw new UsageError('An ADK server needs at least one runner to serve.');
  const version = options.version ?? 'agentctx';
  const seen = new SessionNotes();
  const evals = options.evalDir === undefined ? undefined : new EvalFiles(options.evalDir);
  return createHttpHost(options, {
    async dispatch(request) {
      const { req, url } = request;
      if (options.pages !== undefined && (await options.pages.serve(req, request.res, url.pathname))) return undefined;
      const { handler, params } = matchAdkRoute(req.method ?? 'GET', url.pathname);
      // A body, where one comes, must be JSON; ADK's clients send none to create a session.
      if (req.method !== 'GET' && req.method !== 'HEAD') checkBodyHeaders(req, false);
      return handler({
        ...request,
        params,
        apps,
        version,
        seen,
        inspectorLink: options.inspectorLink,
        evals,
        judge: options.judge,
      });
    },
    errorBody: adkErrorBody,
  });
}
