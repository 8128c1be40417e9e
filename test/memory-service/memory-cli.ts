import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../support/cli.js';

/**
 * An agent file with the memory tools named, scripts for the scripted model, and a SQLite store in a new folder, with
 * the CLI commands the memory tests run against them: `run` (a turn of a session, with a script), `memory` (an
 * action of `agentctx memory`) and `inspect` (a recorded call).
 */
export async function memoryCli(options: {
  tools: readonly string[];
  scripts: Readonly<Record<string, string>>;
  /** Options for every run (`--remember turn`, `--embed …`). */
  runArgs?: readonly string[];
}) {
  const dir = await mkdtemp(join(tmpdir(), 'agentctx-memory-cli-'));
  const agent = join(dir, 'agent.yaml');
  const tools = options.tools.map((name) => `  - name: ${name}\n`).join('');
  await writeFile(agent, `name: assistant\nmodel: gemini-2.5-flash\ninstruction: Help.\ntools:\n${tools}`);
  for (const [name, script] of Object.entries(options.scripts)) await writeFile(join(dir, name), script);
  const store = join(dir, 'sessions.db');
  const [firstScript] = Object.keys(options.scripts);
  return {
    agent,
    store,
    run: (session: string, message: string, script = firstScript as string) =>
      cli([
        'run',
        agent,
        '--model',
        `scripted:${join(dir, script)}`,
        '--store',
        store,
        ...(options.runArgs ?? []),
        '--session',
        session,
        '--message',
        message,
      ]),
    memory: (action: string, ...args: string[]) => cli(['memory', action, agent, '--store', store, ...args]),
    inspect: (session: string, call: number, ...args: string[]) =>
      cli(['inspect', agent, '--store', store, '--session', session, '--call', String(call), ...args]),
  };
}
