/** What a worker writes of the test file it is in (running-test.ts), for the watchdog to read. */
export type RunningRecord = {
  /** The test file's absolute path. */
  file: string;
  /** When the worker began it, in milliseconds since the epoch. */
  fileStarted: number;
  /** The test it is in (suite names and its own, joined by ' > '), or null between tests. */
  test: string | null;
  testStarted: number;
};
