import { readSync } from 'node:fs';
import { isatty } from 'node:tty';
import type { CliRuntime } from './runtime.js';

/** What a command may touch of the outside world; tests pass their own. */
export type CliIo = {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Colours and progress bars only when a person is watching. */
  isTty: boolean;
  /**
   * Asks the person at the terminal a yes-or-no question (on standard error) and waits for the answer; absent when
   * standard input or error is no terminal, so that nothing ever waits on a pipe.
   */
  ask?: ((question: string) => boolean) | undefined;
};

/**
 * A command: its name, its full help, and what it does (its line in the command list is in `command-list.ts`). Returns
 * the exit code. Stores and models come from `runtime`, which `main` closes when the command ends.
 */
export type Command = {
  name: string;
  help: string;
  run(args: string[], io: CliIo, runtime: CliRuntime): Promise<number>;
};

// A reader that stops early (`agentctx inspect … | head`) closes the pipe: what is left to print goes nowhere, and
// the command ends as it would have, without a stack trace. Watched once per process, however many commands run.
let readerGone = false;
let watching = false;

function watchStdout(): void {
  if (watching) return;
  watching = true;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') readerGone = true;
    else throw error;
  });
}

export function processIo(): CliIo {
  watchStdout();
  return {
    stdout: (text) => {
      if (!readerGone) process.stdout.write(text);
    },
    stderr: (text) => process.stderr.write(text),
    cwd: process.cwd(),
    env: process.env,
    isTty: process.stdout.isTTY === true && process.env['NO_COLOR'] === undefined,
    // isatty, not process.stdin: making the stdin stream would switch the descriptor to non-blocking reads.
    ...(isatty(0) && isatty(2) ? { ask: askOnTerminal } : {}),
  };
}

// One line from the terminal, read synchronously (the question comes up while an agent file is read); yes or y is yes.
function askOnTerminal(question: string): boolean {
  process.stderr.write(question);
  const buffer = Buffer.alloc(256);
  let answer = '';
  while (!answer.includes('\n')) {
    let read = 0;
    try {
      read = readSync(0, buffer, 0, buffer.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') continue;
      throw error;
    }
    if (read === 0) break;
    answer += buffer.toString('utf8', 0, read);
  }
  return /^\s*y(es)?\s*$/i.test(answer);
}
