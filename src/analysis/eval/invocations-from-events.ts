import type { Content, Part } from '../../contracts/content.js';
import type { AppDetails, Invocation, InvocationEvent } from '../../contracts/evaluation.js';
import type { Event } from '../../contracts/event.js';
import { isFinalResponse } from '../../engine/agent/output-key.js';

// A run's events as eval invocations: ADK 2.5.0's `EvaluationGenerator.convert_events_to_eval_invocations`
// (src/google/adk/evaluation/evaluation_generator.py L647–718, with `_collect_events_by_invocation_id` L753–765),
// commit bb56aa56. The final-response rule is `Event.is_final_response` (events/event.py L276–301), which the engine's
// `isFinalResponse` implements.

const USER_AUTHOR = 'user';
// An event without an author counts as the agent's (`_DEFAULT_AUTHOR`, L73).
const DEFAULT_AUTHOR = 'agent';

/**
 * One invocation per invocation id, in the order the ids first appear:
 * - the user's content is that of the last event by `user` (any case) with content, and its timestamp the
 *   invocation's; with none, an empty user message and 0;
 * - the final response is the content of the last other event with parts that is a final response;
 * - the intermediate events are the other events with parts of which one part is a call, a response, a non-empty text
 *   or inline data, in order, except the final response's own event unless it makes calls (a skipped summarization of
 *   a tool call is final yet holds the call: ADK's #5410).
 * `appDetailsPerInvocation` gives, by invocation id, the agents each ran (ADK reads them from the model requests).
 */
export function invocationsFromEvents(
  events: readonly Event[],
  appDetailsPerInvocation?: Readonly<Record<string, AppDetails>>,
): Invocation[] {
  const byInvocation = new Map<string, Event[]>();
  for (const event of events) {
    const group = byInvocation.get(event.invocationId);
    if (group === undefined) byInvocation.set(event.invocationId, [event]);
    else group.push(event);
  }
  return [...byInvocation].map(([invocationId, group]) => {
    let userContent: Content = { role: 'user', parts: [] };
    let creationTimestamp = 0;
    let finalEvent: Event | undefined;
    const withParts: Event[] = [];
    for (const event of group) {
      if ((event.author || DEFAULT_AUTHOR).toLowerCase() === USER_AUTHOR) {
        if (event.content !== undefined) {
          userContent = event.content;
          creationTimestamp = event.timestamp;
        }
        continue;
      }
      const parts = event.content?.parts ?? [];
      if (parts.length === 0) continue;
      if (isFinalResponse(event)) finalEvent = event;
      if (parts.some(isKept)) withParts.push(event);
    }
    const invocationEvents: InvocationEvent[] = withParts
      .filter((event) => event !== finalEvent || hasFunctionCalls(event))
      .map((event) => ({ author: event.author, ...(event.content === undefined ? {} : { content: event.content }) }));
    const appDetails =
      appDetailsPerInvocation !== undefined && Object.hasOwn(appDetailsPerInvocation, invocationId)
        ? appDetailsPerInvocation[invocationId]
        : undefined;
    return {
      invocationId,
      userContent,
      ...(finalEvent?.content === undefined ? {} : { finalResponse: finalEvent.content }),
      intermediateData: { invocationEvents },
      creationTimestamp,
      ...(appDetails === undefined ? {} : { appDetails }),
    };
  });
}

// A part that makes its event intermediate data; Python's truthiness: an empty text does not count.
function isKept(part: Part): boolean {
  return (
    'functionCall' in part || 'functionResponse' in part || 'inlineData' in part || ('text' in part && part.text !== '')
  );
}

function hasFunctionCalls(event: Event): boolean {
  return (event.content?.parts ?? []).some((part) => 'functionCall' in part);
}
