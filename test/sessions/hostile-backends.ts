import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ArtifactStore } from '../../src/contracts/artifact-store.js';
import { ValidationError } from '../../src/contracts/errors/validation-error.js';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import { createInMemoryArtifactStore } from '../../src/engine/session/in-memory-artifact-store.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { createFsArtifactStore } from '../../src/stores/fs/fs-artifact-store.js';
import {
  createPostgresArtifactStore,
  createPostgresSessionStore,
} from '../../src/stores/postgres/create-postgres-store.js';
import { createSqliteArtifactStore, createSqliteSessionStore } from '../../src/stores/sqlite/create-sqlite-store.js';
import { caught } from '../reliability/support.js';
import { createTestDatabase, TEST_POSTGRES_URL } from '../support/postgres.js';

// The stores the hostile-value rows run on, each as a backend that can be "reloaded": a second store on the same
// data (the memory store has no other copy, so it is its own reload).

export type Backend = {
  name: string;
  store: SessionStoreWithCallLog;
  /** A new store on the same data, as after a restart (the memory store: itself). */
  reload(): SessionStoreWithCallLog;
  artifacts: ArtifactStore;
};

export type BackendName = 'memory' | 'sqlite' | 'postgres';

/** Why the PostgreSQL row cannot run here, or `undefined` when it can. */
export const NO_POSTGRES: string | undefined =
  TEST_POSTGRES_URL === undefined ? 'TEST_POSTGRES_URL is not set (eval "$(bash .ci/postgres.sh start)")' : undefined;

/** Runs `check` on a fresh backend of each kind, closing and removing everything afterwards. */
export async function onBackends(
  names: readonly BackendName[],
  check: (backend: Backend) => Promise<void>,
): Promise<void> {
  for (const name of names) {
    const closers: (() => Promise<void>)[] = [];
    try {
      await check(await open(name, closers));
    } catch (error) {
      if (error instanceof Error) error.message = `[${name}] ${error.message}`;
      throw error;
    } finally {
      for (const close of closers.reverse()) await close();
    }
  }
}

async function open(name: BackendName, closers: (() => Promise<void>)[]): Promise<Backend> {
  const closing = <T extends { close(): Promise<void> }>(store: T): T => {
    closers.push(() => store.close());
    return store;
  };
  if (name === 'memory') {
    const store = createInMemorySessionStore();
    return { name, store, reload: () => store, artifacts: createInMemoryArtifactStore() };
  }
  if (name === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'agentctx-hostile-'));
    closers.push(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'hostile.db');
    return {
      name,
      store: closing(createSqliteSessionStore({ path })),
      reload: () => closing(createSqliteSessionStore({ path })),
      artifacts: closing(createSqliteArtifactStore({ path })),
    };
  }
  if (TEST_POSTGRES_URL === undefined) throw new Error(NO_POSTGRES);
  const database = await createTestDatabase(TEST_POSTGRES_URL, 'hostile');
  closers.push(() => database.drop());
  const url = database.url;
  return {
    name,
    store: closing(createPostgresSessionStore({ url, pool: { max: 2 } })),
    reload: () => closing(createPostgresSessionStore({ url, pool: { max: 2 } })),
    artifacts: closing(createPostgresArtifactStore({ url, pool: { max: 2 } })),
  };
}

/** A file artifact store in a fresh folder, and the folder (removed by `cleanup`). */
export async function fsArtifacts(): Promise<{ artifacts: ArtifactStore; root: string; cleanup: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'agentctx-hostile-files-'));
  return {
    artifacts: createFsArtifactStore({ root }),
    root,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

/** Refused with a ValidationError (never a TypeError, RangeError, URIError or a driver's error) whose first issue is at `path`. */
export async function expectRefused(
  run: () => unknown,
  path: RegExp | string,
  message: RegExp,
): Promise<ValidationError> {
  const error = await caught(run);
  expect(ValidationError.isInstance(error), `not a ValidationError: ${String(error)}`).toBe(true);
  const refused = error as ValidationError;
  const issue = refused.issues[0];
  if (typeof path === 'string') expect(issue?.path).toBe(path);
  else expect(issue?.path).toMatch(path);
  expect(issue?.message).toMatch(message);
  // The message itself is well-formed text: it can be logged, sent as JSON and stored anywhere.
  expect(LONE_SURROGATE.test(refused.message) || refused.message.includes('\u0000'), refused.message).toBe(false);
  return refused;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `{"a": {"a": … 1 …}}`, `levels` objects deep, built without recursion. */
export function nested(levels: number, leaf: unknown = 1): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

/** The same as JSON text, as a request body carries it. */
export function nestedJson(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}
