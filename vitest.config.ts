import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // CI reads the JSON report to print its `N passed, N failed` line.
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    testTimeout: 20_000,
    // Rebuilds dist/ when src/ is newer: the fault children and the CLI tests run the built code.
    globalSetup: ['test/support/fresh-dist.ts'],
  },
});
