import type { EvalStatus } from '../../contracts/evaluation.js';

// ADK's `EvalStatus` is an int enum (eval_metrics.py, ADK 2.5.0): result JSON it writes holds the numbers.
const TO_ADK: Record<EvalStatus, 1 | 2 | 3> = { PASSED: 1, FAILED: 2, NOT_EVALUATED: 3 };

/** The number ADK writes for a status: PASSED 1, FAILED 2, NOT_EVALUATED 3. */
export function evalStatusToAdk(status: EvalStatus): 1 | 2 | 3 {
  return TO_ADK[status];
}

/** The status of a number ADK wrote, or undefined for any other value. */
export function evalStatusFromAdk(value: unknown): EvalStatus | undefined {
  return value === 1 ? 'PASSED' : value === 2 ? 'FAILED' : value === 3 ? 'NOT_EVALUATED' : undefined;
}
