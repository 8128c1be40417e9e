import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

// `npm run mutate -- <module>…` (docs/mutation.md): runs StrykerJS on each module named (`all` for every one of
// test/mutation/modules.json, in turn), then prints the score, the time it took and the surviving mutants.
// `--static` also runs static mutants (see stryker.config.mjs), `--force` retests every mutant (no incremental reuse); `--summary` only reads the reports already in reports/mutation/ (no run); `--markdown` prints them as the
// tables of docs/mutation.md; `--list` names the modules.

const ROOT = new URL('../../', import.meta.url).pathname;
const REPORTS = join(ROOT, 'reports/mutation');
const STRYKER = join(ROOT, 'node_modules/@stryker-mutator/core/bin/stryker.js');

type Module = { about: string; mutate: string[]; tests: string[] };
type Status =
  | 'Killed'
  | 'Survived'
  | 'NoCoverage'
  | 'Timeout'
  | 'CompileError'
  | 'RuntimeError'
  | 'Ignored'
  | 'Pending';
type Mutant = {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: Status;
  location: { start: { line: number; column: number } };
};
type Report = { files: Record<string, { mutants: Mutant[] }> };
type Summary = {
  module: string;
  mutants: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  errors: number;
  /** Not run: static mutants (unless `--static`) and mutants in human-readable text (test/mutation/ignore-text.mjs). */
  ignored: number;
  /** Stryker's mutation score: detected (killed or timed out) over all valid mutants, in percent. */
  score: number;
  /** The same over the mutants some test executed. */
  coveredScore: number;
  /** Wall-clock seconds of the last run (undefined when the report came from elsewhere). */
  seconds?: number | undefined;
  survivors: { file: string; line: number; column: number; mutator: string; replacement: string; status: Status }[];
};

const modules = JSON.parse(await readFile(join(ROOT, 'test/mutation/modules.json'), 'utf8')) as Record<string, Module>;

function chosenModules(args: string[]): string[] {
  const named = args.filter((arg) => !arg.startsWith('--'));
  if (named.length === 0 && process.env['MUTATE_MODULE']) named.push(process.env['MUTATE_MODULE']);
  if (named.length === 0)
    throw new Error(`name a module (${Object.keys(modules).join(', ')}) or all: npm run mutate -- <module>`);
  const names = named.includes('all') ? Object.keys(modules) : named;
  const unknown = names.filter((name) => !Object.hasOwn(modules, name));
  if (unknown.length > 0)
    throw new Error(`unknown module ${unknown.join(', ')}; the modules are ${Object.keys(modules).join(', ')}`);
  return names;
}

function run(args: string[], env: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', reject);
    child.on('close', (code) => resolve(code ?? 1));
  });
}

