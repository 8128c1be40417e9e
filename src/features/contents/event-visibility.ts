import type { Part } from '../../contracts/content.js';
import type { WorkEvent } from './work-event.js';

// Calls and responses of the framework's own protocols (credentials, confirmations) never reach the model.
const FRAMEWORK_FUNCTIONS = new Set(['adk_framework', 'adk_request_credential', 'adk_request_confirmation']);

/** A part the model would not see: a thought, or a part with nothing in it. Function calls and responses are always visible. */
export function isInvisiblePart(part: Part): boolean {
  // Stryker disable next-line ConditionalExpression,LogicalOperator,StringLiteral: a call or response part has no `text`, so the lines below return false too
  if ('functionCall' in part || 'functionResponse' in part) return false;
  if ('text' in part) return part.thought === true || part.text === '';
  return false;
}

/** An event with no content to show. Compaction events never count as empty. */
export function isEmptyEvent(event: WorkEvent): boolean {
  if (event.actions.compaction !== undefined) return false;
  if (event.role === undefined || event.parts.length === 0) return true;
  return event.parts.every(isInvisiblePart);
}

/** ADK's branch rule: an agent sees events of its own branch and of its ancestors, never of children or siblings. */
export function isOnBranch(branch: string | undefined, event: WorkEvent): boolean {
  if (branch === undefined || branch === '' || event.branch === undefined || event.branch === '') return true;
  return branch === event.branch || branch.startsWith(`${event.branch}.`);
}

function isFrameworkEvent(event: WorkEvent): boolean {
  return event.parts.some(
    (part) =>
      ('functionCall' in part && FRAMEWORK_FUNCTIONS.has(part.functionCall.name)) ||
      ('functionResponse' in part && FRAMEWORK_FUNCTIONS.has(part.functionResponse.name)),
  );
}

/** Whether an event belongs in the agent's view of the history (ADK's `_should_include_event_in_context`). */
export function shouldIncludeEvent(branch: string | undefined, event: WorkEvent): boolean {
  return !isEmptyEvent(event) && isOnBranch(branch, event) && !isFrameworkEvent(event);
}

/** Drops rewound invocations: a rewind event hides itself and everything from the first event of the named invocation. */
export function applyRewinds(events: readonly WorkEvent[]): WorkEvent[] {
  const kept: WorkEvent[] = [];
  let i = events.length - 1;
  while (i >= 0) {
    const event = events[i] as WorkEvent;
    const target = event.actions.rewindBeforeInvocationId;
    if (target !== undefined) {
      let first = -1;
      // Stryker disable next-line EqualityOperator: `j <= i` is the same, finding the rewind event itself also resumes at i - 1
      for (let j = 0; j < i; j++) {
        // Stryker disable next-line OptionalChaining: j < i, so events[j] always exists
        if (events[j]?.invocationId === target) {
          first = j;
          break;
        }
      }
      i = first === -1 ? i - 1 : first - 1;
      continue;
    }
    kept.push(event);
    i--;
  }
  return kept.reverse();
}
