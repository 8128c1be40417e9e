import { relative } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// The tests `npm run mutate` (StrykerJS, docs/mutation.md) runs against each mutant: the suites that exercise the
// mutated modules in this process. Left out: tests that run the built CLI or dist/ (a mutant of src/ is invisible to
// them, so they could only waste time), Chromium, PostgreSQL, kill loops and benchmarks. Stryker narrows this set
// further per module (`testFiles` in stryker.config.mjs) and per mutant (the tests that covered it).

// Stryker stops a mutant's run at its first failing test, so the files most likely to fail soonest go first: those
// that failed last time (they killed the previous mutant), then the quickest. (Vitest's own order runs the slowest first.)
class QuickFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const key = (spec: TestSpecification) => `${spec.project.name}:${relative(this.ctx.config.root, spec.moduleId)}`;
    const rank = (spec: TestSpecification) => {
      const result = cache.getFileTestResults(key(spec));
      const size = cache.getFileStats(key(spec))?.size ?? 0;
      return { failed: result?.failed === true ? 0 : 1, duration: result?.duration ?? Number.POSITIVE_INFINITY, size };
    };
    return [...files]
      .map((spec) => ({ spec, rank: rank(spec) }))
      .sort((a, b) => a.rank.failed - b.rank.failed || a.rank.duration - b.rank.duration || a.rank.size - b.rank.size)
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'test/{agents,compaction,contents,engine,harness,instructions,paging,plugins,runner,security,server,sessions,stores,templating,web}/**/*.test.ts',
    ],
    exclude: [
      '**/node_modules/**',
      '**/*kill*.test.ts', // SIGKILL loops on child processes running dist/
      'test/compaction/benchmark.test.ts', // imports the built package
      'test/plugins/inspect-plugins.test.ts', // runs the built CLI
      'test/server/scale.test.ts', // PostgreSQL and many processes
      'test/stores/crash.test.ts', // kills child processes running dist/
      'test/stores/postgres.test.ts',
      'test/web/*browser*.test.ts', // Chromium
      'test/web/cost-api.test.ts', // runs the built CLI
    ],
    setupFiles: ['test/mutation/setup.ts'],
    sequence: { sequencer: QuickFirst },
    testTimeout: 20_000,
  },
});
