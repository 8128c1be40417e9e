import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { ModelError } from '../../contracts/errors/model-error.js';
import type { Model, ModelCallOptions, ModelMiddlewareCall, ModelStreamChunk } from '../../contracts/model.js';
import { toModelError } from './to-model-error.js';
import { wrapModel } from './wrap-model.js';

export type RetryOptions = {
  /** Attempts after the first; default 2. */
  maxRetries?: number;
  /** Delay before the first retry, doubled each time, with full jitter; default 500 ms. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Time allowed for one attempt (a stream: until its first chunk); default 120 s. 0 means none. */
  timeoutMs?: number;
  /** For tests: the source of jitter and the clock's sleep. */
  random?: () => number;
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
};

/**
 * A model that retries what is worth retrying (429, 5xx, timeouts, lost connections) with exponential backoff and
 * jitter, gives each attempt a timeout, and stops at once when the caller's signal aborts. A stream is retried only
 * until its first chunk arrives; after that a failure is final, as chunks were already shown.
 */
export function withRetries(model: Model, options: RetryOptions = {}): Model {
  const maxRetries = options.maxRetries ?? 2;
  const initial = options.initialDelayMs ?? 500;
  const maxDelay = options.maxDelayMs ?? 8000;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? defaultSleep;

  const delayFor = (attempt: number, error: ModelError): number => {
    if (error.retryAfterSeconds !== undefined) return Math.min(maxDelay, error.retryAfterSeconds * 1000);
    return Math.floor(random() * Math.min(maxDelay, initial * 2 ** attempt));
  };

  // `keepLinked`: on success, the caller's abort stays linked to the attempt (a stream still being read) until `release`.
  async function attempt<T>(
    run: (callOptions: ModelCallOptions) => Promise<T>,
    callOptions: ModelCallOptions | undefined,
    keepLinked = false,
  ): Promise<{ value: T; release: () => void }> {
    for (let tries = 0; ; tries++) {
      const { signal, stopTimer, unlink } = attemptSignal(callOptions?.signal, timeoutMs, model);
      try {
        const value = await run({ ...callOptions, signal });
        stopTimer();
        if (!keepLinked) unlink();
        return { value, release: unlink };
      } catch (error) {
        stopTimer();
        unlink();
        // A request the adapter refused (a config field its provider lacks) is the caller's to fix: not retried, kept as it is.
        if (AgentctxError.isInstance(error) && !ModelError.isInstance(error)) throw error;
        // The caller's abort wins over the attempt's own timeout, which may have fired first.
        const failure = toModelError(error, {
          provider: model.provider,
          signal: callOptions?.signal?.aborted === true ? callOptions.signal : signal,
        });
        if (!failure.retryable || tries >= maxRetries || callOptions?.signal?.aborted === true) throw failure;
        await sleep(delayFor(tries, failure), callOptions?.signal);
      }
    }
  }

  const retried = async <T>({ request, options: callOptions, next }: ModelMiddlewareCall<Promise<T>>): Promise<T> =>
    (await attempt((inner) => next(request, inner), callOptions)).value;

  return wrapModel(model, {
    generate: retried,
    countTokens: retried,
    embed: async ({ texts, options: callOptions, next }) =>
      (await attempt((inner) => next(texts, { ...callOptions, signal: inner.signal }), callOptions)).value,
    async *stream({ request, options: callOptions, next }): AsyncGenerator<ModelStreamChunk> {
      // Open the stream and read its first chunk under retry; then hand the rest through.
      const { value: opened, release } = await attempt(
        async (inner) => {
          const iterator = next(request, inner)[Symbol.asyncIterator]();
          const first = await iterator.next();
          return { iterator, first };
        },
        callOptions,
        true,
      );
      try {
        if (opened.first.done === true) return;
        yield opened.first.value;
        for (let chunk = await opened.iterator.next(); chunk.done !== true; chunk = await opened.iterator.next())
          yield chunk.value;
      } finally {
        release();
      }
    },
  });
}

/** The model as an adapter's `retry` setting asks: `false` for no retries, else `withRetries` with those options. */
export function withRetrySetting(model: Model, retry: RetryOptions | false | undefined): Model {
  return retry === false ? model : withRetries(model, retry);
}

// One attempt's signal: aborted by the caller's signal, or by the timeout until `stopTimer` (the answer came).
function attemptSignal(
  outer: AbortSignal | undefined,
  timeoutMs: number,
  model: Model,
): { signal: AbortSignal; stopTimer: () => void; unlink: () => void } {
  const controller = new AbortController();
  const timer =
    timeoutMs <= 0
      ? undefined
      : setTimeout(
          () =>
            controller.abort(
              new ModelError({
                provider: model.provider,
                message: `no answer within ${timeoutMs} ms`,
                retryable: true,
              }),
            ),
          timeoutMs,
        );
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener('abort', onAbort, { once: true });
  if (outer?.aborted === true) controller.abort(outer.reason);
  return {
    signal: controller.signal,
    stopTimer: () => clearTimeout(timer),
    unlink: () => outer?.removeEventListener('abort', onAbort),
  };
}

function defaultSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted === true) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
