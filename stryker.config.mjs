// @ts-check
// StrykerJS for `npm run mutate` (docs/mutation.md): one module at a time, chosen by MUTATE_MODULE (the npm script
// sets it from `npm run mutate -- <module>`); the modules, what they mutate and which tests may kill their mutants are
// listed in test/mutation/modules.json.
import { readFileSync } from 'node:fs';

/** @type {Record<string, { about: string; mutate: string[]; tests: string[] }>} */
const modules = JSON.parse(readFileSync(new URL('./test/mutation/modules.json', import.meta.url), 'utf8'));
const name = process.env.MUTATE_MODULE ?? '';
const chosen = modules[name];
if (chosen === undefined) {
  throw new Error(`MUTATE_MODULE must name a module of test/mutation/modules.json (${Object.keys(modules).join(', ')}), got "${name}". Run it as: npm run mutate -- <module>`);
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // In-process suites only (no built CLI, dist/, Chromium or PostgreSQL), and of those the module's own.
  vitest: { configFile: 'vitest.mutate.config.ts', related: true },
  testFiles: chosen.tests,
  mutate: chosen.mutate,
  // Each mutant runs only the tests that executed its code in the initial run.
  coverageAnalysis: 'perTest',
  // A mutant of a module-level value (a constant list, a prepared statement's text) can only be tested by reloading
  // everything and running every test of the module, which costs more than all the others together here; they are
  // reported as ignored. MUTATE_STATIC=1 (`npm run mutate -- <module> --static`) includes them.
  ignoreStatic: process.env.MUTATE_STATIC !== '1',
  // Human-readable text (error messages and hints) is not mutated: test/mutation/ignore-text.mjs.
  plugins: ['@stryker-mutator/vitest-runner', './test/mutation/ignore-text.mjs'],
  ignorers: ['agentctx-text'],
  concurrency: 2,
  // typescript@7 is the native compiler without a JavaScript API, which @stryker-mutator/typescript-checker needs:
  // type-invalid mutants are run, and fail (or survive) like any other.
  checkers: [],
  // For the same reason Stryker must not rewrite tsconfig.json in its sandbox (it parses it with that API; the rewrite
  // only moves `extends`/`references` paths that leave the project, and ours have none): point it at no file.
  tsconfigFile: 'no-tsconfig-for-stryker.json',
  // Results are reused while neither a mutant's code nor its tests change; the file is local (reports/ is ignored).
  incremental: true,
  incrementalFile: `reports/mutation/${name}.incremental.json`,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true, reportMutants: false },
  // The sandbox needs dist/ (a few in-process tests compare with the built CLI), not local data.
  ignorePatterns: ['/.agentctx', '/test-results', '/bench/tmp', '*.log'],
  tempDirName: `.stryker-tmp/${name}`,
  // A busy two-core machine: a slow run is not an endless loop.
  timeoutMS: 10_000,
  dryRunTimeoutMinutes: 30,
  thresholds: { high: 90, low: 80, break: null },
};
