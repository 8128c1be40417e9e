import type { Command } from './io.js';

/**
 * The commands `agentctx --help` lists. Each loads its modules only when it runs (or shows its own help), so
 * `agentctx --version` and the command list start without importing the runtime.
 */
export type CommandEntry = {
  name: string;
  /** One line for the command list. */
  summary: string;
  load(): Promise<Command>;
};

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'run',
    summary: 'run an agent, printing its events; sessions and requests are kept in the store',
    load: async () => (await import('./commands/run.js')).runCommand,
  },
  {
    name: 'serve',
    summary: 'serve an agent over HTTP: sessions, turns as server-sent events, recorded calls',
    load: async () => (await import('./commands/serve.js')).serveCommand,
  },
  {
    name: 'web',
    summary: 'open the web inspector: sessions, recorded requests by source, find, diff, token charts, cost',
    load: async () => (await import('./commands/web.js')).webCommand,
  },
  {
    name: 'memory',
    summary: 'what an app remembers of its users’ sessions: add a session, list, search, delete',
    load: async () => (await import('./commands/memory.js')).memoryCommand,
  },
  {
    name: 'eval',
    summary: 'run ADK eval sets against an agent and score them: tool trajectory, response match, an LLM judge',
    load: async () => (await import('./commands/eval.js')).evalCommand,
  },
  {
    name: 'inspect',
    summary: 'show the exact request a model call receives, and where each part came from',
    load: async () => (await import('./commands/inspect.js')).inspectCommand,
  },
  {
    name: 'diff',
    summary: 'compare two requests field by field: of two case files, or two recorded calls',
    load: async () => (await import('./commands/diff.js')).diffCommand,
  },
  {
    name: 'cost',
    summary: 'what a recorded session cost: tokens, cache reads and writes, USD per call and in total',
    load: async () => (await import('./commands/cost.js')).costCommand,
  },
  {
    name: 'tokens',
    summary: 'compare local token estimates with billed usage, call by call, and fit a calibration factor',
    load: async () => (await import('./commands/tokens.js')).tokensCommand,
  },
  {
    name: 'compact',
    summary: 'show what compaction would summarize now (--dry-run), or compact a stored session',
    load: async () => (await import('./commands/compact.js')).compactCommand,
  },
  {
    name: 'check',
    summary: 'show what the {placeholders} of templates will do, and lint an agent tree\u2019s context',
    load: async () => (await import('./commands/check.js')).checkCommand,
  },
  {
    name: 'schema',
    summary: 'print the JSON Schema of agent files, case files, model scripts, price tables or ADK eval files',
    load: async () => (await import('./commands/schema.js')).schemaCommand,
  },
  {
    name: 'migrate',
    summary: "bring a SQLite or PostgreSQL store's schema up to date",
    load: async () => (await import('./commands/migrate.js')).migrateCommand,
  },
];
