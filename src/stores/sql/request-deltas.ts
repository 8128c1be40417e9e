import type { ModelCallRecord, NewModelCall } from '../../contracts/model-call.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest, Message } from '../../contracts/request.js';
import type { Source } from '../../contracts/source.js';

/** The parts of a recorded call that are written to its row. */
export type StoredCall = {
  request: LlmRequest;
  provenance: Provenance;
  /** Set when `request.messages` (and `provenance.messages`) hold only what follows an earlier call's first `count` messages. */
  base: { index: number; count: number } | undefined;
  /** Length of the full request's JSON form. */
  requestChars: number;
  /** What the referenced call's row must still show (time, size), or the reference is stale. */
  baseCheck: { time: number; chars: number } | undefined;
};

type Remembered = {
  index: number;
  time: number;
  requestChars: number;
  messages: readonly Message[];
  sources: readonly (readonly Source[])[];
  /** `chars[i]`: characters of the JSON of the first i messages, commas included. */
  chars: readonly number[];
  depth: number;
};

// A chain of differences is cut now and then, so reading one call never walks back through hundreds of rows.
const MAX_DEPTH = 32;

/**
 * Writes a session's model calls as differences: consecutive calls of a long session repeat the same history, so
 * a call whose messages start with an earlier call's messages stores only the new ones and a reference. Messages
 * are matched by identity (the runner reuses them from call to call), so finding the shared part costs little.
 * Keeps, per session, the last call this process recorded.
 */
export class RequestDeltas {
  readonly #last = new Map<string, Remembered>();

  encode(
    sessionKey: string,
    call: Pick<NewModelCall, 'request' | 'provenance' | 'timestamp'>,
  ): StoredCall & { remember(index: number): void } {
    const { request, provenance } = call;
    const previous = this.#last.get(sessionKey);
    let shared = 0;
    if (previous !== undefined) {
      const limit = Math.min(previous.messages.length, request.messages.length);
      while (
        shared < limit &&
        previous.messages[shared] === request.messages[shared] &&
        previous.sources[shared] === provenance.messages[shared]
      )
        shared++;
    }
    // The shared messages' lengths are known (also when the chain is cut and this call is written whole); only the
    // messages after them are measured.
    const chars = shared > 0 && previous !== undefined ? previous.chars.slice(0, shared + 1) : [0];
    for (let i = chars.length; i <= request.messages.length; i++) {
      chars.push((chars[i - 1] as number) + JSON.stringify(request.messages[i - 1]).length + (i > 1 ? 1 : 0));
    }
    const fixed = JSON.stringify({ ...request, messages: [] }).length;
    const base =
      previous !== undefined && previous.depth < MAX_DEPTH && shared > 0
        ? { index: previous.index, count: shared }
        : undefined;
    const stored: StoredCall = {
      request: base === undefined ? request : { ...request, messages: request.messages.slice(shared) },
      provenance: base === undefined ? provenance : { ...provenance, messages: provenance.messages.slice(shared) },
      base,
      requestChars: fixed + (chars[request.messages.length] as number),
      baseCheck:
        previous === undefined || base === undefined
          ? undefined
          : { time: previous.time, chars: previous.requestChars },
    };
    return {
      ...stored,
      remember: (index) =>
        this.#last.set(sessionKey, {
          index,
          time: call.timestamp,
          requestChars: stored.requestChars,
          messages: request.messages,
          sources: provenance.messages,
          chars,
          depth: base === undefined ? 0 : (previous?.depth ?? 0) + 1,
        }),
    };
  }

  /** The call stored whole, for when a reference cannot be used. */
  whole(
    call: Pick<NewModelCall, 'request' | 'provenance'>,
  ): Pick<StoredCall, 'request' | 'provenance' | 'base' | 'baseCheck'> {
    return { request: call.request, provenance: call.provenance, base: undefined, baseCheck: undefined };
  }

  forget(sessionKey: string): void {
    this.#last.delete(sessionKey);
  }
}

type Requested = Pick<ModelCallRecord, 'request' | 'provenance'>;

/** A full request from its stored difference and the full request of the call it refers to. */
export function applyBase(stored: Requested, base: { index: number; count: number }, full: Requested): Requested {
  return {
    ...stored,
    request: {
      ...stored.request,
      messages: [...full.request.messages.slice(0, base.count), ...stored.request.messages],
    },
    provenance: {
      ...stored.provenance,
      messages: [...full.provenance.messages.slice(0, base.count), ...stored.provenance.messages],
    },
  };
}
