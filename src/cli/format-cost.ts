import type { CostReport, CostTotal } from '../analysis/cost/session-cost.js';
import type { Style } from './style.js';

const COLUMNS = ' call  agent                 input  cache read  cache write   output          USD   cached';

/** A session's bill as a table: one row per call, a line per invocation when there are several, the total, the prices used. */
export function formatCostReport(report: CostReport, sessionId: string, style: Style): string {
  const lines = [
    `Cost of session ${sessionId}: ${report.calls.length} model call${report.calls.length === 1 ? '' : 's'}`,
    '',
    style.bold(COLUMNS),
  ];
  for (const row of report.calls) {
    const { tokens } = row;
    lines.push(
      `${String(row.index).padStart(5)}  ${row.agent.slice(0, 20).padEnd(20)} ${num(tokens.input, 6)} ${num(tokens.cacheRead, 11)} ${num(tokens.cacheWrite, 12)} ${num(tokens.output, 8)} ${usd(row.usd?.total, 12)} ${pct(row.cacheHitRatio, 8)}`,
    );
  }
  if (report.invocations.length > 1) {
    lines.push('');
    for (const invocation of report.invocations)
      lines.push(style.dim(`invocation ${invocation.invocationId}: ${summary(invocation)}`));
  }
  lines.push('', style.bold(`total  ${summary(report.total)}`));
  const used = new Map<string, string>();
  for (const row of report.calls)
    if (row.price !== undefined)
      used.set(`${row.price.provider}:${row.price.model}`, `${row.price.source} (${row.price.date})`);
  for (const [model, source] of used) lines.push(style.dim(`price of ${model}: ${source}`));
  const reasons = [...new Set(report.calls.flatMap((row) => (row.unpriced === undefined ? [] : [row.unpriced])))];
  if (reasons.length > 0)
    lines.push(
      style.dim(
        `${report.total.unpricedCalls} call${report.total.unpricedCalls === 1 ? '' : 's'} not priced (${reasons.join('; ')}): tokens shown, no USD guessed; --prices adds a price`,
      ),
    );
  return `${lines.join('\n')}\n`;
}

function summary(total: CostTotal): string {
  const { tokens } = total;
  const money =
    total.usd === undefined
      ? 'no USD (no call could be priced)'
      : `$${total.usd.toFixed(4)}${total.unpricedCalls > 0 ? ` (+ ${total.unpricedCalls} unpriced)` : ''}`;
  return `${total.calls} calls · prompt ${total.promptTokens.toLocaleString('en-US')} tokens (input ${tokens.input.toLocaleString('en-US')}, cache read ${tokens.cacheRead.toLocaleString('en-US')}, cache write ${tokens.cacheWrite.toLocaleString('en-US')}) · output ${tokens.output.toLocaleString('en-US')} · ${money} · ${(total.cacheHitRatio * 100).toFixed(1)}% of the prompt from the cache`;
}

function num(value: number, width: number): string {
  return value.toLocaleString('en-US').padStart(width);
}

function usd(value: number | undefined, width: number): string {
  return (value === undefined ? '—' : `$${value.toFixed(value < 0.01 ? 6 : 4)}`).padStart(width);
}

function pct(value: number, width: number): string {
  return `${(value * 100).toFixed(0)}%`.padStart(width);
}
