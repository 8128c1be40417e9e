import { ConflictError } from '../../contracts/errors/conflict-error.js';
import { NotFoundError } from '../../contracts/errors/not-found-error.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { ModelCallOutcome, ModelCallStatus, NewModelCall } from '../../contracts/model-call.js';
import { storableText } from '../util/identifier.js';
import { ENVELOPE_DEPTH, findNonJson, MAX_JSON_DEPTH } from '../util/json-value.js';

// The rules of the model-call lifecycle every store shares, so they refuse the same things with the same errors.

/** A call's status with whichever outcome fields it has: what a store writes when a call is recorded or completed. */
export type CallOutcome = Partial<Omit<ModelCallOutcome, 'status'>> & { status: ModelCallStatus };

const STATUSES: ReadonlySet<string> = new Set<ModelCallStatus>([
  'pending',
  'answered',
  'failed',
  'aborted',
  'timed_out',
]);

/** The fields `completeModelCall` writes; completing a call replaces all of them, status included. */
export const OUTCOME_FIELDS: readonly (keyof ModelCallOutcome)[] = [
  'status',
  'latencyMs',
  'firstTokenMs',
  'response',
  'usage',
  'error',
  'wire',
  'responseEventId',
];

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
    const allowed = completing
      ? "'answered', 'failed', 'aborted' or 'timed_out'"
      : "'pending', 'answered', 'failed', 'aborted' or 'timed_out'";
    issues.push({ path: `${path}.status`, message: `must be ${allowed} (found ${JSON.stringify(outcome.status)})` });
  }
  if (outcome.wire !== undefined && typeof (outcome.wire as { body?: unknown }).body !== 'string') {
    issues.push({ path: `${path}.wire.body`, message: 'must be the text sent' });
  }
  // Only a status: nothing else to check (the common case of a call recorded before it is sent).
  const problem =
    Object.keys(outcome).length === 1
      ? undefined
      : findNonJson(outcome, path, { maxDepth: MAX_JSON_DEPTH + ENVELOPE_DEPTH });
  if (problem !== undefined)
    issues.push({ path: problem.path, message: `cannot be stored as JSON (found ${problem.found})` });
  if (issues.length > 0) {
    throw new ValidationError({
      subject: completing ? 'model call outcome' : 'model call',
      issues,
      hint: 'Responses, usage and wire records must be plain JSON data.',
    });
  }
}

/**
 * The call with the text kept in plain columns (its invocation, agent, model, parent call, error and response event)
 * as every store keeps it: a lone surrogate or NUL, which a model or a provider's error can bring, becomes U+FFFD
 * (PostgreSQL cannot hold NUL in text, and SQLite changes lone surrogates). Request and response are JSON, kept exactly.
 */
export function storableCall<T extends NewModelCall>(call: T): T {
  const stored: T = storableOutcome({ ...call, invocationId: text(call.invocationId), agent: text(call.agent) });
  if (call.model !== undefined) {
    const { billedAs } = call.model;
    stored.model = {
      ...call.model,
      provider: text(call.model.provider),
      modelId: text(call.model.modelId),
      ...(billedAs === undefined
        ? {}
        : { billedAs: { provider: text(billedAs.provider), modelId: text(billedAs.modelId) } }),
    };
  }
  if (call.parent !== undefined)
    stored.parent = { ...call.parent, functionCallId: text(call.parent.functionCallId), tool: text(call.parent.tool) };
  return stored;
}

// Text made storable; anything else (a caller's mistake the type checks report) left as it is.
function text<T>(value: T): T {
  return (typeof value === 'string' ? storableText(value) : value) as T;
}

/** The outcome with its error message and response event id as every store keeps them (see `storableCall`). */
export function storableOutcome<T extends { error?: string | undefined; responseEventId?: string | undefined }>(
  outcome: T,
): T {
  const stored = { ...outcome };
  if (outcome.error !== undefined) stored.error = text(outcome.error);
  if (outcome.responseEventId !== undefined) stored.responseEventId = text(outcome.responseEventId);
  return stored;
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
