import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/** The parts of issue 11, in the order `docs/reliability.md` shows them. */
export const AREAS = {
  'bad-input': '1. Bad input',
  fuzzing: '2. Fuzzing',
  faults: '3. Faults',
  isolation: '4. Isolation',
  untrusted: '5. Untrusted text',
} as const;

export type Area = keyof typeof AREAS;

/** The entry points of part 1; every one must have rows (the table test checks it). */
export const ENTRY_POINTS = [
  'agent definition',
  'case file',
  'template',
  'state',
  'events JSON',
  'skill frontmatter',
  'tool arguments',
  'model response',
  'HTTP API body',
  'CLI flags',
] as const;

const REPOSITORY = fileURLToPath(new URL('../../', import.meta.url));

/** `npm run fuzz` runs each property 100 times as often; its rows get this long. */
const FUZZ_TIMEOUT_MS = 15 * 60_000;

/** One row of the table: what was tried at which entry point, what happens, and the test that shows it. */
export type Row = {
  /** Stable and unique across the table; the test's name starts with it, so `vitest -t <id>` runs it. */
  id: string;
  /** Where the input or fault comes in (for part 1, one of `ENTRY_POINTS`). */
  entry: string;
  tried: string;
  /** What happens, as the test checks it. */
  expected: string;
  run: () => unknown;
  timeout?: number;
  /** Set when the row cannot run here (no PostgreSQL server): the test is skipped, loudly, with this reason. */
  skip?: string | undefined;
};

/** The rows one test file declares. */
export type RowGroup = { area: Area; file: string; rows: readonly Row[] };

/** The test's name: the id first, then what it tries. */
export function testName(row: Row): string {
  return `${row.id}: ${row.entry}: ${row.tried}`;
}

/**
 * Declares a file's rows and, when vitest runs that file, runs each row as a test. Another file importing the rows
 * (the table test, the table writer) gets the declarations only, so the table and the tests come from one list.
 */
export function defineRows(
  moduleUrl: string,
  area: Area,
  rows: Row[],
  hooks: { afterAll?: () => unknown } = {},
): RowGroup {
  const path = fileURLToPath(moduleUrl);
  const group: RowGroup = { area, file: relative(REPOSITORY, path), rows };
  if (process.env['VITEST'] !== undefined && expect.getState().testPath === path) {
    describe(AREAS[area], () => {
      if (hooks.afterAll !== undefined) afterAll(hooks.afterAll);
      for (const row of rows) {
        if (row.skip !== undefined) {
          console.warn(`${row.id}: SKIPPED, ${row.skip}`);
          it.skip(`${testName(row)} (SKIPPED: ${row.skip})`, () => undefined);
        } else {
          it(
            testName(row),
            async () => {
              await row.run();
            },
            row.timeout ?? (area === 'fuzzing' && process.env['AGENTCTX_FUZZ'] === '1' ? FUZZ_TIMEOUT_MS : undefined),
          );
        }
      }
    });
  }
  return group;
}
