import type { EvalEfficiency } from '../contracts/evaluation.js';
import type { CaseComparison, EvalComparison, VariantTotal } from '../analysis/eval/compare-results.js';
import type { Style } from './style.js';

/**
 * `eval --compare`'s report: the two sides' totals in two columns (cases passed, each metric's mean, calls, prompt
 * tokens and the cached share, USD with caching, time) with B's change against A, then a line per case run — its
 * status on each side, its metrics and cost from A to B, the first call whose request differs — the runs whose
 * outcome changed marked.
 */
export function formatComparison(
  comparison: EvalComparison,
  style: Style,
  /** The inspect command of each side's sessions, when they are kept in a store. */
  inspect?: (side: 0 | 1) => string,
): string {
  const { a, b } = comparison;
  const lines = [`a: ${a.label}`, `b: ${b.label}`, ''];
  const rows: [string, string, string, string][] = [
    ['', 'a', 'b', 'b against a'],
    ['cases passed', `${a.passed} of ${count(a)}`, `${b.passed} of ${count(b)}`, ''],
    ...a.metrics.map((metric): [string, string, string, string] => {
      const other = b.metrics.find((each) => each.metricName === metric.metricName);
      return [
        `${metric.metricName} (mean)`,
        score(metric.mean),
        score(other?.mean),
        metric.mean === undefined || other?.mean === undefined || other.mean === metric.mean
          ? ''
          : signed(other.mean - metric.mean, 2),
      ];
    }),
    ...efficiencyRows(a.efficiency, b.efficiency),
  ];
  const widths = [0, 1, 2].map((column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  for (const row of rows)
    lines.push(
      `  ${row[0].padEnd(widths[0] ?? 0)}  ${row[1].padStart(widths[1] ?? 0)}  ${row[2].padStart(widths[2] ?? 0)}  ${style.dim(row[3])}`.trimEnd(),
    );
  lines.push('', 'per case run (a, b):');
  for (const each of comparison.cases) lines.push(...caseLines(each, style, inspect));
  const changed = comparison.cases.filter((each) => each.passedOn === 'a' || each.passedOn === 'b');
  lines.push(
    '',
    changed.length === 0
      ? 'no case changed its outcome'
      : `${changed.length} case run${changed.length === 1 ? '' : 's'} changed outcome: ${changed
          .map((each) => `${each.evalId}${each.run > 1 ? ` (run ${each.run})` : ''} passes only on ${each.passedOn}`)
          .join('; ')}`,
  );
  return `${lines.join('\n')}\n`;
}

function caseLines(each: CaseComparison, style: Style, inspect?: (side: 0 | 1) => string): string[] {
  const mark = (status: string) =>
    status === 'PASSED' ? style.green('✓') : status === 'FAILED' ? style.red('✗') : style.dim('–');
  const metrics = each.a.metrics.map((metric) => {
    const other = each.b.metrics.find((candidate) => candidate.metricName === metric.metricName);
    return `${metric.metricName} ${score(metric.score)} → ${score(other?.score)}`;
  });
  const run = each.run > 1 ? ` (run ${each.run})` : '';
  const flag = each.passedOn === 'a' || each.passedOn === 'b' ? style.red(`  ← passes only on ${each.passedOn}`) : '';
  const lines = [`  ${mark(each.a.status)} ${mark(each.b.status)} ${each.evalId}${run}  ${metrics.join('  ')}${flag}`];
  const { a, b } = { a: each.a.efficiency, b: each.b.efficiency };
  lines.push(
    style.dim(
      `      prompt tokens ${a.promptTokens.toLocaleString('en-US')} → ${b.promptTokens.toLocaleString('en-US')}${percent(a.promptTokens, b.promptTokens)} · ${usd(a)} → ${usd(b)}${a.usd === undefined || b.usd === undefined ? '' : percent(a.usd, b.usd)} · cached ${share(a)} → ${share(b)} · ${a.modelCalls} → ${b.modelCalls} calls`,
    ),
  );
  const difference = each.firstDifference;
  lines.push(
    style.dim(
      difference === undefined
        ? '      every request byte-identical on both sides'
        : `      first differing request: ${callsOf(difference.calls)}${agentsOf(difference.agents)}: ${difference.where.join(', ')}${difference.commonPrefix.of === 0 ? '' : `; ${difference.commonPrefix.chars.toLocaleString('en-US')} of ${difference.commonPrefix.of.toLocaleString('en-US')} characters shared from the start`}`,
    ),
  );
  if (inspect !== undefined && each.passedOn !== 'both')
    for (const side of [0, 1] as const) {
      const outcome = side === 0 ? each.a : each.b;
      lines.push(
        style.dim(
          `      ${side === 0 ? 'a' : 'b'}: ${inspect(side)} --user ${outcome.userId} --session ${outcome.sessionId}`,
        ),
      );
    }
  return lines;
}

function efficiencyRows(a: EvalEfficiency, b: EvalEfficiency): [string, string, string, string][] {
  const number = (value: number) => value.toLocaleString('en-US');
  return [
    ['model calls', number(a.modelCalls), number(b.modelCalls), percent(a.modelCalls, b.modelCalls).trim()],
    ['tool calls', number(a.toolCalls), number(b.toolCalls), percent(a.toolCalls, b.toolCalls).trim()],
    ['prompt tokens', number(a.promptTokens), number(b.promptTokens), percent(a.promptTokens, b.promptTokens).trim()],
    ['read from the cache', share(a), share(b), ''],
    ['output tokens', number(a.outputTokens), number(b.outputTokens), percent(a.outputTokens, b.outputTokens).trim()],
    [
      'USD with caching',
      usd(a),
      usd(b),
      a.usd === undefined || b.usd === undefined ? '' : percent(a.usd, b.usd).trim(),
    ],
    ['time', `${(a.wallMs / 1000).toFixed(1)} s`, `${(b.wallMs / 1000).toFixed(1)} s`, ''],
  ];
}

function count(total: VariantTotal): number {
  return total.passed + total.failed + total.notEvaluated;
}

function score(value: number | undefined): string {
  return value === undefined ? 'n/a' : value.toFixed(2);
}

function signed(value: number, digits: number): string {
  return `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(digits)}`;
}

function percent(a: number, b: number): string {
  if (a === b) return '';
  if (a === 0) return ' (new)';
  return ` (${signed(((b - a) / a) * 100, 1)}%)`;
}

function share(efficiency: EvalEfficiency): string {
  return `${(efficiency.cacheHitRatio * 100).toFixed(0)}%`;
}

function usd(efficiency: EvalEfficiency): string {
  return efficiency.usd === undefined ? 'no USD' : `$${efficiency.usd.toFixed(efficiency.usd < 0.01 ? 6 : 4)}`;
}

function callsOf(calls: { a?: number; b?: number }): string {
  if (calls.a === calls.b) return `call ${calls.a}`;
  return `call ${calls.a ?? 'none'} on a, ${calls.b ?? 'none'} on b`;
}

function agentsOf(agents: { a?: string; b?: string }): string {
  if (agents.a === agents.b) return agents.a === undefined ? '' : ` (${agents.a})`;
  return ` (a: ${agents.a ?? 'none'}, b: ${agents.b ?? 'none'})`;
}
