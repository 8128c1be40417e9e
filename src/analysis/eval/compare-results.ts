import type { EvalCaseRun, EvalEfficiency, EvalStatus } from '../../contracts/evaluation.js';
import type { ModelCallRecord } from '../../contracts/model-call.js';
import { diffRequests } from '../../engine/assembly/diff-requests.js';
import { SUMMARIZER_AGENT } from '../../engine/runner/side-call.js';
import { sumEfficiency } from './eval-efficiency.js';

/** Which side of a comparison: `a` is the baseline, `b` the change. */
export type ComparisonSide = 'a' | 'b';

/** Where the first pair of requests that are not byte-identical differ. */
export type RequestDifference = {
  /**
   * The number of the call on each side (1 is the session's first; absent on a side that made no such call). The
   * agents' calls are paired in order; calls made beside them (embeddings, a compaction's summaries) are not paired.
   */
  calls: { a?: number; b?: number };
  /** The agent that made it on each side (absent on a side that made no such call). */
  agents: { a?: string; b?: string };
  /**
   * What differs: `system from character N`, `tools[i]`, `messages[i].content[j]`, `config`, or that one side made
   * no such call (`no call on a`).
   */
  where: string[];
  /** Characters the two requests share from their start, in their JSON form, of the longer one's. */
  commonPrefix: { chars: number; of: number };
};

/** One side of a case run: its status, metric scores and cost. */
export type SideOutcome = {
  status: EvalStatus;
  metrics: { metricName: string; score?: number; evalStatus: EvalStatus; threshold?: number }[];
  efficiency: EvalEfficiency;
  sessionId: string;
  userId?: string;
};

/** One run of one case under both sides. */
export type CaseComparison = {
  evalSetId: string;
  evalId: string;
  /** 1 unless the cases ran several times. */
  run: number;
  a: SideOutcome;
  b: SideOutcome;
  /** Where the case passed: on both sides, neither, or only one — a change of behaviour. */
  passedOn: 'both' | 'neither' | ComparisonSide;
  /** The first call whose requests differ; absent when every request was byte-identical on both sides. */
  firstDifference?: RequestDifference;
};

/** One side over every case run. */
export type VariantTotal = {
  label: string;
  /** The app the side's sessions are in (its root agent's name), where the inspector finds them. */
  appName?: string;
  passed: number;
  failed: number;
  notEvaluated: number;
  /** Per metric: how many case runs passed it, of how many, and the mean score of those evaluated. */
  metrics: { metricName: string; passed: number; of: number; mean?: number }[];
  efficiency: EvalEfficiency;
};

/** Two variants of an agent run over the same eval cases: per case run and in total. */
export type EvalComparison = {
  a: VariantTotal;
  b: VariantTotal;
  cases: CaseComparison[];
};

/**
 * Pairs the two sides' results (the same cases, in the same order, the same number of runs) into a comparison. The
 * request differences are looked up by case run, in the same order as the results.
 */
export function compareResults(input: {
  a: { label: string; appName?: string; results: readonly EvalCaseRun[] };
  b: { label: string; appName?: string; results: readonly EvalCaseRun[] };
  runs: number;
  differences: readonly (RequestDifference | undefined)[];
}): EvalComparison {
  const { a, b } = input;
  if (a.results.length !== b.results.length)
    throw new RangeError(`the sides ran ${a.results.length} and ${b.results.length} cases; a comparison needs both`);
  const perRun = a.results.length / input.runs;
  const cases = a.results.map((left, index): CaseComparison => {
    const right = b.results[index] as EvalCaseRun;
    const passedA = left.finalEvalStatus === 'PASSED';
    const passedB = right.finalEvalStatus === 'PASSED';
    const difference = input.differences[index];
    return {
      evalSetId: left.evalSetId,
      evalId: left.evalId,
      run: Math.floor(index / perRun) + 1,
      a: outcome(left),
      b: outcome(right),
      passedOn: passedA && passedB ? 'both' : passedA ? 'a' : passedB ? 'b' : 'neither',
      ...(difference === undefined ? {} : { firstDifference: difference }),
    };
  });
  return { a: total(a, a.results), b: total(b, b.results), cases };
}

/**
 * Where the first pair of the agents' calls of two sessions that are not byte-identical differ; undefined when none
 * differ. Calls made beside the agents — embeddings, summaries — are left out of the pairing: a setting that adds a
 * summary should not make every later call look different.
 */
export function firstRequestDifference(
  a: readonly ModelCallRecord[],
  b: readonly ModelCallRecord[],
): RequestDifference | undefined {
  const left = a.filter(isAgentCall);
  const right = b.filter(isAgentCall);
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const one = left[index];
    const other = right[index];
    const calls = {
      ...(one === undefined ? {} : { a: one.index }),
      ...(other === undefined ? {} : { b: other.index }),
    };
    const agents = {
      ...(one === undefined ? {} : { a: one.agent }),
      ...(other === undefined ? {} : { b: other.agent }),
    };
    if (one === undefined || other === undefined)
      return {
        calls,
        agents,
        where: [`no call on ${one === undefined ? 'a' : 'b'}`],
        commonPrefix: { chars: 0, of: 0 },
      };
    const diff = diffRequests(one.request, other.request);
    if (diff.identical) continue;
    const where = [
      ...(diff.system.identical ? [] : [`system from character ${diff.system.firstDifference ?? 0}`]),
      ...diff.tools.differing,
      ...(diff.messages.firstDifference === undefined ? [] : [diff.messages.firstDifference]),
      ...(diff.config.identical ? [] : ['config']),
    ];
    return { calls, agents, where, commonPrefix: diff.commonPrefix };
  }
  return undefined;
}

function isAgentCall(call: ModelCallRecord): boolean {
  return call.operation !== 'embeddings' && call.agent !== SUMMARIZER_AGENT;
}

function outcome(result: EvalCaseRun): SideOutcome {
  return {
    status: result.finalEvalStatus,
    metrics: result.overallEvalMetricResults.map((metric) => ({
      metricName: metric.metricName,
      ...(metric.score === undefined ? {} : { score: metric.score }),
      evalStatus: metric.evalStatus,
      ...(metric.threshold === undefined ? {} : { threshold: metric.threshold }),
    })),
    efficiency: result.efficiency,
    sessionId: result.sessionId,
    ...(result.userId === undefined ? {} : { userId: result.userId }),
  };
}

function total(side: { label: string; appName?: string }, results: readonly EvalCaseRun[]): VariantTotal {
  const names = [...new Set(results.flatMap((result) => result.overallEvalMetricResults.map((m) => m.metricName)))];
  return {
    label: side.label,
    ...(side.appName === undefined ? {} : { appName: side.appName }),
    passed: results.filter((result) => result.finalEvalStatus === 'PASSED').length,
    failed: results.filter((result) => result.finalEvalStatus === 'FAILED').length,
    notEvaluated: results.filter((result) => result.finalEvalStatus === 'NOT_EVALUATED').length,
    metrics: names.map((metricName) => {
      const of = results.flatMap((result) =>
        result.overallEvalMetricResults.filter((m) => m.metricName === metricName),
      );
      const scores = of.flatMap((metric) => (metric.score === undefined ? [] : [metric.score]));
      return {
        metricName,
        passed: of.filter((metric) => metric.evalStatus === 'PASSED').length,
        of: of.length,
        ...(scores.length === 0 ? {} : { mean: scores.reduce((sum, score) => sum + score, 0) / scores.length }),
      };
    }),
    efficiency: sumEfficiency(results.map((result) => result.efficiency)),
  };
}
