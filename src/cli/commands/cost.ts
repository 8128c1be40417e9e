import { UsageError } from '../../contracts/errors/usage-error.js';
import { costOfCalls } from '../../analysis/cost/session-cost.js';
import { parseCommandArgs } from '../args.js';
import { formatCostReport } from '../format-cost.js';
import type { CliIo, Command } from '../io.js';
import { loadPrices } from '../prices.js';
import { openRecordedSession } from '../recorded-session.js';
import { DEFAULT_STORE } from '../resolve-store.js';
import type { CliRuntime } from '../runtime.js';
import { createStyle } from '../style.js';

const HELP = `Usage: agentctx cost <agent-file> --session <id> [options]

What a recorded session cost, call by call, from the usage each provider
reported: input billed at the full price, input read from the prompt cache,
input written to it (by lifetime: 5 minutes or 1 hour), output, and the USD
each came to, with the share of the prompt read from the cache. Totals per
invocation and for the session follow.

Prices come from agentctx's table (assets/prices.json: every price with its
source and date). A model the table does not know is shown with its tokens and
no price; nothing is guessed. --prices adds or replaces entries from your own
file (JSON in the same form; 'agentctx schema prices' prints its schema).

Options:
  --session <id>    the session (required)
  --app <name>      its app (default: the agent file's root agent)
  --user <id>       its user (default: user)
  --store <path>    SQLite file of the sessions (default: ${DEFAULT_STORE})
  --prices <file>   a price table whose entries replace or add to the built-in ones
  --json            print { calls, invocations, total } as JSON
  -h, --help        show this help

Examples:
  agentctx cost agent.yaml --session s1
  agentctx cost agent.yaml --session s1 --json
  agentctx cost agent.yaml --session s1 --prices my-prices.json
`;

export const costCommand: Command = {
  name: 'cost',
  help: HELP,
  async run(args: string[], io: CliIo, runtime: CliRuntime): Promise<number> {
    const { values, positionals } = parseCommandArgs('cost', args, {
      session: { type: 'string' },
      app: { type: 'string' },
      user: { type: 'string' },
      store: { type: 'string' },
      prices: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 1)
      throw new UsageError(
        `cost takes one agent file, got ${positionals.length}.`,
        'For example: agentctx cost agent.yaml --session s1',
      );
    const prices = await loadPrices(values.prices, io.cwd);
    const { store, key } = await openRecordedSession(positionals[0], values, io.cwd, runtime);
    const report = costOfCalls(await store.listModelCalls(key), prices);
    io.stdout(
      values.json === true
        ? `${JSON.stringify(report, null, 2)}\n`
        : formatCostReport(report, key.sessionId, createStyle(io.isTty)),
    );
    return 0;
  },
};
