import type { ModelCallOutcome, ModelCallRecord, ModelCallSummary, NewModelCall } from '../../contracts/model-call.js';
import { toStoredJson } from '../util/json-value.js';
import {
  callAlreadyEnded,
  callNotFound,
  checkOutcome,
  OUTCOME_FIELDS,
  outcomeOf,
  storableCall,
  storableOutcome,
} from './model-call-rules.js';
import { summarizeModelCall } from './model-call-summary.js';

type StoredCall = {
  record: ModelCallRecord;
  /** Length of the request's JSON form, once a listing has needed it. */
  requestChars: number | undefined;
};

/**
 * The recorded model calls of one session, held in memory: what the in-memory session store keeps with each session
 * and the in-memory call log keeps per session key. Reads hand out copies.
 */
export class InMemoryCalls {
  readonly #calls: StoredCall[] = [];

  /** Records a call and returns its index (1, 2, 3, …). */
  record(call: NewModelCall): number {
    const outcome = outcomeOf(call);
    // A pending call (the runner's, before each model call) has no outcome yet: only its status needs checking.
    checkOutcome(outcome, 'call', false);
    const index = this.#calls.length + 1;
    // Kept by reference: the request shares its parts with the stored (frozen) events, and models must not
    // change what they are sent, so copying megabytes per call would buy nothing. Reads hand out copies.
    this.#calls.push({ record: { ...storableCall(call), status: outcome.status, index }, requestChars: undefined });
    return index;
  }

  list(): ModelCallSummary[] {
    return this.#calls.map((call) => {
      call.requestChars ??= JSON.stringify(call.record.request).length;
      return toStoredJson(summarizeModelCall(call.record, call.requestChars));
    });
  }

  get(index: number): ModelCallRecord | undefined {
    const call = this.#calls[index - 1];
    return call === undefined ? undefined : toStoredJson(call.record);
  }

  /** Passes each call's JSON text through `replace` (`SessionStore.rewriteText`); how many calls changed. */
  rewrite(replace: (json: string) => string): number {
    let changed = 0;
    for (const call of this.#calls) {
      const text = JSON.stringify(call.record);
      const rewritten = replace(text);
      if (rewritten === text) continue;
      call.record = JSON.parse(rewritten) as ModelCallRecord;
      call.requestChars = undefined;
      changed++;
    }
    return changed;
  }

  /** The stored call, by reference; for `completionOf`. */
  stored(index: number): StoredCall | undefined {
    return this.#calls[index - 1];
  }
}

/**
 * Checks a completion of a recorded call and returns what writes it, so a caller can check everything else first
 * (`undefined` calls: a session that is not there, so every index is not found). The outcome replaces whatever
 * outcome fields the call was recorded with, as in the SQL store; kept by reference, as the request is (it was
 * checked to be JSON; reads hand out copies).
 */
export function completionOf(
  calls: InMemoryCalls | undefined,
  sessionId: string,
  input: { index: number; outcome: ModelCallOutcome },
): () => void {
  checkOutcome(input.outcome, 'outcome', true);
  const call = calls?.stored(input.index);
  if (call === undefined) throw callNotFound(sessionId, input.index);
  if (call.record.status !== 'pending') throw callAlreadyEnded(sessionId, input.index, call.record.status);
  return () => {
    const record = call.record as Record<string, unknown>;
    for (const field of OUTCOME_FIELDS)
      if (record[field] !== undefined && !(field in input.outcome)) record[field] = undefined;
    Object.assign(record, storableOutcome(input.outcome));
  };
}