// A few in-process tests compare with the built CLI, so dist/ is built first, as `npm test` does. tsc emits even when
// it reports type errors; those are npm test's business, so they only earn a warning here.
async function build(): Promise<void> {
  const code = await run([join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json']);
  if (code !== 0)
    console.warn(`tsc -p tsconfig.build.json exited ${code}: dist/ was built, but check the errors above`);
}

async function summarize(module: string): Promise<Summary | undefined> {
  const text = await readFile(join(REPORTS, `${module}.json`), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const report = JSON.parse(text) as Report;
  const timing = JSON.parse(await readFile(join(REPORTS, `${module}.time.json`), 'utf8').catch(() => '{}')) as {
    seconds?: number;
  };
  const all = Object.entries(report.files).flatMap(([file, { mutants }]) =>
    mutants.map((mutant) => ({ file, mutant })),
  );
  const count = (...statuses: Status[]) => all.filter(({ mutant }) => statuses.includes(mutant.status)).length;
  const detected = count('Killed', 'Timeout');
  const valid = count('Killed', 'Timeout', 'Survived', 'NoCoverage');
  const covered = count('Killed', 'Timeout', 'Survived');
  const survivors = all
    .filter(({ mutant }) => mutant.status === 'Survived' || mutant.status === 'NoCoverage')
    .map(({ file, mutant }) => ({
      file,
      line: mutant.location.start.line,
      column: mutant.location.start.column,
      mutator: mutant.mutatorName,
      replacement: mutant.replacement ?? '',
      status: mutant.status,
    }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
  const percent = (part: number, whole: number) => (whole === 0 ? 100 : Math.round((1000 * part) / whole) / 10);
  return {
    module,
    mutants: all.length,
    killed: count('Killed'),
    timeout: count('Timeout'),
    survived: count('Survived'),
    noCoverage: count('NoCoverage'),
    errors: count('CompileError', 'RuntimeError'),
    ignored: count('Ignored'),
    score: percent(detected, valid),
    coveredScore: percent(detected, covered),
    seconds: timing.seconds,
    survivors,
  };
}

const minutes = (seconds: number | undefined) =>
  seconds === undefined
    ? '—'
    : `${Math.floor(seconds / 60)} min ${String(Math.round(seconds % 60)).padStart(2, '0')} s`;
const oneLine = (text: string) => (text.length > 70 ? `${text.slice(0, 67)}…` : text).replace(/\s+/g, ' ');

function printText(summaries: Summary[]): void {
  for (const s of summaries) {
    console.log(
      `\n${s.module}: score ${s.score}% (${s.killed} killed, ${s.timeout} timed out, ${s.survived} survived, ${s.noCoverage} not covered, ${s.errors} errors, ${s.ignored} ignored, of ${s.mutants}); covered ${s.coveredScore}%; ${minutes(s.seconds)}`,
    );
    for (const m of s.survivors)
      console.log(
        `  ${m.file}:${m.line}:${m.column}  ${m.mutator}${m.status === 'NoCoverage' ? ' (no test runs it)' : ''}  → ${oneLine(m.replacement)}`,
      );
  }
}

function printMarkdown(summaries: Summary[]): void {
  console.log('| module | mutants | ignored | killed | timed out | survived | no coverage | score | time |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of summaries) {
    console.log(
      `| ${s.module} | ${s.mutants} | ${s.ignored} | ${s.killed} | ${s.timeout} | ${s.survived} | ${s.noCoverage} | **${s.score}%** | ${minutes(s.seconds)} |`,
    );
  }
  for (const s of summaries.filter((summary) => summary.survivors.length > 0)) {
    console.log(`\n#### ${s.module}\n\n| where | mutator | replaced by |\n|---|---|---|`);
    for (const m of s.survivors) {
      const replacement = oneLine(m.replacement).replace(/\|/g, '\\|').replace(/`/g, "'");
      console.log(
        `| ${m.file}:${m.line} | ${m.mutator}${m.status === 'NoCoverage' ? ' (no coverage)' : ''} | \`${replacement}\` |`,
      );
    }
  }
}

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const [name, module] of Object.entries(modules)) console.log(`${name.padEnd(12)} ${module.about}`);
} else {
  const names =
    args.includes('--summary') || args.includes('--markdown')
      ? args.some((arg) => !arg.startsWith('--'))
        ? chosenModules(args)
        : Object.keys(modules)
      : chosenModules(args);
  let failed = false;
  if (!args.includes('--summary') && !args.includes('--markdown')) {
    await mkdir(REPORTS, { recursive: true });
    await build();
    for (const name of names) {
      const started = Date.now();
      const env: Record<string, string> = { MUTATE_MODULE: name };
      if (args.includes('--static')) env['MUTATE_STATIC'] = '1';
      const code = await run(
        [STRYKER, 'run', 'stryker.config.mjs', ...(args.includes('--force') ? ['--force'] : [])],
        env,
      );
      const seconds = Math.round((Date.now() - started) / 1000);
      if (code !== 0) {
        console.error(`stryker failed on ${name} (exit ${code}) after ${minutes(seconds)}`);
        failed = true;
        continue;
      }
      await writeFile(
        join(REPORTS, `${name}.time.json`),
        `${JSON.stringify({ seconds, finished: new Date().toISOString() })}\n`,
      );
    }
  }
  const summaries = (await Promise.all(names.map(summarize))).filter(
    (summary): summary is Summary => summary !== undefined,
  );
  if (args.includes('--markdown')) printMarkdown(summaries);
  else printText(summaries);
  if (failed) process.exitCode = 1;
}
