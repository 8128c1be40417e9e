import type { EvalComparison } from './compare-results.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { JsonReader, joinPath } from '../../engine/util/json-reader.js';

const EFFICIENCY_NUMBERS = [
  'modelCalls',
  'toolCalls',
  'promptTokens',
  'cachedTokens',
  'outputTokens',
  'cacheHitRatio',
  'unpricedCalls',
  'modelLatencyMs',
  'wallMs',
];
const STATUSES = ['PASSED', 'FAILED', 'NOT_EVALUATED'];
const PASSED_ON = ['both', 'neither', 'a', 'b'];

/**
 * A comparison `agentctx eval --compare --json` wrote, read back for the inspector: its shape checked (what the page
 * draws: labels, totals, per case its outcome, scores and cost), every problem listed with its JSON path in one
 * `ValidationError`. Fields the page does not draw are kept as they are.
 */
export function parseComparison(text: string, file: string): EvalComparison {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ValidationError({
      subject: file,
      issues: [{ path: '', message: `is not JSON (${(error as Error).message})` }],
      hint: "Write it with 'agentctx eval --compare … --json > file.json'.",
    });
  }
  const reader = new JsonReader();
  const root = reader.object(value, '', 'a comparison: { a, b, cases }');
  if (root !== undefined) {
    for (const side of ['a', 'b']) readTotal(reader, root[side], side);
    const cases = reader.array(root['cases'], 'cases') ?? [];
    cases.forEach((each, index) => readCase(reader, each, joinPath('cases', index)));
  }
  if (reader.issues.length > 0)
    throw new ValidationError({
      subject: file,
      issues: reader.issues,
      hint: "A comparison file is what 'agentctx eval --compare … --json' prints.",
    });
  return value as EvalComparison;
}

function readTotal(reader: JsonReader, value: unknown, path: string): void {
  const total = reader.object(value, path, 'a side: { label, passed, failed, efficiency, … }');
  if (total === undefined) return;
  reader.string(total, 'label', path);
  reader.string(total, 'appName', path, { optional: true });
  for (const key of ['passed', 'failed', 'notEvaluated']) reader.number(total, key, path, { integer: true, min: 0 });
  readEfficiency(reader, total['efficiency'], joinPath(path, 'efficiency'));
}

function readCase(reader: JsonReader, value: unknown, path: string): void {
  const each = reader.object(value, path, 'a case run: { evalId, a, b, passedOn, … }');
  if (each === undefined) return;
  reader.string(each, 'evalSetId', path);
  reader.string(each, 'evalId', path);
  reader.number(each, 'run', path, { integer: true, min: 1 });
  const passedOn = reader.string(each, 'passedOn', path);
  if (passedOn !== undefined && !PASSED_ON.includes(passedOn))
    reader.issue(joinPath(path, 'passedOn'), `expected one of ${PASSED_ON.join(', ')}, got '${passedOn}'`);
  for (const side of ['a', 'b']) {
    const at = joinPath(path, side);
    const outcome = reader.object(each[side], at, 'an outcome: { status, metrics, efficiency, sessionId }');
    if (outcome === undefined) continue;
    const status = reader.string(outcome, 'status', at);
    if (status !== undefined && !STATUSES.includes(status))
      reader.issue(joinPath(at, 'status'), `expected one of ${STATUSES.join(', ')}, got '${status}'`);
    reader.string(outcome, 'sessionId', at);
    reader.string(outcome, 'userId', at, { optional: true });
    const metrics = reader.array(outcome['metrics'], joinPath(at, 'metrics')) ?? [];
    metrics.forEach((metric, index) => {
      const metricPath = joinPath(joinPath(at, 'metrics'), index);
      const record = reader.object(metric, metricPath, 'a metric: { metricName, score?, evalStatus }');
      if (record === undefined) return;
      reader.string(record, 'metricName', metricPath);
      reader.number(record, 'score', metricPath, { optional: true });
    });
    readEfficiency(reader, outcome['efficiency'], joinPath(at, 'efficiency'));
  }
}

function readEfficiency(reader: JsonReader, value: unknown, path: string): void {
  const efficiency = reader.object(value, path, 'an efficiency: { modelCalls, promptTokens, usd?, … }');
  if (efficiency === undefined) return;
  for (const key of EFFICIENCY_NUMBERS) reader.number(efficiency, key, path, { min: 0 });
  reader.number(efficiency, 'usd', path, { optional: true, min: 0 });
}
