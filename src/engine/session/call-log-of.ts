import type { ModelCallLog, ModelCallReader } from '../../contracts/model-call-log.js';
import type { SessionStore } from '../../contracts/session-store.js';

const LOG_METHODS = [
  'recordModelCall',
  'completeModelCall',
  'listModelCalls',
  'getModelCall',
  'deleteModelCalls',
] as const;

/** Whether a value implements the model-call log contract (every one of its methods), as a session store may. */
export function isModelCallLog(value: unknown): value is ModelCallLog {
  if (typeof value !== 'object' || value === null) return false;
  return LOG_METHODS.every((method) => typeof (value as Record<string, unknown>)[method] === 'function');
}

/**
 * The log a runner records calls in when it is given none: the session store itself when it keeps calls, else
 * none (calls are recorded nowhere). `false` asks for none either way.
 */
export function defaultCallLog(
  sessions: SessionStore,
  given: ModelCallLog | false | undefined,
): ModelCallLog | undefined {
  if (given === false) return undefined;
  return given ?? (isModelCallLog(sessions) ? sessions : undefined);
}

/** A log with no calls in it: what readers see of sessions whose calls are recorded nowhere. */
export const NO_MODEL_CALLS: ModelCallReader = Object.freeze({
  listModelCalls: async () => [],
  getModelCall: async () => undefined,
});
