import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { createInMemorySessionStore } from '../core/session/in-memory-session-store.js';
import type { SessionStore } from '../core/session/session-store.js';

/** Where the CLI keeps sessions when no `--store` is given: a SQLite file in the working folder. */
export const DEFAULT_STORE = '.agentctx/agentctx.db';

/**
 * The session store a `--store` value names: `memory`, or the path of a SQLite file (created when missing).
 * Store modules load only when used, so a command that needs none pays nothing for them.
 */
export async function resolveStore(value: string | undefined, cwd: string): Promise<SessionStore> {
  if (value === 'memory') return createInMemorySessionStore();
  const path = resolve(cwd, value ?? DEFAULT_STORE);
  await mkdir(dirname(path), { recursive: true });
  const { createSqliteSessionStore } = await import('../stores/sqlite/index.js');
  return createSqliteSessionStore({ path });
}
