import { ModelError } from '../../contracts/errors/model-error.js';
import type { ModelResponse } from '../../contracts/model.js';
import { fromResponsesResponse } from './from-responses-response.js';
import type { ResponsesOutputItem, ResponsesResponse, ResponsesStreamEvent, ResponsesUsage } from './responses-wire.js';

/** Puts a streamed response back together, event by event. */
export type ResponsesStreamAssembler = {
  /**
   * Takes an event; returns the answer text it adds (empty when it adds none). An `error` event or a failed response
   * throws a ModelError in the provider's words.
   */
  add(event: ResponsesStreamEvent): string;
  /** The whole response, equal to what the same answer non-streamed gives; throws if the stream never completed. */
  finish(): ModelResponse;
  /** The usage as the provider sent it (with the terminal event), for the wire record. */
  usage(): ResponsesUsage | undefined;
};

// The events that end a response; anything after them is not read.
const TERMINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * Reads the events a response streams: `response.output_text.delta` for the text shown as it comes,
 * `response.output_item.done` for each finished item (a reasoning item's encrypted content arrives only there and in
 * the terminal event), `response.completed` / `response.incomplete` / `response.failed` for the whole response and
 * its usage, and `error`. Reasoning summary, argument and content-part deltas need no reading: the finished items
 * hold them whole.
 */
export function createResponsesStreamAssembler(provider: string): ResponsesStreamAssembler {
  const done = new Map<number, ResponsesOutputItem>();
  let terminal: ResponsesResponse | undefined;
  return {
    add(event) {
      if (terminal !== undefined) return '';
      switch (event.type) {
        case 'response.output_text.delta':
          return event.delta ?? '';
        case 'response.output_item.done':
          if (event.item !== undefined) done.set(event.output_index ?? done.size, event.item);
          return '';
        case 'error':
          throw streamError(provider, event.code, event.message);
        default:
          if (TERMINAL.has(event.type)) {
            terminal = event.response ?? {};
            if (terminal.status === 'failed')
              throw streamError(provider, terminal.error?.code, terminal.error?.message);
          }
          return '';
      }
    },
    finish() {
      if (terminal === undefined)
        throw new ModelError({
          provider,
          message: 'the stream ended before the response was complete',
          retryable: true,
        });
      // The terminal event carries every item; a server that leaves them out there sent each one as it finished.
      const output = terminal.output ?? [];
      const items = output.length > 0 ? output : [...done.entries()].sort(([a], [b]) => a - b).map(([, item]) => item);
      return fromResponsesResponse(terminal, items);
    },
    usage: () => terminal?.usage ?? undefined,
  };
}

// Errors on OpenAI's side (or its rate limits) are worth another try; anything else would fail again.
function streamError(provider: string, code: string | null | undefined, message: string | null | undefined) {
  return new ModelError({
    provider,
    message: message ?? code ?? 'the response failed',
    retryable: /server_error|overloaded|rate_limit/.test(code ?? ''),
  });
}
