import type { FunctionCall } from '../../contracts/content.js';
import type {
  EvalMetric,
  EvaluationResult,
  Invocation,
  ToolTrajectoryCriterion,
  ToolTrajectoryMatchType,
} from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { scoreInvocations } from './score-invocations.js';
import { allToolCalls } from './tool-calls.js';

// ADK 2.5.0's `tool_trajectory_avg_score` (src/google/adk/evaluation/trajectory_evaluator.py `TrajectoryEvaluator`,
// with `get_all_tool_calls` of eval_case.py and `_validate_invocation_lengths` of evaluator.py L29–41): per invocation 1.0
// when the actual tool calls match the expected ones under the match type, else 0.0; the overall score their mean;
// each status PASSED when its score reaches the threshold. Calls are equal when their names are and their arguments
// are equal as Python compares dicts (`actual.args == expected.args`); call ids are not compared.

export const TOOL_TRAJECTORY_AVG_SCORE = 'tool_trajectory_avg_score';

const MATCH_TYPES: readonly ToolTrajectoryMatchType[] = ['EXACT', 'IN_ORDER', 'ANY_ORDER'];

/**
 * A match type as `ToolTrajectoryCriterion._coerce_match_type` takes it (eval_metrics.py L252–262): the enum's name in any
 * case, with spaces or hyphens for underscores and blanks around (`"in order"`, `" exact "`), or its value 0, 1, 2.
 */
export function toMatchType(value: unknown): ToolTrajectoryMatchType | undefined {
  if (typeof value === 'number') return MATCH_TYPES[value];
  if (typeof value !== 'string') return undefined;
  const normalized = value.trim().toUpperCase().replace(/[- ]/g, '_');
  return MATCH_TYPES.find((type) => type === normalized);
}

/**
 * The trajectory criterion of a metric, as `TrajectoryEvaluator.__init__` builds it (L68–97): from the metric's
 * criterion (its `match_type` or `matchType`, EXACT by default), else from the metric's threshold with EXACT.
 * A criterion whose match type ADK would not take is refused, naming the metric.
 */
export function toolTrajectoryCriterion(metric: EvalMetric): ToolTrajectoryCriterion {
  const criterion = metric.criterion;
  if (criterion === undefined) {
    if (metric.threshold === undefined)
      throw new ValidationError({
        subject: `metric ${metric.metricName}`,
        issues: [{ path: 'threshold', message: 'is required when the metric has no criterion' }],
      });
    return { threshold: metric.threshold, matchType: 'EXACT' };
  }
  const extra = criterion.extra ?? {};
  const raw = 'match_type' in extra ? extra['match_type'] : extra['matchType'];
  const matchType = raw === undefined ? 'EXACT' : toMatchType(raw);
  if (matchType === undefined)
    throw new ValidationError({
      subject: `metric ${metric.metricName}`,
      issues: [
        {
          path: 'criterion.match_type',
          message: `expected one of EXACT, IN_ORDER, ANY_ORDER, got ${JSON.stringify(raw)}`,
        },
      ],
      hint: `\`${metric.metricName}\` metric expects a criterion of type ToolTrajectoryCriterion`,
    });
  return { threshold: criterion.threshold, matchType };
}

/**
 * `TrajectoryEvaluator.evaluate_invocations` (L100–139): actual and expected invocations paired in order (lists of
 * different lengths are refused); with no invocation, no score and NOT_EVALUATED.
 */
export function evaluateToolTrajectory(
  actual: readonly Invocation[],
  expected: readonly Invocation[] | undefined,
  criterion: ToolTrajectoryCriterion,
): EvaluationResult {
  return scoreInvocations(
    actual,
    expected,
    criterion.threshold,
    'expected_invocations is needed by this metric.',
    (a, e) =>
      callsMatch(allToolCalls(a.intermediateData), allToolCalls(e.intermediateData), criterion.matchType) ? 1.0 : 0.0,
  );
}

/** Whether actual tool calls match expected ones under a match type (L141–272). */
export function callsMatch(
  actual: readonly FunctionCall[],
  expected: readonly FunctionCall[],
  matchType: ToolTrajectoryMatchType,
): boolean {
  switch (matchType) {
    case 'EXACT':
      return actual.length === expected.length && actual.every((call, index) => sameCall(call, expected[index]));
    case 'IN_ORDER': {
      // Each expected call found after the one before it; others may come between.
      let next = 0;
      for (const call of actual) if (next < expected.length && sameCall(call, expected[next])) next++;
      return next === expected.length;
    }
    case 'ANY_ORDER': {
      // Each expected call takes one equal actual call, the first still free.
      const free = [...actual];
      return expected.every((call) => {
        const index = free.findIndex((candidate) => sameCall(candidate, call));
        if (index === -1) return false;
        free.splice(index, 1);
        return true;
      });
    }
  }
}

function sameCall(a: FunctionCall, b: FunctionCall | undefined): boolean {
  return b !== undefined && a.name === b.name && pythonEqual(a.args, b.args);
}

/**
 * `==` of Python on JSON values: dicts equal by keys and values whatever their order, lists item by item, `None` only
 * to `None` (absent arguments are `None`, unequal to `{}`), and `True == 1`, `False == 0` (bool is an int in Python).
 */
export function pythonEqual(a: unknown, b: unknown): boolean {
  if (a === undefined || a === null || b === undefined || b === null)
    return (a === undefined || a === null) && (b === undefined || b === null);
  if ((typeof a === 'number' || typeof a === 'boolean') && (typeof b === 'number' || typeof b === 'boolean'))
    return Number(a) === Number(b);
  if (Array.isArray(a) || Array.isArray(b))
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, index) => pythonEqual(item, b[index]))
    );
  if (typeof a === 'object' && typeof b === 'object') {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    const keys = Object.keys(left);
    return (
      keys.length === Object.keys(right).length &&
      keys.every((key) => Object.hasOwn(right, key) && pythonEqual(left[key], right[key]))
    );
  }
  return a === b;
}
