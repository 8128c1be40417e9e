import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../support/cli.js';

// `npm run bench:memory`, kept short (1,000 memories on SQLite, 20 searches): its JSON has the shape the issue names,
// and on the known-answer corpus agentctx's keyword ranking finds more than ADK's in-memory rule (it imports the built
// package, as the bench does: the suite builds it first).
describe('bench:memory', () => {
  it('prints search latency, ingestion rate and recall@5 as one JSON object', { timeout: 150_000 }, async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'bench/memory.ts', '--sizes', '1000', '--stores', 'sqlite', '--searches', '20', '--json'],
      { cwd: repositoryRoot, timeout: 140_000, maxBuffer: 1 << 20 },
    );
    const result = JSON.parse(stdout) as {
      sqlite: Record<string, { searchP50Ms: number; searchP99Ms: number; ingestPerSecond: number }>;
      recallAt5: { keyword: number; adkInMemory: number; vector?: number };
    };
    const measured = result.sqlite['1000'];
    expect(measured?.searchP50Ms).toBeGreaterThan(0);
    expect(measured?.searchP99Ms).toBeGreaterThanOrEqual(measured?.searchP50Ms as number);
    expect(measured?.ingestPerSecond).toBeGreaterThan(0);
    expect(result.recallAt5.keyword).toBeGreaterThan(result.recallAt5.adkInMemory);
    // No real embedder here: no vector numbers are made up.
    expect(result.recallAt5.vector).toBeUndefined();
  });
});
