import type { Model, ModelCallOptions, ModelResponse } from '../../contracts/model.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { Source } from '../../contracts/source.js';
import type { LlmRequest } from '../../contracts/request.js';
import { beginSideCall, type EmbedScope } from './embed-call.js';

/** The agent a compaction's summary calls are made and recorded as: comparisons leave them out of the pairing. */
export const SUMMARIZER_AGENT = 'summarizer';

/**
 * `model` with each of its calls recorded in the invocation's call log as a call of `agent`: pending before it is
 * sent, then its answer, usage and wire body, or how it failed; traced and priced like an agent's call. For models an
 * invocation calls beside its agents — a compaction's summarizer — so what was sent, and what it cost, is on record.
 * Every part of such a request is the caller's own (`custom` source, `note` saying what it is).
 */
export function recordedModel(scope: EmbedScope, model: Model, agent: string, note: string): Model {
  const record = async (request: LlmRequest, options: ModelCallOptions | undefined): Promise<ModelResponse> => {
    const source: Source = { kind: 'custom', processor: agent, agent, note };
    const provenance: Provenance = {
      system: request.system === '' ? [] : [{ start: 0, end: request.system.length, source }],
      tools: request.tools.map(() => source),
      messages: request.messages.map((message) => message.content.map(() => source)),
    };
    const pending = await beginSideCall(scope, { agent, model, request, provenance });
    const signal = options?.signal ?? scope.signal;
    try {
      const response = await model.generate.call(model, request, {
        ...options,
        ...(signal === undefined ? {} : { signal }),
        wire: pending.wire,
      });
      await pending.end({
        status: response.errorCode === undefined ? 'answered' : 'failed',
        response,
        ...(response.errorCode === undefined ? {} : { error: response.errorMessage ?? response.errorCode }),
      });
      return response;
    } catch (error) {
      await pending
        .end({
          status: signal?.aborted === true ? 'aborted' : 'failed',
          error: error instanceof Error ? error.message : String(error),
        })
        .catch(() => undefined);
      throw error;
    }
  };
  // What describes the model is kept; only `generate` is offered (a summarizer asks for one whole answer).
  return {
    specificationVersion: model.specificationVersion,
    provider: model.provider,
    modelId: model.modelId,
    ...(model.pairsCallsById === undefined ? {} : { pairsCallsById: model.pairsCallsById }),
    ...(model.billedAs === undefined ? {} : { billedAs: model.billedAs }),
    generate: record,
  };
}
