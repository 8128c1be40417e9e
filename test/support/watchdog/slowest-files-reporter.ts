import { relative } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** Ends a run of many files with the ten that took longest, where time spent on the suite is to be won back. */
export class SlowestFilesReporter implements Reporter {
  private root = process.cwd();

  constructor(private readonly count = 10) {}

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (modules.length <= this.count) return;
    const timed = modules
      .map((module) => ({ file: relative(this.root, module.moduleId), ms: module.diagnostic().duration }))
      .sort((a, b) => b.ms - a.ms);
    const width = Math.max(...timed.slice(0, this.count).map((entry) => (entry.ms / 1000).toFixed(1).length));
    const lines = timed
      .slice(0, this.count)
      .map((entry) => `  ${(entry.ms / 1000).toFixed(1).padStart(width)} s  ${entry.file}`);
    process.stdout.write(`\nThe ${this.count} slowest test files:\n${lines.join('\n')}\n`);
  }
}
