import type { Event } from '../contracts/event.js';
import { pausedCalls } from '../engine/runner/paused-calls.js';
import type { Style } from './style.js';

const CONFIRMATION = 'adk_request_confirmation';

/**
 * What a session's person-in-the-loop calls came to, for `inspect --session`: each long-running call and confirmation
 * request, whether it still waits, and who answered it what and when.
 */
export function formatPaused(events: readonly Event[], style: Style): string {
  const waiting = new Set(pausedCalls(events).map((paused) => paused.call.id));
  const lines: string[] = [];
  for (const event of events)
    for (const id of event.longRunningToolIds ?? []) {
      const part = event.content?.parts.find((each) => 'functionCall' in each && each.functionCall.id === id);
      if (part === undefined || !('functionCall' in part)) continue;
      const call = part.functionCall;
      const original = call.args?.['originalFunctionCall'] as { name?: string } | undefined;
      const what = call.name === CONFIRMATION ? `confirmation of ${original?.name ?? 'a call'}` : call.name;
      if (waiting.has(id)) {
        lines.push(
          `  ${style.yellow('⏸ waiting')}  ${what} (call ${id}), asked by ${event.author} at ${time(event.timestamp)}`,
        );
        continue;
      }
      const answer = answerTo(events, id);
      lines.push(
        `  ✓ answered  ${what} (call ${id}) by ${answer?.event.author ?? 'user'} at ${answer === undefined ? '?' : time(answer.event.timestamp)}: ${JSON.stringify(answer?.response ?? {})}`,
      );
    }
  return lines.length === 0 ? '' : `A person in the loop:\n${lines.join('\n')}\n`;
}

function answerTo(events: readonly Event[], id: string): { event: Event; response: unknown } | undefined {
  for (const event of events) {
    if (event.author !== 'user') continue;
    for (const part of event.content?.parts ?? [])
      if ('functionResponse' in part && part.functionResponse.id === id)
        return { event, response: part.functionResponse.response };
  }
  return undefined;
}

function time(seconds: number): string {
  return new Date(seconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}
