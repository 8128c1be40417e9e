import { describe, expect, it } from 'vitest';
import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { ModelError } from '../../contracts/errors/model-error.js';
import type { Model, ModelStreamChunk } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';
import { redactSecrets, withoutSecrets } from './redact-secrets.js';

const KEY = 'sk-secret-0123456789';
const request: LlmRequest = { system: '', tools: [], messages: [], config: {} };

function failing(error: unknown): Model {
  return {
    specificationVersion: 'v1',
    provider: 'openai',
    modelId: 'm',
    generate: () => Promise.reject(error),
    countTokens: () => Promise.reject(error),
    async *stream(): AsyncGenerator<ModelStreamChunk> {
      yield { partial: true };
      throw error;
    },
  };
}

async function streamError(model: Model): Promise<unknown> {
  try {
    for await (const _chunk of model.stream?.(request) ?? []);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('withoutSecrets', () => {
  it("rebuilds a ModelError from its fields, redacting the provider's message and the hint", async () => {
    const error = new ModelError({
      provider: 'openai',
      status: 401,
      message: `Incorrect API key provided: ${KEY}.`,
      retryable: false,
      retryAfterSeconds: 2,
      hint: `Not ${KEY}.`,
      cause: new Error(KEY),
    });
    const model = withoutSecrets(failing(error), [KEY]);
    for (const caught of [
      await model.generate(request).catch((e: unknown) => e),
      await model.countTokens?.(request).catch((e: unknown) => e),
      await streamError(model),
    ]) {
      expect(caught).toBeInstanceOf(ModelError);
      expect(caught).toMatchObject({
        provider: 'openai',
        status: 401,
        retryable: false,
        retryAfterSeconds: 2,
        message: 'openai 401: Incorrect API key provided: [redacted].',
        providerMessage: 'Incorrect API key provided: [redacted].',
        hint: 'Not [redacted].',
      });
      expect((caught as Error).cause).toBeUndefined();
    }
  });

  it('turns any other error that quotes a secret into a ModelError of the model, and leaves clean errors alone', async () => {
    const plain = await withoutSecrets(failing(new Error(`bad key ${KEY}`)), [KEY])
      .generate(request)
      .catch((e: unknown) => e);
    expect(plain).toMatchObject({ message: 'openai: bad key [redacted]', retryable: false });
    const hinted = new AgentctxError({ code: 'usage', message: 'no', hint: `try ${KEY}` });
    expect(
      await withoutSecrets(failing(hinted), [KEY])
        .generate(request)
        .catch((e: unknown) => e),
    ).toMatchObject({ message: 'openai: no', hint: 'try [redacted]' });
    const clean = new Error('nothing secret');
    expect(
      await withoutSecrets(failing(clean), [KEY])
        .generate(request)
        .catch((e: unknown) => e),
    ).toBe(clean);
  });

  it('ignores short secrets and returns the model itself when nothing is left to hide', () => {
    const model = failing(new Error('x'));
    expect(withoutSecrets(model, ['short', undefined])).toBe(model);
  });
});

describe('redactSecrets', () => {
  it('replaces every occurrence of each long secret, and leaves short ones and clean text alone', () => {
    expect(redactSecrets(`a ${KEY} b ${KEY}`, [KEY, undefined])).toBe('a [redacted] b [redacted]');
    expect(redactSecrets('the key is short', ['short'])).toBe('the key is short');
  });
});
