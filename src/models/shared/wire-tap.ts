import type { WireObserver } from '../../contracts/model.js';
import { redactSecrets } from './redact-secrets.js';
import { urlWithoutCredentials } from './url-without-credentials.js';

/** A fetch as the provider SDKs take it. */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** One call's view of the wire: the fetch its SDK sends through, and how the call says its answer has come. */
export type WireTap = {
  /**
   * Sends through the underlying fetch, telling the observer of each request just before it goes out, and of an
   * error status as soon as it comes (the SDK reads the error body itself).
   */
  readonly fetch: Fetch;
  /**
   * The answer to the request sent has been read (for a stream: to its end): tells the observer its status and the
   * provider's usage as it came. Safe to call whatever happened: it does nothing when no successful answer is
   * waiting to be told (nothing went out, the connection failed, or an error status was told already).
   */
  answered(usage?: unknown): void;
};

export type WireTapOptions = {
  /** The fetch that sends; by default the global one, as the SDKs use. */
  fetch?: Fetch | undefined;
  /** Never told to the observer (the adapter's API key), replaced as `withoutSecrets` replaces them in errors. */
  secrets: readonly (string | undefined)[];
};

/**
 * A tap on one call's HTTP traffic for its observer, or undefined when the call has none (the SDK then keeps its own
 * fetch). The body told is the text handed to fetch, the very bytes the server receives.
 */
export function tapWire(observer: WireObserver | undefined, options: WireTapOptions): WireTap | undefined {
  if (observer === undefined) return undefined;
  const clean = (text: string) => redactSecrets(text, options.secrets);
  // The status of a successful request whose answer is still being read.
  let waiting: number | undefined;
  const tell = (usage: unknown) => {
    if (waiting === undefined) return;
    const status = waiting;
    waiting = undefined;
    observer.response(usage == null ? { status } : { status, usage });
  };
  return {
    async fetch(input, init) {
      // Each request is answered once: one sent again before its predecessor was answered closes that one.
      tell(undefined);
      observer.request({
        url: clean(urlWithoutCredentials(urlOf(input))),
        method: init?.method ?? methodOf(input),
        body: clean(bodyText(init?.body)),
      });
      const response = await (options.fetch ?? globalThis.fetch)(input, init);
      waiting = response.status;
      if (!response.ok) tell(undefined);
      return response;
    },
    answered: tell,
  };
}

function urlOf(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  return input instanceof URL ? input.href : input.url;
}

function methodOf(input: string | URL | Request): string {
  return typeof input === 'object' && !(input instanceof URL) ? input.method : 'GET';
}

function bodyText(body: unknown): string {
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(body));
  if (ArrayBuffer.isView(body))
    return new TextDecoder().decode(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
  if (body instanceof URLSearchParams) return body.toString();
  // A streamed or multipart body could only be read by consuming it; no built-in adapter sends one.
  return '';
}
