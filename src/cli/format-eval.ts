import type { EvalCaseResult, EvalMetric, EvalSet } from '../contracts/evaluation.js';
import type { Style } from './style.js';

/**
 * `agentctx eval`'s report: per eval set, a line per case run (its status, then each metric's score against its
 * threshold, a failing one marked), the command that opens a failed case's session, then per metric how many runs
 * passed and the mean score.
 */
export function formatEvalResults(
  sets: readonly { readonly set: EvalSet; readonly results: readonly EvalCaseResult[] }[],
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
      const mark =
        result.finalEvalStatus === 'PASSED'
          ? style.green('✓')
          : result.finalEvalStatus === 'FAILED'
            ? style.red('✗')
            : style.dim('–');
      const scores = result.overallEvalMetricResults.map((metric) => {
        const score = metric.score === undefined ? 'not evaluated' : metric.score.toFixed(2);
        const text = `${metric.metricName} ${score}${metric.threshold === undefined ? '' : ` (threshold ${metric.threshold})`}`;
        return metric.evalStatus === 'FAILED' ? style.red(`${text} failed`) : text;
      });
      lines.push(`  ${mark} ${result.evalId}  ${scores.join('  ')}`);
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
  }
  return `${lines.join('\n')}\n`;
}
