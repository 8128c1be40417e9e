import { afterAll, beforeEach, inject } from 'vitest';

// Loaded by vitest.mutate.config.ts only, after the setup file Stryker's vitest runner adds in front of it.

declare module 'vitest' {
  interface ProvidedContext {
    /** Set by @stryker-mutator/vitest-runner: the global object its instrumented code counts coverage in. */
    globalNamespace: string | undefined;
    /** Set by @stryker-mutator/vitest-runner: the initial run (coverage per test) or a mutant's run (hit count). */
    mode: 'dry-run' | 'mutant' | undefined;
  }
}

// 1. Tests that assert a wall-clock bound measure the machine, not the code: under Stryker's instrumentation (every
// mutant a branch, coverage counted per test) on a busy machine they would fail the initial run, which stops the whole
// mutation run. They are skipped here, and only here.
const WALL_CLOCK_BOUND = [
  /template\.huge/, // injectState over 400 KB in under a second
];

beforeEach((context) => {
  const name = context.task.fullName ?? context.task.name;
  if (WALL_CLOCK_BOUND.some((pattern) => pattern.test(name)))
    context.skip('a wall-clock bound: not run under mutation');
});

// 2. @stryker-mutator/vitest-runner 9.5 (the last release for Node 20) hands a file's coverage back through
// `afterAll(({ meta }) => …)`, which Vitest 4.1 no longer supports: every mutant then ran every test, as if there
// were no coverage. Vitest 4.1 passes the file as the hook's second argument (and only when the first is an empty
// pattern); Stryker 10 does this, and so does this hook until the runner can be upgraded.
type StrykerGlobal = { mutantCoverage?: unknown; hitCount?: number };
const namespace = inject('globalNamespace');
const mode = inject('mode');
if (namespace !== undefined) {
  // eslint-disable-next-line no-empty-pattern
  afterAll(({}, file) => {
    const counted = (globalThis as Record<string, StrykerGlobal | undefined>)[namespace];
    if (counted === undefined) return;
    const meta = file.meta as Record<string, unknown>;
    if (mode === 'mutant') meta['hitCount'] = counted.hitCount;
    else meta['mutantCoverage'] = counted.mutantCoverage;
  });
}
