import { UsageError } from '../../contracts/errors/usage-error.js';
import { calibrate, type Calibration } from '../../engine/tokens/calibration.js';
import { countRequestTokens } from '../../engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../../engine/tokens/token-counter.js';
import { parseCommandArgs } from '../args.js';
import type { CliIo, Command } from '../io.js';
import { openRecordedSession } from '../recorded-session.js';
import { DEFAULT_STORE } from '../resolve-store.js';
import type { CliRuntime } from '../runtime.js';
import { createStyle, type Style } from '../style.js';

const HELP = `Usage: agentctx tokens <agent-file> --session <id> [options]

Compares, call by call, the local token estimate of each recorded request (the
o200k tokenizer, counted here) with the prompt tokens the provider billed
(its usage metadata, recorded with the call), and fits a calibration factor:
the median of billed / estimate. Multiply local estimates for that provider by
it; the spread says how far single calls stray.

Options:
  --session <id>  the session (required)
  --app <name>    its app (default: the agent file's root agent)
  --user <id>     its user (default: user)
  --store <path>  SQLite file of the sessions (default: ${DEFAULT_STORE})
  --json          print { rows, factor, spread } as JSON
  -h, --help      show this help
`;

export const tokensCommand: Command = {
  name: 'tokens',
  help: HELP,
  async run(args: string[], io: CliIo, runtime: CliRuntime): Promise<number> {
    const { values, positionals } = parseCommandArgs('tokens', args, {
      session: { type: 'string' },
      app: { type: 'string' },
      user: { type: 'string' },
      store: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 1) throw new UsageError(`tokens takes one agent file, got ${positionals.length}.`);
    const { store, key } = await openRecordedSession(positionals[0], values, io.cwd, runtime);
    const counter = await loadTokenCounter();
    const rows = [];
    for (const summary of await store.listModelCalls(key)) {
      const record = await store.getModelCall({ ...key, index: summary.index });
      if (record === undefined) continue;
      const estimate = countRequestTokens(record.request, counter, record.provenance).total;
      rows.push({ index: summary.index, agent: summary.agent, estimate, billed: summary.usage?.promptTokens });
    }
    const calibration = calibrate(rows);
    io.stdout(
      values.json === true
        ? `${JSON.stringify(calibration, null, 2)}\n`
        : formatCalibration(calibration, createStyle(io.isTty)),
    );
    return 0;
  },
};

function formatCalibration(calibration: Calibration, style: Style): string {
  const lines = [style.bold(' call  agent                 estimate    billed   billed/estimate')];
  for (const row of calibration.rows) {
    const billed = row.billed === undefined ? '—' : String(row.billed);
    const ratio = row.ratio === undefined ? '—' : row.ratio.toFixed(3);
    lines.push(
      `${String(row.index).padStart(5)}  ${row.agent.padEnd(20)} ${String(row.estimate).padStart(9)} ${billed.padStart(9)}   ${ratio.padStart(8)}`,
    );
  }
  if (calibration.factor === undefined)
    lines.push(
      '',
      style.dim(
        'No call carries billed usage (a scripted model reports none unless its script says so): nothing to calibrate.',
      ),
    );
  else
    lines.push(
      '',
      `calibration factor ${style.bold(calibration.factor.toFixed(3))} (median of ${calibration.rows.filter((row) => row.ratio !== undefined).length} calls; largest deviation ${((calibration.spread ?? 0) * 100).toFixed(1)}%)`,
    );
  return `${lines.join('\n')}\n`;
}
