import type { SqliteSessionStoreOptions } from '../stores/sqlite/index.js';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { AgentctxError } from '../contracts/errors/agentctx-error.js';
import { UnavailableError } from '../contracts/errors/unavailable-error.js';
import { UsageError } from '../contracts/errors/usage-error.js';
import type { ArtifactStore } from '../contracts/artifact-store.js';
import type { SessionStoreWithCallLog } from '../contracts/session-store.js';
import { createInMemoryArtifactStore } from '../engine/session/in-memory-artifact-store.js';
import { createInMemorySessionStore } from '../engine/session/in-memory-session-store.js';
import type { SqlSessionStore } from '../stores/sqlite/index.js';

// How the store's memory service matches and embeds (the SQL stores all take the same options).
type SqlMemoryOptions = NonNullable<SqliteSessionStoreOptions['memory']>;

/** Where the CLI keeps sessions when no `--store` is given: a SQLite file in the working folder. */
export const DEFAULT_STORE = '.agentctx/agentctx.db';

/** A SQL store a `--store` value names, and how to name it in messages (a URL without its password). */
export type OpenedSqlStore = { store: SqlSessionStore; shown: string; dialect: 'sqlite' | 'postgres' };

/**
 * The session store a `--store` value names: `memory`, a `postgres://` (or `postgresql://`) URL, or the path of
 * a SQLite file (created when missing). Store modules load only when used, so a command that needs none pays
 * nothing for them. A PostgreSQL store is connected (and its schema brought up to date) here, so a bad URL or an
 * unreachable server is a one-line error naming the URL without its password.
 */
export async function resolveStore(
  value: string | undefined,
  cwd: string,
  memory?: SqlMemoryOptions,
): Promise<SessionStoreWithCallLog> {
  if (value === 'memory') return createInMemorySessionStore();
  const opened = await resolveSqlStore(value, cwd, memory);
  if (opened.dialect === 'postgres') await usingStore(opened, () => opened.store.migrate());
  return opened.store;
}

/**
 * Refuses a `--store` that names no store yet, for the commands that only read one (`inspect`, `tokens`, `web`, …):
 * opening a SQLite file that is not there would create an empty one, and hide the typo. `memory` starts empty too.
 */
export function refuseMissingStore(value: string | undefined, cwd: string): void {
  if (value === 'memory')
    throw new UsageError(
      '--store memory starts empty, so there would be nothing to read.',
      'Name the SQLite file or postgres:// URL that agentctx run, serve or npm start wrote.',
    );
  if (value !== undefined && isPostgresUrl(value)) return;
  const path = sqlitePath(value, cwd);
  if (!existsSync(path)) {
    throw new UsageError(
      `There is no store at ${path}.`,
      `Run 'npm start' or 'agentctx run' first, or name the store with --store${value === undefined ? '' : ' (check the path)'}.`,
    );
  }
}

/** An artifact store, closed with the command. */
export type OpenedArtifactStore = ArtifactStore & { close(): Promise<void> };

/**
 * The artifact store beside the session store a `--store` value names: the same SQLite file or PostgreSQL database
 * (artifacts have tables of their own in the one schema), or one in memory beside `--store memory`. Opened lazily by
 * the store itself: a command that never touches an artifact never reads those tables.
 */
export async function resolveArtifactStore(value: string | undefined, cwd: string): Promise<OpenedArtifactStore> {
  if (value === 'memory') return { ...createInMemoryArtifactStore(), close: async () => {} };
  if (value !== undefined && isPostgresUrl(value)) {
    const shown = redactUrl(value);
    const { createPostgresArtifactStore } = await import('../stores/postgres/index.js');
    const store = createPostgresArtifactStore({ url: value });
    await usingStore({ store, shown, dialect: 'postgres' }, () => store.migrate());
    return store;
  }
  const path = sqlitePath(value, cwd);
  const { createSqliteArtifactStore } = await import('../stores/sqlite/index.js');
  try {
    return createSqliteArtifactStore({ path });
  } catch (error) {
    throw cannotOpen('sqlite', path, error);
  }
}

