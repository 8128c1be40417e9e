import type { EvalCaseResult, EvalEfficiency, EvalMetric, EvalSet } from '../contracts/evaluation.js';
import { aggregateRuns } from '../analysis/eval/aggregate-runs.js';
import type { Style } from './style.js';

type CaseRun = EvalCaseResult & { readonly efficiency?: EvalEfficiency };

/**
 * `agentctx eval`'s report: per eval set, a line per case run (its status, then each metric's score against its
 * threshold, a failing one marked) with what the run cost beneath it, the command that opens a failed case's session,
 * then per metric how many runs passed and the mean score; with several runs, each case's runs taken together as
 * ADK's AgentEvaluator takes them.
 */
export function formatEvalResults(
  sets: readonly { readonly set: EvalSet; readonly results: readonly CaseRun[] }[],
  metrics: readonly EvalMetric[],
  appName: string,
  style: Style,
  /** The inspect command of the store the sessions are in; none when they were kept in memory. */
  inspect?: string,
): string {
  const lines: string[] = [];
  for (const { set, results } of sets) {
    const passed = results.filter((result) => result.finalEvalStatus === 'PASSED').length;
    lines.push(`eval set ${set.evalSetId} (app ${appName}): ${passed} of ${results.length} passed`);
    for (const result of results) {
      const scores = result.overallEvalMetricResults.map((metric) => {
        const score = metric.score === undefined ? 'not evaluated' : metric.score.toFixed(2);
        const text = `${metric.metricName} ${score}${metric.threshold === undefined ? '' : ` (threshold ${metric.threshold})`}`;
        return metric.evalStatus === 'FAILED' ? style.red(`${text} failed`) : text;
      });
      lines.push(`  ${mark(result.finalEvalStatus, style)} ${result.evalId}  ${scores.join('  ')}`);
      if (result.efficiency !== undefined) lines.push(style.dim(`      ${formatEfficiency(result.efficiency)}`));
      if (result.finalEvalStatus === 'FAILED' && inspect !== undefined)
        lines.push(style.dim(`      ${inspect} --user ${result.userId} --session ${result.sessionId}`));
    }
    for (const metric of metrics) {
      const of = results.flatMap((result) =>
        result.overallEvalMetricResults.filter((each) => each.metricName === metric.metricName),
      );
      const scored = of.flatMap((each) => (each.score === undefined ? [] : [each.score]));
      const mean =
        scored.length === 0
          ? 'not evaluated'
          : `mean ${(scored.reduce((sum, score) => sum + score, 0) / scored.length).toFixed(2)}`;
      lines.push(
        `  ${metric.metricName}: ${of.filter((each) => each.evalStatus === 'PASSED').length} of ${of.length} passed, ${mean}`,
      );
    }
    const cases = aggregateRuns(results);
    if (cases.some((each) => each.runs > 1)) {
      lines.push('  over all runs (as ADK’s AgentEvaluator judges them):');
      for (const each of cases) {
        const verdict = each.metrics.every((metric) => metric.status === 'PASSED') ? 'PASSED' : 'FAILED';
        const scores = each.metrics.map(
          (metric) =>
            `${metric.metricName} ${metric.score === undefined ? 'not evaluated' : metric.score.toFixed(2)}${metric.status === 'PASSED' ? '' : ' failed'}`,
        );
        lines.push(`    ${mark(verdict, style)} ${each.evalId} (${each.runs} runs)  ${scores.join('  ')}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** What a run cost, on one line: calls, tools, prompt tokens and the cached share, USD, time. */
export function formatEfficiency(efficiency: EvalEfficiency): string {
  const money =
    efficiency.usd === undefined
      ? 'no USD (unpriced model)'
      : `$${efficiency.usd.toFixed(efficiency.usd < 0.01 ? 6 : 4)}${efficiency.unpricedCalls > 0 ? ` (+ ${efficiency.unpricedCalls} unpriced)` : ''}`;
  return [
    plural(efficiency.modelCalls, 'model call'),
    plural(efficiency.toolCalls, 'tool call'),
    `${efficiency.promptTokens.toLocaleString('en-US')} prompt tokens (${(efficiency.cacheHitRatio * 100).toFixed(0)}% cached)`,
    money,
    `${(efficiency.wallMs / 1000).toFixed(1)} s`,
  ].join(' · ');
}

function plural(count: number, noun: string): string {
  return `${count.toLocaleString('en-US')} ${noun}${count === 1 ? '' : 's'}`;
}

function mark(status: string, style: Style): string {
  return status === 'PASSED' ? style.green('✓') : status === 'FAILED' ? style.red('✗') : style.dim('–');
}
