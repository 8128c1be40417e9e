import { relative, resolve } from 'node:path';
import { UsageError } from '../contracts/errors/usage-error.js';
import { checkMetrics } from '../analysis/eval/evaluate-case.js';
import { compareEvalSet } from '../presets/compare-eval-set.js';
import { billAsChoice } from './bill-as-option.js';
import { readEvalInputs } from './eval-inputs.js';
import { formatComparison } from './format-compare.js';
import type { CliIo } from './io.js';
import { progressBar } from './progress.js';
import { profileChoice } from './profile-option.js';
import type { AgentRunner, CliRuntime } from './runtime.js';
import { createStyle } from './style.js';

/** The options `eval --compare` adds to `eval`'s. */
export const COMPARE_OPTIONS = {
  compare: { type: 'boolean' },
  'model-a': { type: 'string' },
  'model-b': { type: 'string' },
  'profile-a': { type: 'string' },
  'profile-b': { type: 'string' },
} as const;

/** `eval --compare` in `agentctx eval --help`. */
export const COMPARE_HELP = `'eval --compare <a> <b> <evalset>' runs the same cases under two variants of an
agent — two agent files (a compaction or paging setting, memory on or off), or
one file under two profiles or models — and reports, per case run and in total,
each metric on both sides, prompt tokens, the share read from a prompt cache, USD
with caching and time, and the first call whose request differs between the two,
and where. Ids come from a counter on both sides, so requests that should be
equal are byte-identical. It exits 1 when b fails a case that a passes.`;

type CompareValues = {
  model?: string | undefined;
  profile?: string | undefined;
  store?: string | undefined;
  judge?: string | undefined;
  runs?: string | undefined;
  config?: string | undefined;
  json?: boolean | undefined;
  'bill-as'?: string | undefined;
  'model-a'?: string | undefined;
  'model-b'?: string | undefined;
  'profile-a'?: string | undefined;
  'profile-b'?: string | undefined;
  csv?: string | undefined;
  out?: string | undefined;
};

/** `agentctx eval --compare <a> <b> <evalset-or-folder>`: both variants over the same cases, side by side. */
export async function compareVariants(
  positionals: readonly string[],
  values: CompareValues,
  io: CliIo,
  runtime: CliRuntime,
): Promise<number> {
  const [fileA, fileB, setPath, ...extra] = positionals;
  if (fileA === undefined || fileB === undefined || setPath === undefined || extra.length > 0)
    throw new UsageError(
      `eval --compare takes two agent files and one eval set, got ${positionals.length} paths.`,
      'For example: agentctx eval --compare naive.yaml paged.yaml tests/ (the same file twice with --profile-a/-b)',
    );
  if (values.out !== undefined || values.csv !== undefined)
    throw new UsageError('--out and --csv are for one agent; eval --compare prints its comparison (--json for JSON).');
  const { runs, sets, metrics } = await readEvalInputs(setPath, values, io.cwd);
  const judge = values.judge === undefined ? undefined : await runtime.model(values.judge);
  checkMetrics(metrics, judge);
  const sides = [
    { file: fileA, model: values['model-a'] ?? values.model, profile: values['profile-a'] ?? values.profile },
    { file: fileB, model: values['model-b'] ?? values.model, profile: values['profile-b'] ?? values.profile },
  ];
  // Every choice checked before any agent or model is opened, each named as it was given.
  for (const option of ['profile-a', 'profile-b'] as const) {
    const value = values[option];
    if (value !== undefined && value !== 'agentctx' && value !== 'adk')
      throw new UsageError(`--${option} must be agentctx or adk, got '${value}'.`);
  }
  const choices = sides.map((side) => ({ ...profileChoice(side.profile), ...billAsChoice(values['bill-as']) }));
  const runners: AgentRunner[] = [];
  for (const [index, side] of sides.entries()) {
    // Ids from a counter, so both sides send the same bytes wherever their context is the same.
    let ids = 0;
    runners.push(
      await runtime.runner(side.file, {
        store: values.store ?? 'memory',
        model: side.model,
        streaming: false,
        ...choices[index],
        newId: () => `id${++ids}`,
        // One store for both sides: their sessions have ids of their own.
        ...(runners[0] === undefined ? {} : { stores: runners[0] }),
      }),
    );
  }
  const [a, b] = runners as [AgentRunner, AgentRunner];
  const labels = sides.map((side) => label(side, sides, io.cwd)) as [string, string];
  const bar = progressBar(io, 'eval --compare');
  const comparison = await compareEvalSet({
    a: { label: labels[0], runner: a.runner },
    b: { label: labels[1], runner: b.runner },
    evalSet: sets.map(({ set }) => set),
    metrics,
    runs,
    ...(judge === undefined ? {} : { judge }),
    onResult: ({ done, total }) => bar.update(done, total),
    onMetricError: (evalId, metricName, error) =>
      io.stderr(
        `warning: ${metricName} was not evaluated for ${evalId}: ${error instanceof Error ? error.message : String(error)}\n`,
      ),
  });
  bar.done();
  io.stdout(
    values.json === true
      ? `${JSON.stringify(comparison, null, 2)}\n`
      : formatComparison(comparison, createStyle(io.isTty), inspectHint(values.store, sides)),
  );
  return comparison.cases.some((each) => each.passedOn === 'a') ? 1 : 0;
}

// A side's name: its file, and what sets it apart from the other side when the files are the same.
function label(
  side: { file: string; model: string | undefined; profile: string | undefined },
  sides: readonly { file: string; model: string | undefined; profile: string | undefined }[],
  cwd: string,
): string {
  const other = sides.find((each) => each !== side);
  const parts = [relative(cwd, resolve(cwd, side.file)) || side.file];
  if (side.profile !== other?.profile) parts.push(`profile ${side.profile ?? 'agentctx'}`);
  if (side.model !== other?.model) parts.push(`model ${side.model ?? 'the agents’ own'}`);
  return parts.length === 1 ? (parts[0] as string) : `${parts[0]} (${parts.slice(1).join(', ')})`;
}

function inspectHint(
  store: string | undefined,
  sides: readonly { file: string }[],
): ((side: 0 | 1) => string) | undefined {
  if (store === undefined || store === 'memory') return undefined;
  return (side) => `agentctx inspect ${sides[side]?.file} --store ${store}`;
}
