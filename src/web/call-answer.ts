import type { Part } from '../contracts/content.js';
import type { ModelCallRecord } from '../contracts/model-call.js';
import { partText, partType, type PartType } from './part-display.js';

/** One part of what the model answered: text (or a thought), a tool call with its arguments as JSON, or other data. */
export type AnswerPartView = {
  type: PartType;
  text: string;
  thought: boolean;
  name: string | null;
  callId: string | null;
};

/** What the model answered, as recorded (before any `afterModel` callback). */
export type ResponseView = {
  role: string | null;
  parts: AnswerPartView[];
  /** The answer's text, thoughts left out. */
  text: string;
  finishReason: string | null;
  errorCode: string | null;
  errorMessage: string | null;
};

/** What went over the wire: the body exactly as sent, and the HTTP exchange around it. */
export type WireView = {
  url: string;
  method: string;
  status: number | null;
  attempts: number;
  usage: unknown;
  body: string;
};

/** How a call ended, beside the request that started it. */
export type CallAnswerView = {
  status: ModelCallRecord['status'];
  model: { provider: string; modelId: string } | null;
  latencyMs: number | null;
  firstTokenMs: number | null;
  usage: ModelCallRecord['usage'] | null;
  error: string | null;
  responseEventId: string | null;
  response: ResponseView | null;
  wire: WireView | null;
};

export function buildCallAnswer(record: ModelCallRecord): CallAnswerView {
  const { response, wire } = record;
  return {
    status: record.status,
    model: record.model ?? null,
    latencyMs: record.latencyMs ?? null,
    firstTokenMs: record.firstTokenMs ?? null,
    usage: record.usage ?? null,
    error: record.error ?? null,
    responseEventId: record.responseEventId ?? null,
    response:
      response === undefined
        ? null
        : {
            role: response.content?.role ?? null,
            parts: (response.content?.parts ?? []).map(answerPart),
            text: (response.content?.parts ?? [])
              .flatMap((part) => ('text' in part && part.thought !== true ? [part.text] : []))
              .join(''),
            finishReason: response.finishReason ?? null,
            errorCode: response.errorCode ?? null,
            errorMessage: response.errorMessage ?? null,
          },
    wire:
      wire === undefined
        ? null
        : {
            url: wire.url,
            method: wire.method,
            status: wire.status ?? null,
            attempts: wire.attempts,
            usage: wire.usage ?? null,
            body: wire.body,
          },
  };
}

function answerPart(part: Part): AnswerPartView {
  const call =
    'functionCall' in part ? part.functionCall : 'functionResponse' in part ? part.functionResponse : undefined;
  return {
    type: partType(part),
    // A tool call is shown by its arguments: its name and id are beside them.
    text: 'functionCall' in part ? JSON.stringify(part.functionCall.args ?? {}, null, 2) : partText(part),
    thought: 'thought' in part && part.thought === true,
    name: call?.name ?? null,
    callId: call?.id ?? null,
  };
}
