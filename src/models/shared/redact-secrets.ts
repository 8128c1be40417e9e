import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { ModelError } from '../../contracts/errors/model-error.js';
import type { Model, ModelStreamChunk } from '../../contracts/model.js';

const REDACTED = '[redacted]';

/**
 * Model middleware that keeps secrets (the adapter's API key) out of the errors a model throws. Some servers quote
 * the key they were sent in their error message; those messages become stored error events, CLI output and HTTP
 * API answers, so the key is replaced by `[redacted]` before anyone sees it. Secrets shorter than 8 characters are
 * left alone (they would match ordinary words).
 */
export function withoutSecrets(model: Model, secrets: readonly (string | undefined)[]): Model {
  const hidden = secrets.filter((secret): secret is string => secret !== undefined && secret.length >= 8);
  if (hidden.length === 0) return model;
  const clean = (error: unknown): unknown => {
    const message = error instanceof Error ? error.message : String(error);
    const hint = AgentctxError.isInstance(error) ? error.hint : undefined;
    if (!hidden.some((secret) => message.includes(secret) || (hint?.includes(secret) ?? false))) return error;
    const redact = (text: string) => hidden.reduce((result, secret) => result.split(secret).join(REDACTED), text);
    // A new error, so neither its stack nor its cause still quotes the key.
    return new ModelError({
      provider: error instanceof ModelError ? error.provider : model.provider,
      message: redact(error instanceof ModelError ? message.replace(`${error.provider}${error.status === undefined ? '' : ` ${error.status}`}: `, '') : message),
      status: error instanceof ModelError ? error.status : undefined,
      retryable: error instanceof ModelError ? error.retryable : false,
      retryAfterSeconds: error instanceof ModelError ? error.retryAfterSeconds : undefined,
      hint: hint === undefined ? undefined : redact(hint),
    });
  };
  const wrapped: Model = {
    specificationVersion: 'v1',
    provider: model.provider,
    modelId: model.modelId,
    ...(model.pairsCallsById === undefined ? {} : { pairsCallsById: model.pairsCallsById }),
    generate: (request, options) => model.generate(request, options).catch((error: unknown) => Promise.reject(clean(error))),
  };
  if (model.countTokens !== undefined) {
    const count = model.countTokens.bind(model);
    wrapped.countTokens = (request, options) => count(request, options).catch((error: unknown) => Promise.reject(clean(error)));
  }
  if (model.stream !== undefined) {
    const stream = model.stream.bind(model);
    wrapped.stream = async function* (request, options): AsyncGenerator<ModelStreamChunk> {
      try {
        yield* stream(request, options);
      } catch (error) {
        throw clean(error);
      }
    };
  }
  return wrapped;
}
