import { ValidationError } from '../../contracts/errors/validation-error.js';
import type { EmbedOptions, EmbedResponse, Model } from '../../contracts/model.js';
import type { Provenance } from '../../contracts/provenance.js';
import type { LlmRequest } from '../../contracts/request.js';
import type { Telemetry, TelemetrySpan } from '../../contracts/telemetry.js';
import type { CallPricer } from '../telemetry/genai-attributes.js';
import { calledModel, PendingCall, type CallLog } from './call-log.js';

/** What of its invocation an embedding call needs: where it is recorded and traced, and its clock and signal. */
export type EmbedScope = {
  readonly calls: CallLog;
  readonly invocationId: string;
  /** The agent it is recorded for when the caller names none. */
  readonly agent: string;
  readonly now: () => number;
  readonly telemetry: Telemetry | undefined;
  readonly span: TelemetrySpan | undefined;
  readonly price: CallPricer | undefined;
  readonly signal: AbortSignal | undefined;
};

/** Records a call made beside the agents as pending, in the scope's log and trace, before it is sent. */
export function beginSideCall(
  scope: EmbedScope,
  call: { agent: string; model: Model; request: LlmRequest; provenance: Provenance; operation?: 'embeddings' },
): Promise<PendingCall> {
  return PendingCall.begin(
    scope.calls,
    scope.now,
    {
      invocationId: scope.invocationId,
      agent: call.agent,
      model: calledModel(call.model),
      request: call.request,
      provenance: call.provenance,
      editedByCallback: false,
      ...(call.operation === undefined ? {} : { operation: call.operation }),
    },
    { telemetry: scope.telemetry, parent: scope.span, price: scope.price },
  );
}

/**
 * An embedding call of the invocation, recorded like a model call (operation `embeddings`): pending before it is
 * sent, then answered with its usage and wire record, or failed; its span carries its tokens and cost.
 */
export async function recordedEmbed(
  scope: EmbedScope,
  model: Model,
  texts: readonly string[],
  options: Pick<EmbedOptions, 'dimensions' | 'purpose'> & { agent?: string | undefined },
): Promise<EmbedResponse> {
  if (model.embed === undefined) {
    throw new ValidationError({
      subject: 'embedding call',
      issues: [{ path: 'model', message: `${model.provider}:${model.modelId} cannot embed (it has no embed method)` }],
      hint: 'Use an embedding model of the OpenAI or Gemini adapter.',
    });
  }
  const agent = options.agent ?? scope.agent;
  // The texts as what was asked: one user message, a text part each, each part from the caller.
  const request: LlmRequest = {
    system: '',
    tools: [],
    messages: [{ role: 'user', content: texts.map((text) => ({ text })) }],
    config: { model: model.modelId },
  };
  const provenance: Provenance = {
    system: [],
    tools: [],
    messages: [texts.map(() => ({ kind: 'custom', processor: 'embed', agent, note: 'text to embed' }))],
  };
  const pending = await beginSideCall(scope, { agent, model, request, provenance, operation: 'embeddings' });
  try {
    const answer = await model.embed(texts, {
      signal: scope.signal,
      wire: pending.wire,
      ...(options.dimensions === undefined ? {} : { dimensions: options.dimensions }),
      ...(options.purpose === undefined ? {} : { purpose: options.purpose }),
    });
    await pending.end({ status: 'answered', response: answer.usage === undefined ? {} : { usage: answer.usage } });
    return answer;
  } catch (error) {
    await pending
      .end({
        status: scope.signal?.aborted === true ? 'aborted' : 'failed',
        error: error instanceof Error ? error.message : String(error),
      })
      .catch(() => undefined);
    throw error;
  }
}