/** The SQLite or PostgreSQL store a `--store` value names, not yet connected; refuses `memory`. */
export async function resolveSqlStore(
  value: string | undefined,
  cwd: string,
  memory?: SqlMemoryOptions,
): Promise<OpenedSqlStore> {
  if (value === 'memory')
    throw new UsageError(
      '--store memory keeps nothing, so it has no schema.',
      'Name a SQLite file or a postgres:// URL.',
    );
  if (value !== undefined && isPostgresUrl(value)) {
    const shown = redactUrl(value);
    const { createPostgresSessionStore } = await import('../stores/postgres/index.js');
    return {
      store: createPostgresSessionStore({ url: value, ...(memory === undefined ? {} : { memory }) }),
      shown,
      dialect: 'postgres',
    };
  }
  const path = sqlitePath(value, cwd);
  const { createSqliteSessionStore } = await import('../stores/sqlite/index.js');
  try {
    await mkdir(dirname(path), { recursive: true });
    return {
      store: createSqliteSessionStore({ path, ...(memory === undefined ? {} : { memory }) }),
      shown: path,
      dialect: 'sqlite',
    };
  } catch (error) {
    // A folder, a file that is not a database, a path under a file: one line naming the store, not a crash.
    throw cannotOpen('sqlite', path, error);
  }
}

/**
 * Runs `use` on the store; a failure that is not agentctx's own (the server refused the connection, the
 * password was wrong, the database does not exist) becomes one line naming the store. Closes the store if it fails.
 */
export async function usingStore<T>(
  opened: Omit<OpenedSqlStore, 'store'> & { store: { close(): Promise<void> } },
  use: () => Promise<T>,
): Promise<T> {
  try {
    return await use();
  } catch (error) {
    await opened.store.close().catch(() => {});
    throw cannotOpen(opened.dialect, opened.shown, error);
  }
}

// agentctx's own errors pass as they are; any other failure to open a store becomes one line naming it (a server
// that cannot be reached too: at startup that is most often the URL's fault, so the line names it).
function cannotOpen(dialect: 'sqlite' | 'postgres', shown: string, error: unknown): unknown {
  if (AgentctxError.isInstance(error) && !UnavailableError.isInstance(error)) return error;
  const original = UnavailableError.isInstance(error) ? error.cause : error;
  const reason = (original instanceof Error ? original.message : String(original)).split('\n')[0] ?? '';
  const what = dialect === 'postgres' ? 'the PostgreSQL store at' : 'the SQLite store';
  return new UsageError(
    `Cannot open ${what} ${shown}: ${reason || 'unknown error'}.`,
    dialect === 'postgres'
      ? 'Check the URL, that the server is running and reachable, and the user, password and database name.'
      : 'Check the path and its permissions, and that it is a SQLite database.',
  );
}

/**
 * The SQLite file a `--store` value names. A value written as a URL of another kind (ADK's `sqlite:///sessions.db`,
 * `mysql://…`) is refused rather than taken as a path: it would create a folder named after the scheme.
 */
function sqlitePath(value: string | undefined, cwd: string): string {
  const scheme = value === undefined ? undefined : /^([a-z][a-z0-9+.-]+):/i.exec(value)?.[1];
  if (value !== undefined && scheme !== undefined) {
    // SQLAlchemy's form, which ADK takes: sqlite:///relative.db, sqlite:////absolute.db.
    const path = scheme.toLowerCase() === 'sqlite' ? value.replace(/^sqlite:(\/\/\/|\/\/)?/i, '') : undefined;
    throw new UsageError(
      `--store ${value.replace(/^([a-z]+:\/\/[^:/@]*):[^@]*@/i, '$1@')} is a ${scheme}: URL; --store takes a SQLite file's path, a postgres:// URL, or memory.`,
      path === undefined || path === ''
        ? 'Name a SQLite file (e.g. --store .agentctx/agentctx.db) or a postgres:// URL.'
        : `For this SQLite file write its path: --store ${path}`,
    );
  }
  return resolve(cwd, value ?? DEFAULT_STORE);
}

export function isPostgresUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

/** The URL without its password (in the user part or a `password` parameter); refuses one that cannot be read. */
export function redactUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    const shown = value.replace(/^([a-z]+:\/\/[^:/@]*):[^@]*@/i, '$1@');
    throw new UsageError(
      `--store ${shown} is not a valid PostgreSQL URL.`,
      'Write it as postgres://user:password@host:5432/database.',
    );
  }
  url.password = '';
  url.searchParams.delete('password');
  return url.toString();
}
