import type {
  ModelCallOutcome,
  ModelCallParent,
  NewModelCall,
  RecordedResponse,
  WireRecord,
} from '../../contracts/model-call.js';
import type { Model, ModelResponse, WireObserver } from '../../contracts/model.js';
import type { ModelCallLog } from '../../contracts/model-call-log.js';
import type { SessionKey } from '../../contracts/session.js';
import type { Telemetry, TelemetrySpan } from '../../contracts/telemetry.js';
import { modelCallAttributes, modelOutcomeAttributes, type CallPricer } from '../telemetry/genai-attributes.js';
import { addAttributes, openSpan } from '../telemetry/spans.js';

/**
 * Where an invocation records its model calls: under its own session, or (for an agent run inside a tool) the session
 * of the run that called the tool, with the tool call it was made for. `log` undefined: recorded nowhere.
 */
/** The model a call names: the one that answered, and the one its usage is billed as when that is another. */
export function calledModel(model: Model): NonNullable<NewModelCall['model']> {
  return {
    provider: model.provider,
    modelId: model.modelId,
    ...(model.billedAs === undefined
      ? {}
      : { billedAs: { provider: model.billedAs.provider, modelId: model.billedAs.modelId } }),
  };
}

export type CallLog = {
  readonly log: ModelCallLog | undefined;
  readonly key: SessionKey;
  readonly parent: ModelCallParent | undefined;
};

/** How a call ended, as the runner tells it. */
export type CallEnding = {
  status: ModelCallOutcome['status'];
  response?: ModelResponse | undefined;
  error?: string | undefined;
  responseEventId?: string | undefined;
};

/**
 * A call recorded `pending` before it is sent; `end` writes how it ended. It watches the wire and the stream on the
 * way, so the record holds the body the adapter sent and the time to the first streamed piece.
 */
export class PendingCall {
  /** Its number in the log; `undefined` when the runner records calls nowhere. */
  readonly index: number | undefined;
  readonly #log: CallLog;
  readonly #now: () => number;
  readonly #started: number;
  readonly #span: TelemetrySpan;
  readonly #model: { provider: string; modelId: string } | undefined;
  readonly #price: CallPricer | undefined;
  #firstTokenMs: number | undefined;
  #wire: WireRecord | undefined;
  #ended = false;

  private constructor(
    log: CallLog,
    index: number | undefined,
    now: () => number,
    started: number,
    span: TelemetrySpan,
    model: { provider: string; modelId: string } | undefined,
    price: CallPricer | undefined,
  ) {
    this.#log = log;
    this.index = index;
    this.#now = now;
    this.#started = started;
    this.#span = span;
    this.#model = model;
    this.#price = price;
  }

  /** Records the call as about to be sent, at the clock's time now, and opens its span (`chat <model>`) under `trace.parent`. */
  static async begin(
    log: CallLog,
    now: () => number,
    call: Omit<NewModelCall, 'timestamp' | 'status' | 'parent'>,
    trace?: { telemetry: Telemetry | undefined; parent: TelemetrySpan | undefined; price?: CallPricer | undefined },
  ): Promise<PendingCall> {
    const started = now();
    const recorded: NewModelCall = { ...call, timestamp: started };
    if (log.parent !== undefined) recorded.parent = log.parent;
    recorded.status = 'pending';
    const { appName, userId, sessionId } = log.key;
    const index =
      log.log === undefined ? undefined : await log.log.recordModelCall({ appName, userId, sessionId, call: recorded });
    const name = `${call.operation ?? 'chat'} ${call.model?.modelId ?? call.request.config.model ?? 'unknown'}`;
    const span = openSpan(trace?.telemetry, name, trace?.parent, () => modelCallAttributes(call, log.key, index));
    return new PendingCall(log, index, now, started, span, call.model, trace?.price);
  }

  /** What the adapter tells of the wire, kept for the record (the last attempt's body, every attempt counted). */
  readonly wire: WireObserver = {
    request: (sent) => {
      this.#wire = { url: sent.url, method: sent.method, body: sent.body, attempts: (this.#wire?.attempts ?? 0) + 1 };
    },
    response: (received) => {
      if (this.#wire === undefined) return;
      this.#wire.status = received.status;
      if (received.usage !== undefined) this.#wire.usage = received.usage;
      else delete this.#wire.usage;
    },
  };

  /** Notes the first streamed piece. */
  firstChunk(): void {
    this.#firstTokenMs ??= this.#elapsed();
  }

  /** Writes the outcome; only the first call counts, so a failure path cannot overwrite an answer. */
  async end(outcome: CallEnding): Promise<void> {
    const written = this.outcome(outcome);
    if (written !== undefined && this.index !== undefined)
      await this.#log.log?.completeModelCall({ ...this.#log.key, index: this.index, outcome: written });
  }

  /**
   * The outcome to write, for a caller that writes it with the answer's event (`appendEvent`'s `completeModelCall`);
   * `undefined` when the call has ended already. Counts as ending the call.
   */
  outcome(outcome: CallEnding): ModelCallOutcome | undefined {
    if (this.#ended) return undefined;
    this.#ended = true;
    const { response } = outcome;
    // Field by field, each only when there is one, in the order of OUTCOME_FIELDS.
    const written: ModelCallOutcome = { status: outcome.status, latencyMs: this.#elapsed() };
    if (this.#firstTokenMs !== undefined) written.firstTokenMs = this.#firstTokenMs;
    if (response !== undefined) written.response = recordedResponse(response);
    if (response?.usage !== undefined) written.usage = response.usage;
    if (outcome.error !== undefined) written.error = outcome.error;
    if (this.#wire !== undefined) written.wire = this.#wire;
    if (outcome.responseEventId !== undefined) written.responseEventId = outcome.responseEventId;
    addAttributes(this.#span, () => modelOutcomeAttributes(this.#model, written, this.#price));
    if (written.status !== 'answered') this.#span.fail(new Error(written.error ?? written.status));
    this.#span.end();
    return written;
  }

  /**
   * Whether the call is recorded under this session in this store (a store that is also the log), so its outcome
   * can go with the session's next event.
   */
  recordedIn(sessions: object, key: SessionKey): boolean {
    const own = this.#log.key;
    return (
      this.index !== undefined &&
      this.#log.log === sessions &&
      own.sessionId === key.sessionId &&
      own.userId === key.userId &&
      own.appName === key.appName
    );
  }

  // Milliseconds on the runner's clock, to the microsecond: the clock is injectable, so records stay deterministic in tests.
  #elapsed(): number {
    return Math.round((this.#now() - this.#started) * 1e6) / 1e3;
  }
}

function recordedResponse(response: ModelResponse): RecordedResponse {
  const recorded: RecordedResponse = {};
  if (response.content !== undefined) recorded.content = response.content;
  if (response.finishReason !== undefined) recorded.finishReason = response.finishReason;
  if (response.errorCode !== undefined) recorded.errorCode = response.errorCode;
  if (response.errorMessage !== undefined) recorded.errorMessage = response.errorMessage;
  if (response.providerMetadata !== undefined) recorded.providerMetadata = response.providerMetadata;
  return recorded;
}
