import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../contracts/errors/usage-error.js';
import { closest } from '../engine/util/json-reader.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** `parseArgs` with strict checking, whose mistakes become one-line usage errors that point at the help. */
type Parsed<T extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>
>;

export function parseCommandArgs<T extends Options>(command: string, args: string[], options: T): Parsed<T> {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message.replace(/\. To specify a positional argument.*$/s, '.');
    // A mistyped option gets the nearest one named ("did you mean"), as unknown fields in files do.
    const unknown = /^Unknown option '--([^'=]+)'/.exec(message)?.[1];
    const guess = unknown === undefined ? undefined : closest(unknown, Object.keys(options));
    const suggestion = guess === undefined ? '' : ` (did you mean --${guess}?)`;
    throw new UsageError(
      `${message.replace(/\.$/, '')}${suggestion}.`,
      `Run 'agentctx ${command} --help' to see the options.`,
    );
  }
}
