import type { Model, ModelCallOptions, ModelMiddleware, ModelMiddlewareCall } from '../../contracts/model.js';
import type { LlmRequest } from '../../contracts/request.js';

/**
 * The model with the middleware around it. What describes the model (`specificationVersion`, `provider`,
 * `modelId`, `pairsCallsById`, `loadsDeferredTools`, `billedAs`) is kept; each method the middleware wraps calls it with the model's own as `next`.
 */
export function wrapModel(model: Model, middleware: ModelMiddleware): Model {
  const wrapped: Model = {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    ...(model.pairsCallsById === undefined ? {} : { pairsCallsById: model.pairsCallsById }),
    ...(model.loadsDeferredTools === undefined ? {} : { loadsDeferredTools: model.loadsDeferredTools }),
    ...(model.billedAs === undefined ? {} : { billedAs: model.billedAs }),
    generate: around(model, model.generate.bind(model), middleware.generate),
  };
  if (model.stream !== undefined) wrapped.stream = around(model, model.stream.bind(model), middleware.stream);
  if (model.countTokens !== undefined)
    wrapped.countTokens = around(model, model.countTokens.bind(model), middleware.countTokens);
  if (model.embed !== undefined) {
    const next = model.embed.bind(model);
    const wrap = middleware.embed;
    wrapped.embed = wrap === undefined ? next : (texts, options) => wrap({ texts, options, next, model });
  }
  return wrapped;
}

type Method<Result> = (request: LlmRequest, options?: ModelCallOptions) => Result;

function around<Result>(
  model: Model,
  next: Method<Result>,
  wrap: ((call: ModelMiddlewareCall<Result>) => Result) | undefined,
): Method<Result> {
  if (wrap === undefined) return next;
  return (request, options) => wrap({ request, options, next, model });
}
