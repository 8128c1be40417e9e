import { describe, expect, it } from 'vitest';
import { ModelError } from '../../contracts/errors/model-error.js';
import type { Model } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { withRetries, withRetrySetting } from './retry.js';

const request: LlmRequest = { system: '', tools: [], messages: [], config: {} };
const noSleep = async () => undefined;

function flaky(failures: unknown[]): Model & { calls: number } {
  const model = {
    specificationVersion: 'v1' as const,
    provider: 'test',
    modelId: 'm',
    calls: 0,
    async generate() {
      const failure = failures[model.calls++];
      if (failure !== undefined) throw failure;
      return {};
    },
  };
  return model;
}

describe('withRetries and the shared error mapping', () => {
  it('keeps the model description and adds no method the model lacks', () => {
    const wrapped = withRetries({ ...flaky([]), pairsCallsById: false }, { sleep: noSleep });
    expect(wrapped).toMatchObject({
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'm',
      pairsCallsById: false,
    });
    expect(wrapped.stream).toBeUndefined();
    expect(wrapped.countTokens).toBeUndefined();
  });

  it('retries a lost connection thrown by a model that is not an adapter, and not other plain errors', async () => {
    const lost = flaky([
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
      }),
    ]);
    await withRetries(lost, { sleep: noSleep }).generate(request);
    expect(lost.calls).toBe(2);
    const broken = flaky([new Error('bug')]);
    await expect(withRetries(broken, { sleep: noSleep }).generate(request)).rejects.toMatchObject({
      message: 'test: bug',
      retryable: false,
    });
    expect(broken.calls).toBe(1);
  });

  it('reports a call the caller aborted as cancelled, even after its attempt timed out', async () => {
    const controller = new AbortController();
    const hanging: Model = {
      specificationVersion: 'v1',
      provider: 'test',
      modelId: 'm',
      generate: (_request, options) =>
        new Promise((_resolve, reject) => {
          // The attempt's timeout fires first; the caller aborts before the model gives up.
          options?.signal?.addEventListener('abort', () => {
            controller.abort();
            reject(new Error('aborted'));
          });
        }),
    };
    await expect(
      withRetries(hanging, { timeoutMs: 5, sleep: noSleep }).generate(request, { signal: controller.signal }),
    ).rejects.toMatchObject({ message: 'test: the call was cancelled', retryable: false });
  });

  it('follows an adapter retry setting: false is none, anything else is withRetries', async () => {
    const busy = new ModelError({ provider: 'test', status: 503, message: 'busy', retryable: true });
    const once = flaky([busy]);
    expect(withRetrySetting(once, false)).toBe(once);
    const twice = flaky([busy]);
    await withRetrySetting(twice, { sleep: noSleep }).generate(request);
    expect(twice.calls).toBe(2);
  });
});
