import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node';
import { killDescendants } from './process-tree.js';
import type { RunningRecord } from './running-record.js';

// The suite's watchdog: a vitest reporter, so it lives in vitest's main process, whose event loop stays free while a
// worker spins in synchronous code that vitest's testTimeout cannot interrupt. When a test file has run longer than
// its limit, or the whole run longer than its own, it names every file still running and the test each is in (from
// the records running-test.ts writes), kills the workers and every process they started, writes the JSON report CI
// counts from (the stuck files counted as failed tests) and exits 1.

const FILE_LIMIT = 'AGENTCTX_TEST_FILE_LIMIT';
const RUN_LIMIT = 'AGENTCTX_TEST_RUN_LIMIT';

export type WatchdogOptions = {
  /** Where the JSON report goes when the watchdog ends the run (the json reporter's file, which it then never writes). */
  reportFile: string;
  /** Seconds one test file may run; default 180, or AGENTCTX_TEST_FILE_LIMIT. */
  fileLimitSeconds?: number;
  /** Seconds the whole run may take; default 900, or AGENTCTX_TEST_RUN_LIMIT. */
  runLimitSeconds?: number;
};

type Running = { file: string; since: number; test: string | null; testSince: number };

export class WatchdogReporter implements Reporter {
  private readonly folder = mkdtempSync(join(tmpdir(), 'agentctx-vitest-running-'));
  private readonly fileLimitMs: number;
  private readonly runLimitMs: number;
  private readonly queued = new Map<string, number>();
  private readonly ended = new Set<string>();
  private readonly counts = { passed: 0, failed: 0, skipped: 0 };
  private root = process.cwd();
  private runStarted = Date.now();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: WatchdogOptions) {
    this.fileLimitMs = 1000 * (options.fileLimitSeconds ?? seconds(FILE_LIMIT, 180));
    this.runLimitMs = 1000 * (options.runLimitSeconds ?? seconds(RUN_LIMIT, 900));
    // The workers vitest forks inherit this, and tell it which file and test they are in (running-test.ts).
    process.env.AGENTCTX_TEST_RUNNING_DIR = this.folder;
    process.once('exit', () => rmSync(this.folder, { recursive: true, force: true }));
  }

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.runStarted = Date.now();
    this.timer = setInterval(() => this.check(), 500);
    this.timer.unref();
  }

  onTestModuleQueued(module: TestModule): void {
    this.queued.set(module.moduleId, Date.now());
  }

  onTestModuleEnd(module: TestModule): void {
    this.ended.add(module.moduleId);
  }

  onTestCaseResult(test: TestCase): void {
    const state = test.result().state;
    if (state === 'passed' || state === 'failed') this.counts[state] += 1;
    else this.counts.skipped += 1;
  }

  onTestRunEnd(): void {
    clearInterval(this.timer);
  }

  /** The files being run now, with the test each is in where a worker said so. */
  running(): Running[] {
    const byFile = new Map<string, Running>();
    for (const name of safeList(this.folder)) {
      const record = readRecord(join(this.folder, name));
      if (record === undefined || record.file === '' || this.ended.has(record.file)) continue;
      const known = byFile.get(record.file);
      if (known === undefined || known.since < record.fileStarted)
        byFile.set(record.file, {
          file: record.file,
          since: record.fileStarted,
          test: record.test,
          testSince: record.testStarted,
        });
    }
    // A file queued that no worker has reported on yet (stuck before its setup ran), timed from when it was queued.
    for (const [file, since] of this.queued)
      if (!this.ended.has(file) && !byFile.has(file)) byFile.set(file, { file, since, test: null, testSince: since });
    return [...byFile.values()].sort((a, b) => a.since - b.since);
  }

  private check(): void {
    const now = Date.now();
    const running = this.running();
    const over = running.filter((entry) => now - entry.since > this.fileLimitMs);
    if (over.length > 0)
      this.stop(
        `${over.map((entry) => this.name(entry.file)).join(', ')} ran longer than the limit of ${this.fileLimitMs / 1000} s a file (${FILE_LIMIT} sets it, in seconds)`,
        running,
        over,
      );
    else if (now - this.runStarted > this.runLimitMs)
      this.stop(
        `the run took longer than its limit of ${this.runLimitMs / 1000} s (${RUN_LIMIT} sets it, in seconds)`,
        running,
        running,
      );
  }

  private stop(reason: string, running: readonly Running[], stuck: readonly Running[]): never {
    clearInterval(this.timer);
    const now = Date.now();
    const lines = [`\nwatchdog: stopping the run: ${reason}.`, 'Files still running:'];
    for (const entry of running) {
      const test =
        entry.test === null ? 'between tests' : `in test "${entry.test}" for ${seconds1(now - entry.testSince)}`;
      lines.push(`  ${this.name(entry.file)}  ${seconds1(now - entry.since)}, ${test}`);
    }
    if (running.length === 0) lines.push('  (none reported)');
    lines.push(
      'A test of code that may never return runs it through inChild (test/support/in-child.ts), which kills it after a timeout.',
    );
    process.stderr.write(`${lines.join('\n')}\n`);
    const killed = killDescendants(process.pid);
    process.stderr.write(
      `watchdog: killed ${killed.length} process${killed.length === 1 ? '' : 'es'} of the run; exiting 1.\n`,
    );
    this.writeReport(stuck, reason);
    process.exit(1);
  }

  private writeReport(stuck: readonly Running[], reason: string): void {
    const failed = this.counts.failed + stuck.length;
    const report = {
      success: false,
      numPassedTests: this.counts.passed,
      numFailedTests: failed,
      numPendingTests: this.counts.skipped,
      numTotalTests: this.counts.passed + failed + this.counts.skipped,
      numFailedTestSuites: stuck.length,
      watchdog: { reason, stuck: stuck.map((entry) => ({ file: this.name(entry.file), test: entry.test })) },
    };
    try {
      mkdirSync(dirname(this.options.reportFile), { recursive: true });
      writeFileSync(this.options.reportFile, JSON.stringify(report, null, 2));
    } catch (error) {
      process.stderr.write(`watchdog: could not write ${this.options.reportFile}: ${String(error)}\n`);
    }
  }

  private name(file: string): string {
    return relative(this.root, file);
  }
}

function seconds(variable: string, fallback: number): number {
  const text = process.env[variable];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${variable} must be a number of seconds greater than 0, not '${text}'`);
  return value;
}

const seconds1 = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

function safeList(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}

function readRecord(path: string): RunningRecord | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as RunningRecord;
  } catch {
    // Being written at this moment; the next check reads it.
    return undefined;
  }
}
