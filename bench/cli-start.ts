// How long the CLI takes to start, against a bare `node -e 0` in the same run: `agentctx --version`, and each
// command's `--help` (which loads that command alone). Runs alternate, 21 of each; the medians are compared.
// Target: `--version` within 1.6× of bare node (its modules load only when a command runs).
// Run: npm run bench:cli [-- --json]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COMMANDS } from '../src/cli/command-list.js';
import { median } from './stats.js';

const json = process.argv.includes('--json');
const root = dirname(dirname(fileURLToPath(import.meta.url)));
const cli = join(root, 'bin', 'agentctx.js');
const RUNS = 21;
const TARGET = 1.6;

function elapsedMs(args: readonly string[]): number {
  const started = process.hrtime.bigint();
  const run = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  if (run.status !== 0) throw new Error(`node ${args.join(' ')} exited ${run.status}: ${run.stderr.toString()}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Medians of `args` and of bare node, each run right after the other, so both see the same machine. */
function against(args: readonly string[]): { ms: number; bareMs: number; ratio: number } {
  const own: number[] = [];
  const bare: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    bare.push(elapsedMs(['-e', '0']));
    own.push(elapsedMs(args));
  }
  const ms = median(own);
  const bareMs = median(bare);
  return { ms: Number(ms.toFixed(1)), bareMs: Number(bareMs.toFixed(1)), ratio: Number((ms / bareMs).toFixed(2)) };
}

const version = against([cli, '--version']);
const helps = COMMANDS.map((command) => ({ command: command.name, ...against([cli, command.name, '--help']) }));
const met = version.ratio <= TARGET;
if (json) {
  process.stdout.write(`${JSON.stringify({ runs: RUNS, version, helps, target: TARGET, met })}\n`);
} else {
  process.stdout.write(`agentctx CLI start · median of ${RUNS}, each after a bare node · node ${process.version}\n\n`);
  process.stdout.write(
    `  ${'command'.padEnd(22)} ${'ms'.padStart(7)} ${'node -e 0'.padStart(10)} ${'ratio'.padStart(6)}\n`,
  );
  for (const row of [
    { command: '--version', ...version },
    ...helps.map((row) => ({ ...row, command: `${row.command} --help` })),
  ]) {
    process.stdout.write(
      `  ${row.command.padEnd(22)} ${row.ms.toFixed(1).padStart(7)} ${row.bareMs.toFixed(1).padStart(10)} ${`${row.ratio}×`.padStart(6)}\n`,
    );
  }
  process.stdout.write(`\n  ${met ? '✓' : '✗'} agentctx --version within ${TARGET}× of node -e 0: ${version.ratio}×\n`);
}
process.exitCode = met ? 0 : 1;
