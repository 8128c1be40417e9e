import { ValidationError } from '../contracts/errors/validation-error.js';
import { AgentctxError } from '../contracts/errors/agentctx-error.js';
import { closest } from '../engine/util/json-reader.js';
import { COMMANDS } from './command-list.js';
import { exitStatusOf } from './exit-status.js';
import { processIo, type CliIo } from './io.js';
import { closeOpenToolsets } from './open-toolsets.js';
import { packageVersion } from './package-version.js';
import type { CliRuntime } from './runtime.js';

function topHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return `agentctx ${packageVersion()}: decides, deterministically and visibly, exactly what each model call receives.

Usage: agentctx <command> [options]

Commands:
${COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`).join('\n')}

Options:
  -h, --help     show help (also: agentctx <command> --help)
  -v, --version  print the version
  --debug        print stack traces of errors

Exit status:
  0  done
  1  the command found a problem (a turn ended with an error, requests differ…),
     or failed while running: a model or provider, a conflicting write, an extension
  2  bad input: an option, a file or definition, a session or agent that is not
     there, a store that cannot be opened, missing credentials

Start here:
  agentctx inspect examples/coordinator.yaml
  agentctx check examples/check/welcome.yaml
`;
}

/**
 * Runs the CLI and returns its exit code: 0 success, 1 the command found a problem or failed while running, 2 bad input
 * (`exit-status.ts`). Each command gets a runtime of its own (`open` makes it; tests pass theirs), closed when it ends.
 */
export async function main(
  argv: readonly string[],
  io: CliIo = processIo(),
  open?: (io: CliIo) => CliRuntime,
): Promise<number> {
  const debug = argv.includes('--debug');
  const args = argv.filter((arg) => arg !== '--debug');
  const [first, ...rest] = args;
  const json = (rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest).includes('--json');
  try {
    if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
      const topic = first === 'help' ? COMMANDS.find((command) => command.name === rest[0]) : undefined;
      io.stdout(topic === undefined ? topHelp() : (await topic.load()).help);
      return 0;
    }
    if (first === '-v' || first === '--version') {
      io.stdout(`${packageVersion()}\n`);
      return 0;
    }
    const entry = COMMANDS.find((candidate) => candidate.name === first);
    if (entry === undefined) {
      const guess = closest(
        first,
        COMMANDS.map((candidate) => candidate.name),
      );
      io.stderr(
        `error: unknown command '${first}'${guess === undefined ? '' : ` (did you mean '${guess}'?)`}. Run 'agentctx --help' to see the commands.\n`,
      );
      return 2;
    }
    const command = await entry.load();
    // Every command's --help is answered here, before its own options are checked.
    const own = rest.indexOf('--') === -1 ? rest : rest.slice(0, rest.indexOf('--'));
    if (own.includes('-h') || own.includes('--help')) {
      io.stdout(command.help);
      return 0;
    }
    // The runtime (stores, models, runners) loads only for a command that runs.
    const runtime = (open ?? (await import('./runtime.js')).openRuntime)(io);
    try {
      return await command.run(rest, io, runtime);
    } finally {
      await runtime.close().finally(closeOpenToolsets);
    }
  } catch (error) {
    return reportError(error, io, debug, json);
  }
}

/**
 * One line on stderr (the stack with --debug); with `--json`, the error as JSON on stdout too, every problem of a file
 * an entry (`{ error: { code, message, hint?, problems? } }`). The exit status says whether the input or the run was at
 * fault.
 */
function reportError(error: unknown, io: CliIo, debug: boolean, json: boolean): number {
  if (AgentctxError.isInstance(error)) {
    // Every problem of a file, not the first few (the message's own summary stops at three).
    const described = ValidationError.isInstance(error) ? error.describeAll() : error.describe();
    if (json) {
      const problems = ValidationError.isInstance(error) ? { problems: error.problems() } : {};
      const hint = error.hint === undefined ? {} : { hint: error.hint };
      io.stdout(`${JSON.stringify({ error: { code: error.code, message: error.message, ...hint, ...problems } })}\n`);
    }
    io.stderr(`error: ${described.replace(/\s*\n\s*/g, ' ')}\n`);
    if (debug) io.stderr(`${error.stack ?? ''}\n`);
    return exitStatusOf(error);
  }
  const message = error instanceof Error ? error.message : String(error);
  io.stderr(`error: unexpected failure: ${message.split('\n')[0] ?? ''} (run again with --debug for details)\n`);
  if (debug && error instanceof Error) io.stderr(`${error.stack ?? ''}\n`);
  return 1;
}
