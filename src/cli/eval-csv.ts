import type { EvalCaseResult, EvalEfficiency, EvalSet } from '../contracts/evaluation.js';

const COLUMNS = [
  'eval_set_id',
  'eval_id',
  'metric',
  'score',
  'threshold',
  'status',
  'case_status',
  'user_id',
  'session_id',
  'model_calls',
  'tool_calls',
  'prompt_tokens',
  'cached_tokens',
  'output_tokens',
  'usd',
  'wall_ms',
];

/**
 * `agentctx eval --csv`: one row per case run and metric (ADK users ask for results they can open in a spreadsheet,
 * adk-python #2652), RFC 4180 quoting, a header row, a score left empty when the metric was not evaluated; each row
 * ends with what its case run cost (the same on every metric row of the run; empty when not measured).
 */
export function formatEvalCsv(
  sets: readonly {
    readonly set: EvalSet;
    readonly results: readonly (EvalCaseResult & { readonly efficiency?: EvalEfficiency })[];
  }[],
): string {
  const rows = sets.flatMap(({ set, results }) =>
    results.flatMap((result) =>
      result.overallEvalMetricResults.map((metric) => [
        set.evalSetId,
        result.evalId,
        metric.metricName,
        metric.score === undefined ? '' : String(metric.score),
        metric.threshold === undefined ? '' : String(metric.threshold),
        metric.evalStatus,
        result.finalEvalStatus,
        result.userId ?? '',
        result.sessionId,
        ...efficiencyCells(result.efficiency),
      ]),
    ),
  );
  return `${[COLUMNS, ...rows].map((row) => row.map(cell).join(',')).join('\r\n')}\r\n`;
}

function efficiencyCells(efficiency: EvalEfficiency | undefined): string[] {
  if (efficiency === undefined) return ['', '', '', '', '', '', ''];
  const { modelCalls, toolCalls, promptTokens, cachedTokens, outputTokens, usd, wallMs } = efficiency;
  return [modelCalls, toolCalls, promptTokens, cachedTokens, outputTokens, usd ?? '', wallMs].map(String);
}

function cell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
