import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeEach, expect } from 'vitest';
import type { RunningRecord } from './running-record.js';

// A setup file: it runs in the worker before each test file, and writes, synchronously, which file and which test
// this worker is in to the watchdog's folder. The watchdog (watchdog-reporter.ts) reads it from vitest's main
// process when a file overruns; vitest's own reports come in batches and stop when a worker is stuck.

const folder = process.env.AGENTCTX_TEST_RUNNING_DIR;
if (folder !== undefined) {
  const path = join(folder, `${process.pid}-${threadId}.json`);
  const file = expect.getState().testPath ?? '';
  const fileStarted = Date.now();
  const write = (test: string | null) => {
    const record: RunningRecord = { file, fileStarted, test, testStarted: Date.now() };
    try {
      writeFileSync(path, JSON.stringify(record));
    } catch {
      // The run is ending and the folder is gone: nothing to report to.
    }
  };
  write(null);
  beforeEach((context) => write(context.task.fullTestName ?? context.task.name));
  afterAll(() => write(null));
}
