import type { FunctionCall } from '../../contracts/content.js';
import type { Event } from '../../contracts/event.js';

/** A call the run paused on: a long-running tool's, or a confirmation request (`adk_request_confirmation`). */
export type PausedCall = { readonly event: Event; readonly call: FunctionCall & { id: string } };

/**
 * The calls a session waits on, oldest first: those its events mark long-running (`longRunningToolIds`) that no later
 * message of the client answers with a function response of the same id (a long-running tool's own pending status
 * does not: the final answer is the client's). The client answers each with a message holding that response; the
 * agent that made the call resumes.
 */
export function pausedCalls(events: readonly Event[]): PausedCall[] {
  const open = new Map<string, PausedCall>();
  for (const event of events) {
    if (event.author === 'user')
      for (const part of event.content?.parts ?? [])
        if ('functionResponse' in part && part.functionResponse.id !== undefined) open.delete(part.functionResponse.id);
    const waiting = new Set(event.longRunningToolIds ?? []);
    if (waiting.size === 0) continue;
    for (const part of event.content?.parts ?? [])
      if ('functionCall' in part && part.functionCall.id !== undefined && waiting.has(part.functionCall.id))
        open.set(part.functionCall.id, { event, call: part.functionCall as FunctionCall & { id: string } });
  }
  return [...open.values()];
}
