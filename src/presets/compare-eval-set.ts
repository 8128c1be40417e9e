import type { EvalCaseRun, EvalSet } from '../contracts/evaluation.js';
import type { ModelCallRecord } from '../contracts/model-call.js';
import type { Runner } from '../engine/runner/runner.js';
import {
  compareResults,
  firstRequestDifference,
  type ComparisonSide,
  type EvalComparison,
  type RequestDifference,
} from '../analysis/eval/compare-results.js';
import { checkMetrics } from '../analysis/eval/evaluate-case.js';
import { runEvalSet, type RunEvalSetOptions } from './run-eval-set.js';

/** One side of a comparison: a name for the report, and the runner of that variant of the agent. */
export type EvalVariant = { readonly label: string; readonly runner: Runner };

export type CompareEvalSetOptions = Omit<RunEvalSetOptions, 'runner' | 'evalSet' | 'onResult' | 'sessionPrefix'> & {
  /** The eval set, or several: their cases are compared one after the other. */
  readonly evalSet: EvalSet | readonly EvalSet[];
  /** The baseline. */
  readonly a: EvalVariant;
  /** The change. */
  readonly b: EvalVariant;
  /** Session ids of this comparison start with it, then `-a` or `-b`; random by default. */
  readonly sessionPrefix?: string;
  /** Called as each case run of either side ends, for a progress bar. */
  readonly onResult?: (progress: {
    readonly done: number;
    readonly total: number;
    readonly side: ComparisonSide;
    readonly result: EvalCaseRun;
  }) => void;
};

/**
 * Runs the same eval set under two variants of an agent — two agent files, two profiles, a compaction or paging
 * setting, memory on and off — and compares them per case run and in total: each metric, prompt tokens, the share read
 * from a prompt cache, USD with caching, time, and for each case run the first call whose request differs between the
 * two and where. With scripted models the comparison is deterministic, so it can guard a context change in CI.
 */
export async function compareEvalSet(options: CompareEvalSetOptions): Promise<EvalComparison> {
  checkMetrics(options.metrics, options.judge);
  const sets: readonly EvalSet[] = Array.isArray(options.evalSet) ? options.evalSet : [options.evalSet as EvalSet];
  const prefix = options.sessionPrefix ?? `compare-${crypto.randomUUID().slice(0, 8)}`;
  const runs = options.runs ?? 1;
  const total = sets.reduce((sum, set) => sum + set.evalCases.length, 0) * runs * 2;
  let done = 0;
  // Side by side, set by set: A's runs of a set, then B's, each in sessions of its own.
  const a: EvalCaseRun[] = [];
  const b: EvalCaseRun[] = [];
  for (const [index, evalSet] of sets.entries())
    for (const [which, variant, into] of [
      ['a', options.a, a],
      ['b', options.b, b],
    ] as const)
      into.push(
        ...(await runEvalSet({
          ...options,
          evalSet,
          runner: variant.runner,
          sessionPrefix: `${prefix}-${which}${sets.length > 1 ? `-set${index + 1}` : ''}`,
          onResult: ({ result }) => options.onResult?.({ done: ++done, total, side: which, result }),
        })),
      );
  const differences: (RequestDifference | undefined)[] = [];
  for (const [index, left] of a.entries()) {
    const right = b[index] as EvalCaseRun;
    differences.push(
      firstRequestDifference(await callsOf(options.a.runner, left), await callsOf(options.b.runner, right)),
    );
  }
  return compareResults({
    a: { label: options.a.label, appName: options.a.runner.appName, results: a },
    b: { label: options.b.label, appName: options.b.runner.appName, results: b },
    runs,
    differences,
  });
}

// A case run's recorded calls, whole, in order (none when its runner records none).
async function callsOf(runner: Runner, result: EvalCaseRun): Promise<ModelCallRecord[]> {
  const key = { appName: runner.appName, userId: result.userId ?? 'test_user_id', sessionId: result.sessionId };
  const records: ModelCallRecord[] = [];
  for (const summary of (await runner.calls?.listModelCalls(key)) ?? []) {
    const record = await runner.calls?.getModelCall({ ...key, index: summary.index });
    if (record !== undefined) records.push(record);
  }
  return records;
}
