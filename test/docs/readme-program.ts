import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot } from '../support/cli.js';

// The README's first program (an agent with a tool, run for two turns) and the output it shows for the command the
// program prints. Two tests run it: in the clone (readme.test.ts) and installed from the packed package
// (test/package/packed-install.test.ts).

const README = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');

/** The first TypeScript block of the README. */
export function readmeProgram(): string {
  const program = /```ts\n([\s\S]*?)```/.exec(README)?.[1];
  if (program === undefined) throw new Error('the README has no TypeScript block');
  return program;
}

/** The lines of the README's first `console` block (what the printed `inspect` command shows), `…` lines left out. */
export function readmeInspectLines(): string[] {
  const block = /```console\n([\s\S]*?)```/.exec(README)?.[1];
  if (block === undefined) throw new Error('the README has no console block');
  return block.split('\n').filter((line) => line.trim() !== '' && !line.includes('…'));
}

/** The `npx agentctx inspect …` command the program printed, as arguments after `agentctx`. */
export function printedInspectArgs(stdout: string): string[] {
  const line = /npx agentctx (inspect [^\n]+)/.exec(stdout)?.[1];
  if (line === undefined) throw new Error(`the program printed no inspect command:\n${stdout}`);
  return line.trim().split(/\s+/);
}
