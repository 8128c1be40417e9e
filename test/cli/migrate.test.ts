import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/stores/sql/migrations.js';
import { agentctx, expectOneLineError } from '../support/cli.js';
import { createTestDatabase, TEST_POSTGRES_URL } from '../support/postgres.js';

let dir = '';
const names = MIGRATIONS.map((migration) => migration.name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentctx-migrate-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('agentctx migrate', () => {
  it('creates and upgrades a SQLite file, then has nothing to apply', async () => {
    const store = join(dir, 'nested', 'a.db');
    const first = await agentctx('migrate', '--store', store);
    expect(first).toMatchObject({ code: 0, stderr: '' });
    expect(first.stdout).toBe(
      `Migrated ${store} from schema version 0 to ${SCHEMA_VERSION}: applied ${names.join(', ')}.\n`,
    );
    const again = await agentctx('migrate', '--store', store, '--json');
    expect(JSON.parse(again.stdout)).toEqual({ store, from: SCHEMA_VERSION, to: SCHEMA_VERSION, applied: [] });
    expect((await agentctx('migrate', '--store', store)).stdout).toMatch(
      /is at schema version \d+, the newest this release knows: nothing to apply/,
    );
  });

  it('explains itself in --help and is listed in the command list', async () => {
    expect((await agentctx('migrate', '--help')).stdout).toMatch(
      /^Usage: agentctx migrate \[--store <path\|postgres:\/\/…>\]/,
    );
    expect((await agentctx('--help')).stdout).toMatch(
      /\n {2}migrate +bring a SQLite or PostgreSQL store's schema up to date\n/,
    );
  });

  it('refuses memory, stray arguments, unknown options, bad URLs and unreachable servers in one line, never showing the password', async () => {
    expectOneLineError(
      await agentctx('migrate', '--store', 'memory'),
      2,
      /--store memory keeps nothing, so it has no schema/,
    );
    expectOneLineError(await agentctx('migrate', 'extra'), 2, /migrate takes no arguments/);
    expectOneLineError(await agentctx('migrate', '--nope'), 2, /Unknown option '--nope'/);
    const bad = await agentctx('migrate', '--store', 'postgres://agent:s3cret@db.invalid:notaport/x');
    expectOneLineError(bad, 2, /--store postgres:\/\/agent@db\.invalid:notaport\/x is not a valid PostgreSQL URL/);
    const unreachable = await agentctx('migrate', '--store', 'postgresql://agent:s3cret@127.0.0.1:1/x?password=s3cret');
    expectOneLineError(
      unreachable,
      2,
      /Cannot open the PostgreSQL store at postgresql:\/\/agent@127\.0\.0\.1:1\/x: connect ECONNREFUSED 127\.0\.0\.1:1\. Check the URL/,
    );
    for (const result of [bad, unreachable]) expect(result.stderr).not.toContain('s3cret');
    // A URL of another kind is not taken as a path (it would make a folder named `sqlite:`), and ADK's SQLite form is translated.
    expectOneLineError(
      await agentctx('migrate', '--store', 'sqlite:///sessions.db'),
      2,
      /--store sqlite:\/\/\/sessions\.db is a sqlite: URL; --store takes a SQLite file's path, a postgres:\/\/ URL, or memory\. For this SQLite file write its path: --store sessions\.db/,
    );
    expectOneLineError(
      await agentctx(
        'run',
        'examples/draft-and-review/pipeline.yaml',
        '--model',
        'scripted:examples/draft-and-review/script.yaml',
        '--message',
        'hi',
        '--store',
        'mysql://u:s3cret@h/db',
      ),
      2,
      /--store mysql:\/\/u@h\/db is a mysql: URL/,
    );
    // Every command that takes --store says the same.
    expectOneLineError(
      await agentctx(
        'inspect',
        'examples/draft-and-review/pipeline.yaml',
        '--session',
        's',
        '--store',
        'postgres://agent:s3cret@127.0.0.1:1/x',
      ),
      2,
      /Cannot open the PostgreSQL store at postgres:\/\/agent@127\.0\.0\.1:1\/x/,
    );
  });
});

describe.skipIf(TEST_POSTGRES_URL === undefined)(
  'agentctx on PostgreSQL (needs TEST_POSTGRES_URL, see .ci/postgres.sh)',
  () => {
    let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
    beforeAll(async () => {
      database = await createTestDatabase(TEST_POSTGRES_URL as string, 'cli');
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('migrates a database, then runs and inspects a session stored in it', async () => {
      const url = database?.url as string;
      expect((await agentctx('migrate', '--store', url)).stdout).toBe(
        `Migrated ${url} from schema version 0 to ${SCHEMA_VERSION}: applied ${names.join(', ')}.\n`,
      );
      expect((await agentctx('migrate', '--store', url)).stdout).toMatch(/nothing to apply/);
      const pipeline = [
        'examples/draft-and-review/pipeline.yaml',
        '--model',
        'scripted:examples/draft-and-review/script.yaml',
      ];
      const run = await agentctx('run', ...pipeline, '--store', url, '--session', 'demo', '--message', 'Write about X');
      expect(run.code, run.stderr).toBe(0);
      const list = await agentctx(
        'inspect',
        'examples/draft-and-review/pipeline.yaml',
        '--session',
        'demo',
        '--store',
        url,
        '--json',
      );
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toContain('generator_agent');
    });
  },
);
