import type { Fetch } from '../shared/wire-tap.js';

/** The part of an Undici dispatcher used here: Node's fetch hands every request to one. */
type Dispatcher = { dispatch(options: object, handler: unknown): boolean };

// Where Node's fetch keeps its global Undici dispatcher (the one `setGlobalDispatcher` sets).
const GLOBAL_DISPATCHER = Symbol.for('undici.globalDispatcher.1');

const withoutUndiciTimeouts: Dispatcher = {
  dispatch(options, handler) {
    const global = (globalThis as { [GLOBAL_DISPATCHER]?: Dispatcher })[GLOBAL_DISPATCHER];
    if (global === undefined) throw new Error("Node's global fetch dispatcher is not available");
    return global.dispatch({ ...options, headersTimeout: 0, bodyTimeout: 0 }, handler);
  },
};

/**
 * The global fetch without Undici's own 300 s limits (on the wait for headers and between body chunks). The Gemini
 * SDK lifts them for the requests it sends with the global fetch, but not for a fetch it is handed, and a long
 * generation can take longer: a call whose wire is tapped sends through this one, so it is bounded as before, by
 * withRetries' attempt timeout and the caller's signal only. The global dispatcher (a proxy, say) still sends.
 */
export const unboundedFetch: Fetch = (input, init) =>
  globalThis.fetch(input, { ...init, dispatcher: withoutUndiciTimeouts } as RequestInit);
