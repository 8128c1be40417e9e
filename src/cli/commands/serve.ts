import { resolve } from 'node:path';
import { UsageError } from '../../contracts/errors/usage-error.js';
import { createAdkServer } from '../../server/adk/create-adk-server.js';
import { createServer, type AgentctxServer } from '../../server/create-server.js';
import type { SessionKey } from '../../contracts/session.js';
import { loadWeb } from '../load-web.js';
import { unboundToolsWarning } from '../unbound-tools.js';
import type { AgentTree } from '../../contracts/agent.js';
import { packageVersion } from '../package-version.js';
import { parseCommandArgs } from '../args.js';
import { EMBED_HELP, PROFILE_HELP, profileChoice, REMEMBER_HELP, rememberChoice } from '../profile-option.js';
import { BINDINGS_HELP } from '../bindings-option.js';
import type { CliIo, Command } from '../io.js';
import { HTTP_TIMEOUT_HELP, httpTimeoutOptions, listenError, listenOptions } from '../listen-options.js';
import { DEFAULT_STORE } from '../resolve-store.js';
import type { CliRuntime } from '../runtime.js';
import { readSessionSeed } from '../session-seed.js';
import { timeLimitHelp, timeLimitOptions } from '../time-limits.js';

// A server bounds every turn by default: an endless model stream or a hung tool cannot hold a request (and a
// graceful shutdown) forever.
const DEFAULT_MODEL_TIMEOUT_MS = 600_000;
const DEFAULT_TOOL_TIMEOUT_MS = 600_000;

const HELP = `Usage: agentctx serve <agent-file-or-module> [options]
       agentctx serve --protocol adk <agent-file-or-module>... [options]

Serves an agent over HTTP: create sessions, send messages and watch the turn's
events stream back (server-sent events), read events and the exact request of
every model call. The same store as 'agentctx run' and 'agentctx inspect', and
nothing kept between requests, so several servers can share one database.

<agent-file-or-module>
  a YAML/JSON agent file, or a JavaScript or TypeScript module exporting an agent
  definition (default or 'agent'); its root agent's name is the app in every path

With --protocol adk it speaks Google ADK's API server protocol instead ('adk
api_server'), for ADK's dev UI and clients: several agents, one app each
(/list-apps, /run, /run_sse, sessions with PATCH of state, artifacts, the trace
routes from the recorded calls, eval sets and runs); docs/adk-compatibility.md
lists the routes and every difference from ADK's own servers.

Options:
  --protocol <p>     agentctx (default: the API below) or adk
  --dev-ui           with --protocol adk: also serve ADK's dev UI at /dev-ui/
                     (from @google/adk-devtools, which must be installed)
                     and agentctx's inspector at /inspector
  --eval-dir <dir>   with --protocol adk: where the eval routes (the dev UI's
                     eval tab) keep eval sets and results, laid out as ADK's
                     agents folder: <dir>/<app>/<id>.evalset.json, results in
                     <dir>/<app>/.adk/eval_history/ (default: the current
                     folder, as 'adk web' takes it for its agents folder)
  --judge <model>    with --protocol adk: the judge of the LLM-judged metrics
                     the eval tab offers then (final_response_match_v2,
                     hallucinations_v1); e.g. google:gemini-2.5-flash
  --store <path|url> where sessions live (default: ${DEFAULT_STORE}):
                     a SQLite file, 'memory' (kept until the server stops),
                     or postgres://user@host/db
  --port <n>         port to listen on (default: 8080; 0 picks a free one)
  --host <addr>      address to bind (default: 127.0.0.1); anything other than
                     loopback needs a token
  --token <t>        require 'Authorization: Bearer <t>' on every request
                     (default: $AGENTCTX_TOKEN; prefer the variable, since
                     arguments show in process lists)
  --allow-origin <o> let web pages of origin <o> (https://app.example, or *
                     for any) send requests that change something; without
                     it such requests from other origins' pages get 403
                     (repeatable)
  --model <name>     the model for every agent (default: each agent's own);
                     the forms of 'agentctx run --help', e.g. scripted:<file>
  --state <file>     YAML/JSON mapping of state every new session starts with
                     (under the state its POST gives, which wins)
  --artifact <name=path>
                     a file every new session starts with as an artifact
                     (repeatable)
  --stream           also send the model's text as it arrives (event: partial);
                     with --protocol adk each request's 'streaming' decides
${PROFILE_HELP}
${REMEMBER_HELP}
${EMBED_HELP}
${BINDINGS_HELP}
${timeLimitHelp({ model: String(DEFAULT_MODEL_TIMEOUT_MS), tool: String(DEFAULT_TOOL_TIMEOUT_MS) })}
${HTTP_TIMEOUT_HELP}
  -h, --help         show this help

It prints one line, 'listening on <url> (app <name>)', once it is ready.
Ctrl-C or SIGTERM stops it gracefully: new requests get 503, running turns
finish, then it exits 0 (a request still sending its body gets 5 s). A second
Ctrl-C aborts the running turns.

Request bodies are JSON ('Content-Type: application/json'): a POST or PUT
without one is refused (400 missing_body, 415 unsupported_media_type).

Endpoints (JSON unless noted; docs/server.md has them all):
  GET    /healthz
  POST   /apps/{app}/users/{user}/sessions              { sessionId?, state? }
  GET    /apps/{app}/users/{user}/sessions
  GET    /apps/{app}/users/{user}/sessions/{id}[?limit=N]
  DELETE /apps/{app}/users/{user}/sessions/{id}
  POST   /apps/{app}/users/{user}/sessions/{id}/run     { message, stateDelta? } → event stream
  GET    /apps/{app}/users/{user}/sessions/{id}/events[?limit=N][&after=T][&afterRevision=R]
  GET    /apps/{app}/users/{user}/sessions/{id}/calls
  GET    /apps/{app}/users/{user}/sessions/{id}/calls/{n}
  GET    /apps/{app}/users/{user}/sessions/{id}/artifacts
  GET    /apps/{app}/users/{user}/sessions/{id}/artifacts/{name}[?version=N]
  PUT    /apps/{app}/users/{user}/sessions/{id}/artifacts/{name}
                                       { text, mimeType? } | { base64, mimeType }
  DELETE /apps/{app}/users/{user}/sessions/{id}/artifacts/{name}

Examples:
  agentctx serve examples/draft-and-review/pipeline.yaml --model scripted:examples/draft-and-review/script.yaml
  A=http://127.0.0.1:8080/apps/draft_and_review/users/ann/sessions
  curl -X POST $A -H 'content-type: application/json' -d '{"sessionId":"s1"}'
  curl -N -X POST $A/s1/run -H 'content-type: application/json' -d '{"message":"Write about X"}'
  curl $A/s1/events
  curl $A/s1/calls/2
  agentctx serve --protocol adk examples/draft-and-review/pipeline.yaml --model scripted:examples/draft-and-review/script.yaml
  curl http://127.0.0.1:8080/list-apps
  AGENTCTX_TOKEN=secret agentctx serve agent.yaml --host 0.0.0.0
  curl -H 'authorization: Bearer secret' http://host:8080/healthz
`;

