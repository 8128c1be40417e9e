import { describe, expect, it } from 'vitest';
import { ModelError } from '../../contracts/errors/model-error.js';
import type { Model, ModelCallOptions, ModelStreamChunk } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { withRetries } from './retry.js';

const request: LlmRequest = { system: '', tools: [], messages: [], config: {} };
const noSleep = async () => undefined;

function failingModel(
  failures: Error[],
  onCall: (options: ModelCallOptions | undefined) => void = () => undefined,
): Model {
  let call = 0;
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'm',
    async generate(_request, options) {
      onCall(options);
      const failure = failures[call++];
      if (failure !== undefined) throw failure;
      return { content: { role: 'model', parts: [{ text: `answer after ${call} calls` }] } };
    },
  };
}

describe('withRetries', () => {
  it('retries retryable failures with growing, jittered delays, then succeeds', async () => {
    const delays: number[] = [];
    const model = withRetries(
      failingModel([
        new ModelError({ provider: 'test', status: 429, message: 'slow down', retryable: true }),
        new ModelError({ provider: 'test', status: 503, message: 'busy', retryable: true }),
      ]),
      {
        random: () => 1,
        initialDelayMs: 100,
        sleep: async (ms) => void delays.push(ms),
      },
    );
    expect((await model.generate(request)).content?.parts[0]).toEqual({ text: 'answer after 3 calls' });
    expect(delays).toEqual([100, 200]);
  });

  it('honours Retry-After, within the maximum delay', async () => {
    const delays: number[] = [];
    const model = withRetries(
      failingModel([
        new ModelError({ provider: 'test', status: 429, message: 'later', retryable: true, retryAfterSeconds: 30 }),
      ]),
      { maxDelayMs: 5000, sleep: async (ms) => void delays.push(ms) },
    );
    await model.generate(request);
    expect(delays).toEqual([5000]);
  });

  it('does not retry a client error, and gives up after maxRetries', async () => {
    let calls = 0;
    const bad = withRetries(
      failingModel(
        [new ModelError({ provider: 'test', status: 400, message: 'bad request', retryable: false })],
        () => calls++,
      ),
      { sleep: noSleep },
    );
    await expect(bad.generate(request)).rejects.toMatchObject({ status: 400, message: 'test 400: bad request' });
    expect(calls).toBe(1);
    calls = 0;
    const busy = new ModelError({ provider: 'test', status: 500, message: 'down', retryable: true });
    const down = withRetries(
      failingModel([busy, busy, busy, busy], () => calls++),
      { maxRetries: 2, sleep: noSleep },
    );
    await expect(down.generate(request)).rejects.toBe(busy);
    expect(calls).toBe(3);
  });

  it('times out a silent attempt and retries it', async () => {
    let calls = 0;
    const slow: Model = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'm',
      generate: (_request, options) =>
        new Promise((resolve, reject) => {
          calls++;
          if (calls > 1) return resolve({ content: { role: 'model', parts: [{ text: 'fast now' }] } });
          options?.signal?.addEventListener('abort', () => reject(options.signal?.reason));
        }),
    };
    const result = await withRetries(slow, { timeoutMs: 20, sleep: noSleep }).generate(request);
    expect(result.content?.parts[0]).toEqual({ text: 'fast now' });
    expect(calls).toBe(2);
  });

  it('stops at once when the caller aborts, also in the middle of a stream', async () => {
    const controller = new AbortController();
    let sawAbort = false;
    const streaming: Model = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'm',
      generate: async () => ({}),
      async *stream(_request, options): AsyncGenerator<ModelStreamChunk> {
        yield { content: { role: 'model', parts: [{ text: 'first' }] }, partial: true };
        await new Promise<void>((resolve) =>
          options?.signal?.addEventListener('abort', () => ((sawAbort = true), resolve())),
        );
        throw new Error('aborted');
      },
    };
    const iterator = withRetries(streaming, { sleep: noSleep })
      .stream?.(request, { signal: controller.signal })
      [Symbol.asyncIterator]();
    expect((await iterator?.next())?.value).toMatchObject({ partial: true });
    const next = iterator?.next();
    controller.abort();
    await expect(next).rejects.toThrow('aborted');
    expect(sawAbort).toBe(true);
  });
});
