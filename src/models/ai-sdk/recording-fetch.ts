import { AsyncLocalStorage } from 'node:async_hooks';
import type { WireObserver } from '../../contracts/model.js';
import { tapWire, type Fetch, type WireTap } from '../shared/wire-tap.js';

/** One bridged call's view of the wire: the tap made on its first request, through the fetch that request used. */
export type CallWire = {
  /** Sends through `base` (the fetch the recording fetch wraps), told to the call's observer. */
  send(base: Fetch, input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** As `WireTap.answered`: the answer of the last request has been read. */
  answered(usage?: unknown): void;
};

// The call a request belongs to. A provider object is made once and shared by concurrent calls, and its fetch is
// fixed when it is made, so the call is found from where the request is made rather than from the fetch.
const current = new AsyncLocalStorage<CallWire>();

/**
 * A fetch to give an AI SDK provider when it is made (`createAnthropic({ fetch: recordingFetch() })`), so the
 * bridged model can record each call's HTTP request exactly: its URL, method and the very body text the server
 * receives. Outside a bridged call, and for calls without a wire observer, it is `fetch` (default: the global one)
 * unchanged.
 */
export function recordingFetch(fetch?: Fetch): Fetch {
  return (input, init) => {
    const base = fetch ?? globalThis.fetch;
    const call = current.getStore();
    return call === undefined ? base(input, init) : call.send(base, input, init);
  };
}

/** The wire of one call told to `observer`; undefined when there is none to tell. */
export function callWire(observer: WireObserver | undefined): CallWire | undefined {
  if (observer === undefined) return undefined;
  let tap: WireTap | undefined;
  return {
    send(base, input, init) {
      // The provider holds one fetch, so every request of the call goes through the same base.
      tap ??= tapWire(observer, { fetch: base, secrets: [] }) as WireTap;
      return tap.fetch(input, init);
    },
    answered: (usage) => tap?.answered(usage),
  };
}

/**
 * Runs `work` (a provider's doGenerate or doStream) with its requests recorded on `wire`; without one, outside any
 * other call's recording (a call made while another is under way must not be told to that one's observer).
 */
export function withCallWire<T>(wire: CallWire | undefined, work: () => PromiseLike<T>): Promise<T> {
  const run = () => Promise.resolve(work());
  return wire === undefined ? current.exit(run) : current.run(wire, run);
}
