import { UsageError } from '../../contracts/errors/usage-error.js';
import { parseCommandArgs } from '../args.js';
import type { CliIo, Command } from '../io.js';
import { HTTP_TIMEOUT_HELP, httpTimeoutOptions, listenError, listenOptions } from '../listen-options.js';
import { loadWeb } from '../load-web.js';
import { packageVersion } from '../package-version.js';
import { loadPrices } from '../prices.js';
import { readInputFile } from '../read-input-file.js';
import { parseComparison } from '../../analysis/eval/comparison-file.js';
import { DEFAULT_STORE, refuseMissingStore } from '../resolve-store.js';
import type { CliRuntime } from '../runtime.js';

const DEFAULT_PORT = 8090;

const HELP = `Usage: agentctx web [--store path|postgres://…] [--port ${DEFAULT_PORT}] [--app name]… [--prices file]
                    [--comparison file]…

Opens the web inspector: a local page that shows what every recorded model
call received and where each part of it came from. Read-only: it reads the
store and never writes to it. Nothing to build; open the URL it prints.

  Sessions   per app and user; a session's timeline of invocations, messages,
             tool calls and results, state changes (with their scope),
             transfers and compactions, with the model calls among them
  Request    a call's system text split into its blocks, its tools and
             messages, each coloured by its source (instruction, identity,
             transfer, skill, memory, page, summary, history…); click one
             for its provenance (agent, processor, field, state keys,
             artifacts, events); token counts per block as bars; the raw JSON
  Find       every place a text occurs in a call, with its path
             (messages[0].content[1]) and source, and which calls have it
  Diff       two calls (by default one and the call before it): which blocks
             changed or stayed byte-identical, and the common prefix a
             provider's prompt cache could reuse
  Chart      prompt tokens per call, stacked by source, with compactions and
             page-ins marked
  Cost       each call's USD from the usage its provider reported (input,
             cache reads, cache writes 5m/1h, output) and its cache-hit share;
             the session's running total; the price's source and date
  Compare    with --comparison: two variants of an agent over the same eval
             cases (agentctx eval --compare … --json > file): each side's
             totals, prompt tokens and USD per case as bars, the cases whose
             outcome changed, the first request that differs, and each case's
             session on either side, opened here when it is in the store

The store contract lists sessions per app, so name the apps to list up front
with --app (or type one into the page): the app is the root agent's name, or
the appName a runner was given (the report analyst's is report_analyst).

Options:
  --store <path|url> where the sessions are (default: ${DEFAULT_STORE}):
                     a SQLite file or postgres://user@host/db
  --port <n>         port to listen on (default: ${DEFAULT_PORT}; 0 picks a free one)
  --host <addr>      address to bind (default: 127.0.0.1); anything other than
                     loopback needs a token
  --token <t>        require 'Authorization: Bearer <t>' on the page's API
                     requests; the page asks for it once (default:
                     $AGENTCTX_TOKEN; prefer the variable, since arguments
                     show in process lists)
  --app <name>       an app to list on the start page (repeatable)
  --prices <file>    a JSON price file (the form of assets/prices.json) whose
                     entries replace the built-in prices of the same models
  --comparison <file>
                     a comparison 'agentctx eval --compare … --json' wrote, to
                     show under Compare (repeatable)
${HTTP_TIMEOUT_HELP}
  -h, --help         show this help

It prints one line, 'inspector on <url>', once it is ready; Ctrl-C stops it.

Examples:
  npm start && npx agentctx web --app report_analyst
  npx agentctx web --store runs.db --port 0 --app support
  agentctx eval --compare a.yaml b.yaml tests/ --store eval.db --json > ab.json; agentctx web --store eval.db --comparison ab.json
  AGENTCTX_TOKEN=secret npx agentctx web --host 0.0.0.0 --store postgres://agentctx@db/agentctx
`;

export const webCommand: Command = {
  name: 'web',
  help: HELP,
  async run(args: string[], io: CliIo, runtime: CliRuntime): Promise<number> {
    const { values, positionals } = parseCommandArgs('web', args, {
      store: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      app: { type: 'string', multiple: true },
      prices: { type: 'string' },
      comparison: { type: 'string', multiple: true },
      'request-timeout': { type: 'string' },
      'headers-timeout': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help === true) {
      io.stdout(HELP);
      return 0;
    }
    if (positionals.length > 0)
      throw new UsageError(
        `web takes no file, got '${positionals[0] ?? ''}'.`,
        "Name the store with --store, and apps with --app; see 'agentctx web --help'.",
      );
    const timeouts = httpTimeoutOptions(values);
    refuseMissingStore(values.store, io.cwd);
    const { port, host, token } = listenOptions(values, io.env, { port: DEFAULT_PORT, service: 'inspector' });
    const apps = (values.app ?? []).map((name) => name.trim()).filter((name) => name !== '');
    const prices = await loadPrices(values.prices, io.cwd);
    // Read, and refused with every problem, before anything listens.
    const comparisons = [];
    for (const file of values.comparison ?? [])
      comparisons.push({ name: file, comparison: parseComparison(await readInputFile(file, io.cwd), file) });

    // Hono loads only when the inspector runs, so the other commands do not pay for it (nor need it installed).
    const { createInspectorApp, serveInspector } = await loadWeb();
    const store = await runtime.store(values.store);
    const app = createInspectorApp({
      store,
      token,
      apps,
      prices,
      comparisons,
      version: packageVersion(),
      onError: (error) =>
        io.stderr(
          `agentctx web: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
        ),
    });
    const served = await serveInspector({ app, port, host, ...timeouts }).catch((error: unknown) => {
      throw listenError(error, host, port);
    });
    io.stdout(
      `inspector on ${served.url} (store ${store.name}${apps.length === 0 ? '' : `, apps ${apps.join(', ')}`}${comparisons.length === 0 ? '' : `, ${comparisons.length} comparison${comparisons.length === 1 ? '' : 's'}`}${token === undefined ? '' : ', token required'})\n`,
    );
    await untilSignal(io);
    await served.close();
    return 0;
  },
};

function untilSignal(io: CliIo): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      io.stderr(`${signal}: stopping the inspector\n`);
      resolve();
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}
