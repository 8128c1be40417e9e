import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStoreWithCallLog } from '../../src/contracts/session-store.js';
import { createInMemorySessionStore } from '../../src/engine/session/in-memory-session-store.js';
import { createPostgresSessionStore } from '../../src/stores/postgres/index.js';
import { createSqliteSessionStore } from '../../src/stores/sqlite/index.js';
import { createTestDatabase, TEST_POSTGRES_URL } from './postgres.js';

/** The session stores a row runs on, wherever a store is written. */
export const STORE_KINDS = ['memory', 'sqlite', 'postgres'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** Why a row on `kind` cannot run here, or undefined when it can. */
export const storeSkip = (kind: StoreKind): string | undefined =>
  kind === 'postgres' && TEST_POSTGRES_URL === undefined
    ? 'TEST_POSTGRES_URL is not set (eval "$(bash .ci/postgres.sh start)")'
    : undefined;

/**
 * Opens fresh session stores (a new SQLite file, a new PostgreSQL database each) and closes them all at the end.
 * `label` names the database: lower-case letters, digits and _.
 */
export function sessionStores(label: string): {
  open(kind: StoreKind): Promise<SessionStoreWithCallLog>;
  closeAll(): Promise<void>;
} {
  const cleanups: (() => Promise<void>)[] = [];
  return {
    async open(kind) {
      if (kind === 'memory') return createInMemorySessionStore();
      if (kind === 'sqlite') {
        const dir = await mkdtemp(join(tmpdir(), `agentctx-${label}-`));
        const store = createSqliteSessionStore({ path: join(dir, 'sessions.db') });
        cleanups.push(async () => {
          await store.close();
          await rm(dir, { recursive: true, force: true });
        });
        return store;
      }
      const database = await createTestDatabase(TEST_POSTGRES_URL as string, label);
      const store = createPostgresSessionStore({ url: database.url, pool: { max: 2 } });
      cleanups.push(async () => {
        await store.close();
        await database.drop();
      });
      return store;
    },
    async closeAll() {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    },
  };
}