export const serveCommand: Command = {
  name: 'serve',
  help: HELP,
  async run(args: string[], io: CliIo, runtime: CliRuntime): Promise<number> {
    const { values, positionals } = parseCommandArgs('serve', args, {
      protocol: { type: 'string' },
      'dev-ui': { type: 'boolean' },
      'eval-dir': { type: 'string' },
      judge: { type: 'string' },
      store: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      model: { type: 'string' },
      state: { type: 'string' },
      artifact: { type: 'string', multiple: true },
      stream: { type: 'boolean' },
      'model-timeout': { type: 'string' },
      profile: { type: 'string' },
      remember: { type: 'string' },
      embed: { type: 'string' },
      bindings: { type: 'string' },
      'tool-timeout': { type: 'string' },
      'request-timeout': { type: 'string' },
      'headers-timeout': { type: 'string' },
    });
    const protocol = values.protocol ?? 'agentctx';
    if (protocol !== 'agentctx' && protocol !== 'adk')
      throw new UsageError(`--protocol must be agentctx or adk, got '${protocol}'.`);
    const [file, ...extra] = positionals;
    if (file === undefined)
      throw new UsageError(
        'serve needs an agent file or module.',
        "Run 'agentctx serve --help' for the forms it takes.",
      );
    if (values['eval-dir'] !== undefined && protocol !== 'adk')
      throw new UsageError('--eval-dir needs --protocol adk: the eval routes are ADK’s.');
    if (values.judge !== undefined && protocol !== 'adk')
      throw new UsageError('--judge needs --protocol adk: it judges the metrics of ADK’s eval routes.');
    if (values['dev-ui'] === true && protocol !== 'adk')
      throw new UsageError('--dev-ui needs --protocol adk: ADK’s dev UI speaks ADK’s protocol.');
    if (extra.length > 0 && protocol !== 'adk')
      throw new UsageError(
        `serve takes one agent file, got ${positionals.length}.`,
        'Serve several agents as several apps with --protocol adk.',
      );
    const { port, host, token } = listenOptions(values, io.env, { port: 8080, service: 'server' });
    const timeouts = { ...httpTimeoutOptions(values), allowedOrigins: allowedOrigins(values['allow-origin'] ?? []) };
    const limits = {
      ...timeLimitOptions(values, { modelTimeoutMs: DEFAULT_MODEL_TIMEOUT_MS, toolTimeoutMs: DEFAULT_TOOL_TIMEOUT_MS }),
      ...profileChoice(values.profile),
      ...rememberChoice(values.remember),
      ...(values.embed === undefined ? {} : { embed: values.embed }),
      bindings: values.bindings,
    };
    const onError = (error: unknown) =>
      io.stderr(
        `agentctx serve: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );

    if (protocol === 'adk') {
      if (values.state !== undefined || values.artifact !== undefined)
        throw new UsageError(
          '--state and --artifact are not taken with --protocol adk.',
          "ADK's clients give a new session its state themselves.",
        );
      // One store for every app, so the inspector (and `--store memory`) sees them all.
      const first = await runtime.runner(file, {
        store: values.store,
        model: values.model,
        streaming: true,
        ...limits,
      });
      const runners = [first.runner];
      for (const each of extra)
        runners.push(
          (
            await runtime.runner(each, {
              store: values.store,
              model: values.model,
              streaming: true,
              ...limits,
              stores: first,
            })
          ).runner,
        );
      const apps = runners.map((runner) => runner.appName);
      for (const each of runners) warnUnboundTools(each, io);
      // The dev UI's pages need Hono (an optional package), loaded only when asked for.
      const web = values['dev-ui'] === true ? await loadWeb() : undefined;
      const inspector = web?.createInspectorApp({
        store: first.sessions,
        apps,
        token,
        version: packageVersion(),
        onError,
      });
      const pages = web === undefined || inspector === undefined ? undefined : await web.createAdkDevUi({ inspector });
      const inspectorLink =
        web === undefined
          ? undefined
          : (key: SessionKey, call: number) =>
              `${web.INSPECTOR_PATH}#${new URLSearchParams({ app: key.appName, user: key.userId, session: key.sessionId, call: String(call) }).toString()}`;
      const server = createAdkServer({
        runners,
        token,
        version: packageVersion(),
        pages,
        inspectorLink,
        evalDir: resolve(io.cwd, values['eval-dir'] ?? '.'),
        ...(values.judge === undefined ? {} : { judge: await runtime.model(values.judge) }),
        ...timeouts,
        onError,
      });
      const { url } = await server.listen(port, host).catch((error: unknown) => {
        throw listenError(error, host, port);
      });
      io.stdout(
        `listening on ${url} (ADK protocol; app${runners.length === 1 ? '' : 's'} ${runners.map((runner) => runner.appName).join(', ')})\n`,
      );
      if (web !== undefined && pages !== undefined)
        io.stdout(`ADK dev UI on ${url}${web.ADK_DEV_UI_PATH}, agentctx's inspector on ${url}${web.INSPECTOR_PATH}\n`);
      await untilStopped(server, io);
      return 0;
    }

    const newSessions = await readSessionSeed(values, io.cwd);
    const { runner } = await runtime.runner(file, {
      store: values.store,
      model: values.model,
      streaming: values.stream === true,
      ...limits,
    });
    warnUnboundTools(runner, io);
    const server = createServer({ runner, token, newSessions, ...timeouts, onError });
    const { url } = await server.listen(port, host).catch((error: unknown) => {
      throw listenError(error, host, port);
    });
    io.stdout(`listening on ${url} (app ${runner.appName})\n`);
    await untilStopped(server, io);
    return 0;
  },
};

