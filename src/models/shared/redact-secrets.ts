import { AgentctxError } from '../../contracts/errors/agentctx-error.js';
import { ModelError } from '../../contracts/errors/model-error.js';
import type { Model, ModelStreamChunk } from '../../contracts/model.js';
import { messageOf } from './transport-errors.js';
import { wrapModel } from './wrap-model.js';

const REDACTED = '[redacted]';

/** The text with each secret of 8 characters or more replaced by `[redacted]` (shorter ones would match ordinary words). */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  return hideable(secrets).reduce((result, secret) => result.split(secret).join(REDACTED), text);
}

function hideable(secrets: readonly (string | undefined)[]): string[] {
  return secrets.filter((secret): secret is string => secret !== undefined && secret.length >= 8);
}

/**
 * Model middleware that keeps secrets (the adapter's API key) out of the errors a model throws. Some servers quote
 * the key they were sent in their error message; those messages become stored error events, CLI output and HTTP
 * API answers, so the key is replaced by `[redacted]` before anyone sees it. Secrets shorter than 8 characters are
 * left alone (they would match ordinary words).
 */
export function withoutSecrets(model: Model, secrets: readonly (string | undefined)[]): Model {
  const hidden = hideable(secrets);
  if (hidden.length === 0) return model;
  const redact = (text: string) => redactSecrets(text, hidden);
  const clean = (error: unknown): unknown => {
    const failure = ModelError.isInstance(error) ? error : undefined;
    const message = failure?.providerMessage ?? messageOf(error);
    const hint = AgentctxError.isInstance(error) ? error.hint : undefined;
    if (!hidden.some((secret) => message.includes(secret) || (hint?.includes(secret) ?? false))) return error;
    // A new error, so neither its stack nor its cause still quotes the key.
    return new ModelError({
      provider: failure?.provider ?? model.provider,
      message: redact(message),
      status: failure?.status,
      retryable: failure?.retryable ?? false,
      retryAfterSeconds: failure?.retryAfterSeconds,
      hint: hint === undefined ? undefined : redact(hint),
    });
  };
  const rejectClean = (error: unknown) => Promise.reject(clean(error));
  return wrapModel(model, {
    generate: ({ request, options, next }) => next(request, options).catch(rejectClean),
    countTokens: ({ request, options, next }) => next(request, options).catch(rejectClean),
    embed: ({ texts, options, next }) => next(texts, options).catch(rejectClean),
    async *stream({ request, options, next }): AsyncGenerator<ModelStreamChunk> {
      try {
        yield* next(request, options);
      } catch (error) {
        throw clean(error);
      }
    },
  });
}
