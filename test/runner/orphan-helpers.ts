import { z } from 'zod';
import type { Event } from '../../src/contracts/event.js';
import type { Model } from '../../src/contracts/model.js';
import type { LlmRequest } from '../../src/contracts/request.js';
import { functionTool } from '../../src/engine/tools/function-tool.js';

/** The tool of test/fixtures/orphan-child.mjs, for the process that takes the session over. */
export const note = functionTool({
  name: 'note',
  description: 'Notes a turn.',
  parameters: z.object({ turn: z.number() }),
  execute: ({ turn }) => ({ noted: turn }),
});

/**
 * The child's model, in this process: a `note` call for each user message (`turn N`), then a sentence after the
 * result; the summarizer agent gets a summary. Keeps every request.
 */
export function noteModel(tool = 'note'): Model & { requests: LlmRequest[] } {
  const requests: LlmRequest[] = [];
  return {
    specificationVersion: 'v1',
    provider: 'test',
    modelId: 'note',
    requests,
    async generate(request) {
      requests.push(request);
      const last = request.messages.at(-1)?.content.at(-1);
      if (last !== undefined && 'functionResponse' in last)
        return {
          content: { role: 'model', parts: [{ text: `noted ${JSON.stringify(last.functionResponse.response)}` }] },
        };
      const turn = Number(/turn (\d+)/.exec(JSON.stringify(request.messages.at(-1)?.content ?? []))?.[1] ?? 0);
      return { content: { role: 'model', parts: [{ functionCall: { name: tool, args: { turn } } }] } };
    },
  };
}

/** Calls in a request with no response to them in the next message: what Anthropic and OpenAI refuse. */
export function openCalls(request: LlmRequest): string[] {
  const open: string[] = [];
  request.messages.forEach((message, index) => {
    const next = new Set(
      (request.messages[index + 1]?.content ?? []).flatMap((part) =>
        'functionResponse' in part ? [part.functionResponse.id] : [],
      ),
    );
    for (const part of message.content)
      if ('functionCall' in part && !next.has(part.functionCall.id))
        open.push(part.functionCall.id ?? part.functionCall.name);
  });
  return open;
}

/** The stored responses to one call. */
export function responsesTo(
  events: readonly Event[],
  callId: string,
): { event: Event; response: Record<string, unknown> | undefined }[] {
  return events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      'functionResponse' in part && part.functionResponse.id === callId
        ? [{ event, response: part.functionResponse.response }]
        : [],
    ),
  );
}

/** The model event that made a call. */
export function callEvent(events: readonly Event[], callId: string): Event | undefined {
  return events.find((event) =>
    (event.content?.parts ?? []).some((part) => 'functionCall' in part && part.functionCall.id === callId),
  );
}
