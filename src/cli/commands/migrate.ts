import { UsageError } from '../../contracts/errors/usage-error.js';
import { parseCommandArgs } from '../args.js';
import type { CliIo, Command } from '../io.js';
import { DEFAULT_STORE, usingStore } from '../resolve-store.js';
import type { CliRuntime } from '../runtime.js';

const HELP = `Usage: agentctx migrate [--store <path|postgres://…>] [options]

Brings a store's schema to the version this release writes: applies, in order
and in one transaction, the migrations the database has not seen, and records
each. Safe to run again, and from several processes at once. Stores also do
this on first use; run it to upgrade a database ahead of a deploy, or to check
that this release can open it (a database written by a newer release is
refused).

Options:
  --store <path|url>  a SQLite file (created when missing), or a PostgreSQL URL
                      postgres://user:password@host:5432/database
                      (default: ${DEFAULT_STORE})
  --json              print { store, from, to, applied } as JSON
  -h, --help          show this help

Examples:
  agentctx migrate --store .agentctx/agentctx.db
  agentctx migrate --store postgres://agentctx@127.0.0.1:5432/agentctx
`;

export const migrateCommand: Command = {
  name: 'migrate',
  help: HELP,
  async run(args: string[], io: CliIo, runtime: CliRuntime): Promise<number> {
    const { values, positionals } = parseCommandArgs('migrate', args, {
      store: { type: 'string' },
      json: { type: 'boolean' },
    });
    if (positionals.length > 0)
      throw new UsageError(
        `migrate takes no arguments, got ${JSON.stringify(positionals[0])}.`,
        'Name the store with --store.',
      );
    const opened = await runtime.sqlStore(values.store);
    const result = await usingStore(opened, () => opened.store.migrate());
    if (values.json === true) {
      io.stdout(`${JSON.stringify({ store: opened.shown, ...result }, null, 2)}\n`);
    } else if (result.applied.length === 0) {
      io.stdout(
        `${opened.shown} is at schema version ${result.to}, the newest this release knows: nothing to apply.\n`,
      );
    } else {
      io.stdout(
        `Migrated ${opened.shown} from schema version ${result.from} to ${result.to}: applied ${result.applied.join(', ')}.\n`,
      );
    }
    return 0;
  },
};
