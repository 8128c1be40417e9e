import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { SlowestFilesReporter } from './test/support/watchdog/slowest-files-reporter.js';
import { WatchdogReporter } from './test/support/watchdog/watchdog-reporter.js';

// CI reads the JSON report to print its `N passed, N failed` line.
const reportFile = 'test-results/vitest.json';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    reporters: [
      'default',
      ['json', { outputFile: reportFile }],
      new WatchdogReporter({ reportFile }),
      new SlowestFilesReporter(),
    ],
    testTimeout: 20_000,
    // No test reaches Google's metadata server: google-auth-library would probe 169.254.169.254 for credentials when
    // a Vertex AI model has none of its own; this stops the probe (and child processes inherit it).
    env: { METADATA_SERVER_DETECTION: 'none' },
    // A worker a core, not vitest's one fewer: most files wait on the processes, servers and browsers they start, so
    // on two cores one worker left a core idle (221 s for the suite against 130 s with two).
    maxWorkers: availableParallelism(),
    // Rebuilds dist/ when src/ is newer: the fault children and the CLI tests run the built code.
    globalSetup: ['test/support/fresh-dist.ts'],
    // Tells the watchdog which file and test each worker is in.
    setupFiles: ['test/support/watchdog/running-test.ts'],
  },
});
