import type { FunctionCall, FunctionResponse, Part, Role } from '../../contracts/content.js';
import type { Event, EventActions } from '../../contracts/event.js';
import type { Source } from '../../contracts/source.js';

/**
 * An event on its way to becoming a message: its parts, each with the source it will carry into the request.
 * Rearranging and merging move parts between these, so sources travel with their parts.
 */
export type WorkEvent = {
  readonly id: string;
  readonly author: string;
  readonly timestamp: number;
  readonly branch: string | undefined;
  readonly invocationId: string;
  readonly role: Role | undefined;
  readonly parts: readonly Part[];
  readonly sources: readonly Source[];
  readonly actions: EventActions;
  /** The event's function calls and responses, found once: several passes ask for them. */
  readonly calls: readonly FunctionCall[];
  readonly responses: readonly FunctionResponse[];
};

export const CONTENTS_PROCESSOR = 'contents';

const NONE: readonly never[] = Object.freeze([]);

export function toWorkEvent(event: Event): WorkEvent {
  const parts = event.content?.parts ?? NONE;
  const source: Source = { kind: 'history', processor: CONTENTS_PROCESSOR, agent: event.author, eventIds: [event.id] };
  return withParts(
    {
      id: event.id,
      author: event.author,
      timestamp: event.timestamp,
      branch: event.branch,
      invocationId: event.invocationId,
      role: event.content?.role,
      actions: event.actions,
    },
    parts,
    new Array<Source>(parts.length).fill(source),
  );
}

/** The event with other parts (and their sources), its calls and responses found again. */
export function withParts(
  event: Omit<WorkEvent, 'parts' | 'sources' | 'calls' | 'responses'>,
  parts: readonly Part[],
  sources: readonly Source[],
): WorkEvent {
  let calls: FunctionCall[] | undefined;
  let responses: FunctionResponse[] | undefined;
  for (const part of parts) {
    if ('functionCall' in part) (calls ??= []).push(part.functionCall);
    else if ('functionResponse' in part) (responses ??= []).push(part.functionResponse);
  }
  // A literal with every field in one order keeps these objects one shape for the engine (spreads do not).
  return {
    id: event.id,
    author: event.author,
    timestamp: event.timestamp,
    branch: event.branch,
    invocationId: event.invocationId,
    role: event.role,
    actions: event.actions,
    parts,
    sources,
    calls: calls ?? NONE,
    responses: responses ?? NONE,
  };
}

export function functionCalls(event: WorkEvent): readonly FunctionCall[] {
  return event.calls;
}

export function functionResponses(event: WorkEvent): readonly FunctionResponse[] {
  return event.responses;
}

export function hasFunctionResponse(event: WorkEvent): boolean {
  return event.responses.length > 0;
}

export function hasFunctionCall(event: WorkEvent): boolean {
  return event.calls.length > 0;
}
