// The SQL stores' memory services (docs/memory.md) at 10k, 100k and 1M memories, built from dist/ as users get it:
// ingestion (memories per second, remembering finished sessions of 20 events through `addSessionToMemory`, one
// transaction each, as an app does when a conversation ends) and search latency (p50 / p99 ms of `searchMemory`
// under `ranked` matching, the default: a realistic question of one user chosen at random, after a tenth as many
// unmeasured). Each user has about 1,000 memories (50 sessions, given to users at random), so the sizes hold 10, 100
// and 1,000 users: the table grows, a user's history does not. Sentences come from a seeded generated vocabulary
// (bench/memory-corpus.ts). SQLite is a file store in a temporary folder; PostgreSQL the server of TEST_POSTGRES_URL,
// else a throwaway cluster (a schema of its own per size, dropped after). Then recall@5 on a corpus with known answers
// (bench/memory-recall.ts): agentctx's keyword ranking beside ADK's in-memory rule (its first 5), and with
// `--embed provider:model` (`openai:text-embedding-3-small`, key from OPENAI_API_KEY; `gemini:<model>`, from
// GEMINI_API_KEY) vector-only and hybrid too; without a real embedder those fields are absent.
// Run: npm run bench:memory [-- --sizes 10000,100000,1000000 --stores sqlite,postgres --searches 300 --json]
// (with --json, stdout holds exactly one JSON object; progress goes to stderr)
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { MemoryService } from '../dist/memory.js';
import { createPostgresSessionStore } from '../dist/stores/postgres/index.js';
import { createSqliteSessionStore } from '../dist/stores/sqlite/index.js';
import { chatter, question, random, sessionOf, vocabulary } from './memory-corpus.js';
import { type Embedder, embedderOf, recallAt5 } from './memory-recall.js';
import { type OwnCluster, startOwnCluster } from './postgres-cluster.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000,1000000' },
    stores: { type: 'string', default: 'sqlite,postgres' },
    searches: { type: 'string', default: '300' },
    embed: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const sizes = values.sizes.split(',').map((text) => {
  const size = Number(text);
  if (!Number.isInteger(size) || size < 1000) throw new Error(`--sizes takes integers of at least 1000, got ${text}`);
  return size;
});
const stores = values.stores.split(',').map((name) => {
  if (name !== 'sqlite' && name !== 'postgres') throw new Error(`--stores takes sqlite and postgres, got ${name}`);
  return name;
});
const searches = Number(values.searches);
if (!Number.isInteger(searches) || searches < 1) throw new Error(`--searches must be a positive integer`);
const embedder: Embedder | undefined = values.embed === undefined ? undefined : embedderOf(values.embed);

const APP = 'bench';
const EVENTS_PER_SESSION = 20;
const MEMORIES_PER_USER = 1000;
const words = vocabulary(1);
type Cell = { searchP50Ms: number; searchP99Ms: number; ingestPerSecond: number };
type Store = MemoryService & { close(): Promise<void> };

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
const progress = (text: string) => process.stderr.write(`\r\x1b[K${text}`);

/** Fills a fresh store with `size` memories, then times `searches` searches (after a warm-up of a tenth as many). */
async function measure(label: string, store: Store, size: number): Promise<Cell> {
  const users = Math.max(1, Math.round(size / MEMORIES_PER_USER));
  const next = random(size);
  const sessions = Math.ceil(size / EVENTS_PER_SESSION);
  let ingestNs = 0n;
  for (let index = 0; index < sessions; index++) {
    const texts = chatter(next, words, Math.min(EVENTS_PER_SESSION, size - index * EVENTS_PER_SESSION));
    const user = `user-${Math.floor(next() * users)}`;
    const session = sessionOf(APP, user, `s-${index}`, texts, 1_700_000_000 + index * 3600);
    const start = process.hrtime.bigint();
    await store.addSessionToMemory(session);
    ingestNs += process.hrtime.bigint() - start;
    if (index % 200 === 0 || index === sessions - 1) {
      const done = Math.min(size, (index + 1) * EVENTS_PER_SESSION);
      const rate = Math.round(done / (Number(ingestNs) / 1e9));
      progress(`${label}: remembering ${done.toLocaleString('en')}/${size.toLocaleString('en')} (${rate}/s)`);
    }
  }
  const ingestPerSecond = Math.round(size / (Number(ingestNs) / 1e9));
  const asks = random(size + 1);
  const samples: number[] = [];
  const warmup = Math.ceil(searches / 10);
  for (let i = 0; i < warmup + searches; i++) {
    const userId = `user-${Math.floor(asks() * users)}`;
    const query = question(asks, words);
    const start = process.hrtime.bigint();
    await store.searchMemory({ appName: APP, userId, query });
    if (i >= warmup) samples.push(Number(process.hrtime.bigint() - start) / 1e6);
    if (i % 20 === 0) progress(`${label}: searching ${Math.max(0, i - warmup)}/${searches}`);
  }
  samples.sort((a, b) => a - b);
  const round = (ms: number) => Number(ms.toFixed(2));
  return { searchP50Ms: round(percentile(samples, 50)), searchP99Ms: round(percentile(samples, 99)), ingestPerSecond };
}

async function sqlite(): Promise<Record<string, Cell>> {
  const cells: Record<string, Cell> = {};
  for (const size of sizes) {
    const folder = mkdtempSync(join(tmpdir(), 'agentctx-memory-'));
    const store = createSqliteSessionStore({ path: join(folder, 'memory.db') });
    try {
      cells[size] = await measure(`sqlite ${size}`, store, size);
    } finally {
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    }
  }
  return cells;
}

async function postgres(): Promise<Record<string, Cell>> {
  let cluster: OwnCluster | undefined;
  const url = process.env.TEST_POSTGRES_URL ?? (cluster = await startOwnCluster()).url;
  const cells: Record<string, Cell> = {};
  try {
    for (const size of sizes) {
      const schema = `bench_memory_${size}_${process.pid}`;
      const store = createPostgresSessionStore({ url, schema });
      try {
        cells[size] = await measure(`postgres ${size}`, store, size);
      } finally {
        await store.close();
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await client.end();
      }
    }
  } finally {
    await cluster?.dispose();
  }
  return cells;
}

const started = Date.now();
const result: Record<string, unknown> = {};
for (const name of stores) result[name] = name === 'sqlite' ? await sqlite() : await postgres();
progress('recall: asking the known-answer questions');
result.recallAt5 = await recallAt5(embedder);
process.stderr.write('\n');
result.machine = { cpus: cpus().length, node: process.version, seconds: Math.round((Date.now() - started) / 1000) };

if (values.json) console.log(JSON.stringify(result));
else {
  for (const name of stores) {
    console.log(`${name}: memories  ingest/s  search p50 / p99 ms`);
    for (const [size, cell] of Object.entries(result[name] as Record<string, Cell>))
      console.log(
        `  ${Number(size).toLocaleString('en').padStart(9)}  ${String(cell.ingestPerSecond).padStart(8)}  ${cell.searchP50Ms} / ${cell.searchP99Ms}`,
      );
  }
  console.log('recall@5:', JSON.stringify(result.recallAt5));
  console.log(`(${(result.machine as { seconds: number }).seconds} s)`);
}
