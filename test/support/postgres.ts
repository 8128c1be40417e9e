import pg from 'pg';
import { describe, it } from 'vitest';

/** The server the PostgreSQL tests use; `.ci/postgres.sh start` prints it. Undefined: those tests skip. */
export const TEST_POSTGRES_URL: string | undefined = process.env['TEST_POSTGRES_URL'] || undefined;

/** A visible skip with the reason and the way to run them, for a test file whose server is not configured. */
export function skipWithoutPostgres(title: string): void {
  const reason = `${title}: SKIPPED, TEST_POSTGRES_URL is not set (run \`eval "$(.ci/postgres.sh start)"\` first, then \`.ci/postgres.sh stop\`)`;
  console.warn(reason);
  describe.skip(reason, () => {
    it('needs a PostgreSQL server', () => {});
  });
}

/**
 * A database of its own for one test file, so runs never see each other's data: made from the server's URL,
 * dropped (with any connection left) by `drop`.
 */
export async function createTestDatabase(
  serverUrl: string,
  label: string,
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `agentctx_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), name, drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function admin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Runs one statement on a database directly, outside any store; rows as pg gives them. */
export async function queryDirect<T>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The plan PostgreSQL picks for `sql` when a sequential scan is its last resort (tiny test tables would get one anyway). */
export async function explainDirect(url: string, sql: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SET enable_seqscan = off');
    return (await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`)).rows.map((row) => row['QUERY PLAN']);
  } finally {
    await client.end();
  }
}
