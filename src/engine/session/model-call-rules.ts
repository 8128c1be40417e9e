import { ConflictError } from '../../contracts/errors/conflict-error.js';
import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { ModelCallOutcome, ModelCallStatus, NewModelCall } from '../../contracts/model-call.js';
import { findNonJson } from '../util/json-value.js';

// The rules of the model-call lifecycle every store shares, so they refuse the same things with the same errors.

/** A call's status with whichever outcome fields it has: what a store writes when a call is recorded or completed. */
export type CallOutcome = Partial<Omit<ModelCallOutcome, 'status'>> & { status: ModelCallStatus };

const STATUSES: ReadonlySet<string> = new Set<ModelCallStatus>(['pending', 'answered', 'failed', 'aborted', 'timed_out']);

/** The fields `completeModelCall` writes; completing a call replaces all of them, status included. */
export const OUTCOME_FIELDS: readonly (keyof ModelCallOutcome)[] = ['status', 'latencyMs', 'firstTokenMs', 'response', 'usage', 'error', 'wire', 'responseEventId'];

/** The status and outcome fields of a call to record; `pending` when it gives no status. */
export function outcomeOf(call: NewModelCall): CallOutcome {
  const outcome: CallOutcome = { status: call.status ?? 'pending' };
  // Field by field in OUTCOME_FIELDS order, each only when given (a call about to be sent has none).
  if (call.latencyMs !== undefined) outcome.latencyMs = call.latencyMs;
  if (call.firstTokenMs !== undefined) outcome.firstTokenMs = call.firstTokenMs;
  if (call.response !== undefined) outcome.response = call.response;
  if (call.usage !== undefined) outcome.usage = call.usage;
  if (call.error !== undefined) outcome.error = call.error;
  if (call.wire !== undefined) outcome.wire = call.wire;
  if (call.responseEventId !== undefined) outcome.responseEventId = call.responseEventId;
  return outcome;
}

/** Refuses an unknown status, a `pending` completion, a wire body that is not text, and values JSON cannot hold. */
export function checkOutcome(outcome: CallOutcome, path: string, completing: boolean): void {
  const issues: { path: string; message: string }[] = [];
  if (!STATUSES.has(outcome.status) || (completing && outcome.status === 'pending')) {
    const allowed = completing ? "'answered', 'failed', 'aborted' or 'timed_out'" : "'pending', 'answered', 'failed', 'aborted' or 'timed_out'";
    issues.push({ path: `${path}.status`, message: `must be ${allowed} (found ${JSON.stringify(outcome.status)})` });
  }
  if (outcome.wire !== undefined && typeof (outcome.wire as { body?: unknown }).body !== 'string') {
    issues.push({ path: `${path}.wire.body`, message: 'must be the text sent' });
  }
  // Only a status: nothing else to check (the common case of a call recorded before it is sent).
  const problem = Object.keys(outcome).length === 1 ? undefined : findNonJson(outcome, path);
  if (problem !== undefined) issues.push({ path: problem.path, message: `cannot be stored as JSON (found ${problem.found})` });
  if (issues.length > 0) {
    throw new ValidationError({ subject: completing ? 'model call outcome' : 'model call', issues, hint: 'Responses, usage and wire records must be plain JSON data.' });
  }
}

export function callNotFound(sessionId: string, index: number): NotFoundError {
  return new NotFoundError({
    resource: 'model call',
    id: `${sessionId}#${index}`,
    message: `Model call ${index} of session ${sessionId} not found.`,
    hint: 'Record the call first (recordModelCall returns its index), or check the app name, user id, session id and index.',
  });
}

/** A completion of a call that has already ended: its outcome is written once. */
export function callAlreadyEnded(sessionId: string, index: number, status: string): ConflictError {
  return new ConflictError({
    code: 'already_exists',
    message: `Model call ${index} of session ${sessionId} has already ended (${status}); only a pending call can be completed.`,
    hint: 'A call is completed once, by the process that sent it.',
  });
}
