/**
 * A time limit for one model or tool call. Its `signal` follows the invocation's and is aborted when the time is up;
 * `race` rejects as soon as that happens, so a callee that ignores its signal is abandoned rather than waited for.
 * Without a limit it adds nothing: the signal is the invocation's and `race` returns the promise as it is.
 */
export class Deadline {
  readonly signal: AbortSignal | undefined;
  readonly ms: number | undefined;
  #expired = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timeout: Promise<never> | undefined;
  #unlink: () => void = () => undefined;

  constructor(outer: AbortSignal | undefined, ms: number | undefined) {
    this.ms = ms;
    if (ms === undefined) {
      this.signal = outer;
      return;
    }
    const controller = new AbortController();
    this.signal = controller.signal;
    const onAbort = () => controller.abort(outer?.reason);
    if (outer?.aborted === true) controller.abort(outer.reason);
    else if (outer !== undefined) {
      outer.addEventListener('abort', onAbort, { once: true });
      this.#unlink = () => outer.removeEventListener('abort', onAbort);
    }
    this.#timeout = new Promise<never>((_resolve, reject) => {
      this.#timer = setTimeout(() => {
        this.#expired = true;
        const error = new Error(`no answer within ${ms} ms`);
        controller.abort(error);
        reject(error);
      }, ms);
    });
    // Nobody may be racing when the time runs out; that is not an unhandled rejection.
    this.#timeout.catch(() => undefined);
  }

  /** True once the time ran out. */
  get expired(): boolean {
    return this.#expired;
  }

  /** The promise, or a rejection as soon as the time runs out, whichever comes first. */
  race<T>(promise: Promise<T>): Promise<T> {
    return this.#timeout === undefined ? promise : Promise.race([promise, this.#timeout]);
  }

  /** Stops the clock and unlinks from the invocation's signal; call it when the call is over. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#unlink();
  }
}

/** Checks a runner's time limit option: absent, or a positive number of milliseconds. */
export function checkTimeoutOption(name: string, value: number | undefined): string | undefined {
  if (value === undefined || (typeof value === 'number' && Number.isFinite(value) && value > 0)) return undefined;
  return `${name} must be a positive number of milliseconds, got ${String(value)}.`;
}