// The first SIGINT or SIGTERM closes gracefully; a second one aborts the turns still running.
function untilStopped(server: AgentctxServer, io: CliIo): Promise<void> {
  return new Promise((resolve, reject) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        io.stderr(`${signal}: aborting the running turns\n`);
        server.abortTurns();
        return;
      }
      stopping = true;
      const running = server.activeRequests;
      io.stderr(
        `${signal}: shutting down${running === 0 ? '' : `, waiting for ${running} request${running === 1 ? '' : 's'} in flight`}\n`,
      );
      server.close().then(() => {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        resolve();
      }, reject);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

/** `--allow-origin` values: `*`, or origins as a browser sends them (scheme, host and port; no path). */
function allowedOrigins(values: readonly string[]): string[] {
  for (const value of values) {
    if (value === '*') continue;
    let origin: string | undefined;
    try {
      origin = new URL(value).origin;
    } catch {
      origin = undefined;
    }
    if (origin !== value) {
      throw new UsageError(
        `--allow-origin takes an origin such as https://app.example or http://localhost:3000, got '${value}'${origin === undefined || origin === 'null' ? '' : ` (did you mean '${origin}'?)`}.`,
        'Give scheme, host and port only, without a path or a trailing slash; or * for any origin.',
      );
    }
  }
  return [...values];
}

// Said at start, on stderr: the model can call these tools, and each call gets an error.
function warnUnboundTools(runner: { tree: AgentTree; appName: string }, io: CliIo): void {
  const warning = unboundToolsWarning(runner.tree);
  if (warning !== undefined) io.stderr(`warning: app ${runner.appName}: ${warning}\n`);
}
