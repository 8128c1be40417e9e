import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { EvalCaseResult, EvalMetricResult, Invocation } from '../../src/contracts/evaluation.js';
import { aggregateFailureLine, aggregateRuns } from '../../src/analysis/eval/aggregate-runs.js';
import { pythonMean } from '../../src/analysis/eval/python-mean.js';

// num_runs taken together as ADK 2.5.0's AgentEvaluator takes them (src/google/adk/evaluation/agent_evaluator.py
// L620–709, commit bb56aa56): per case and metric, statistics.mean of every run's per-invocation scores against the
// threshold, and its failure line.

const turn = (text: string): Invocation => ({
  invocationId: '',
  creationTimestamp: 0,
  userContent: { role: 'user', parts: [{ text }] },
});
const metric = (score: number | undefined, threshold = 0.4): EvalMetricResult => ({
  metricName: 'response_match_score',
  threshold,
  evalStatus: score === undefined ? 'NOT_EVALUATED' : score >= threshold ? 'PASSED' : 'FAILED',
  details: {},
  ...(score === undefined ? {} : { score }),
});
const run = (evalId: string, ...scores: (number | undefined)[]): EvalCaseResult => ({
  evalSetId: 'set',
  evalId,
  finalEvalStatus: 'FAILED',
  overallEvalMetricResults: [],
  evalMetricResultPerInvocation: scores.map((score, index) => ({
    actualInvocation: turn(`q${index}`),
    expectedInvocation: turn(`q${index}`),
    evalMetricResults: [metric(score)],
  })),
  sessionId: `s-${evalId}`,
});

describe('num_runs, as AgentEvaluator takes them together', () => {
  it('averages every run’s invocations: a failed run does not fail a case whose mean reaches the threshold', () => {
    const [first, second] = aggregateRuns([run('a', 1, 0), run('b', 0.2), run('a', 0.5, 0.1), run('b', 0.3)]);
    expect(first).toMatchObject({ evalId: 'a', runs: 2 });
    expect(first?.metrics[0]).toMatchObject({ metricName: 'response_match_score', status: 'PASSED', score: 0.4 });
    expect(first?.metrics[0]?.invocations.map((row) => row.result.score)).toEqual([1, 0, 0.5, 0.1]);
    expect(second?.metrics[0]).toMatchObject({ status: 'FAILED', score: 0.25 });
    expect(aggregateFailureLine(second?.metrics[0] as never, 'agent')).toBe(
      'response_match_score for agent Failed. Expected 0.4, but got 0.25.',
    );
  });

  it('fails a metric no run evaluated, and prints it as Python prints None', () => {
    const [only] = aggregateRuns([run('a', undefined), run('a', undefined)]);
    expect(only?.metrics[0]).toMatchObject({ status: 'NOT_EVALUATED', score: undefined });
    expect(aggregateFailureLine(only?.metrics[0] as never, 'agent')).toBe(
      'response_match_score for agent Failed. Expected 0.4, but got None.',
    );
    // Scores that were evaluated count; the others are left out of the mean.
    expect(aggregateRuns([run('a', undefined, 1)])[0]?.metrics[0]).toMatchObject({ status: 'PASSED', score: 1 });
  });

  it('means as statistics.mean does: exactly, rounded once (checked against python3)', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const lists = Array.from({ length: 300 }, (_, index) =>
      Array.from({ length: 1 + (index % 9) }, () => (index % 3 === 0 ? Math.round(next() * 3) / 3 : next())),
    );
    lists.push([0.1, 0.2, 0.3], [1e-320, 3e-320], [2 ** 53, 1, 0], [-0.5, 0.25], [1e308, 1e308]);
    const python = spawnSync(
      'python3',
      ['-c', 'import json,sys,statistics; print(json.dumps([repr(statistics.mean(x)) for x in json.load(sys.stdin)]))'],
      { input: JSON.stringify(lists), encoding: 'utf8', timeout: 20_000 },
    );
    expect(python.status, python.stderr).toBe(0);
    const expected = JSON.parse(python.stdout) as string[];
    const ours = lists.map((list) => pythonMean(list));
    expect(ours.map((value, index) => [index, value])).toEqual(expected.map((text, index) => [index, Number(text)]));
  });
});
