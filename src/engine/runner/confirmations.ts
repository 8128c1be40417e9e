import type { Content, FunctionCall } from '../../contracts/content.js';
import { ConflictError } from '../../contracts/errors/conflict-error.js';
import type { ToolConfirmation } from '../../contracts/contexts.js';
import type { Event } from '../../contracts/event.js';
import type { LlmAgentRun } from './invocation.js';

// ADK's confirmation protocol (flows/llm_flows/functions.py and request_confirmation.py at 2.5.0): a call that needs
// a person's confirmation is asked about with an `adk_request_confirmation` call the client answers; the answer runs
// the original call again, with the person's confirmation in its context.

export const REQUEST_CONFIRMATION = 'adk_request_confirmation';

/**
 * The event asking the client to confirm calls (ADK's `generate_request_confirmation_event`): one
 * `adk_request_confirmation` call per call that asked, naming it and what is asked, each long-running (the run pauses
 * on them). Undefined when no call asked.
 */
export function confirmationRequest(
  run: LlmAgentRun,
  calls: readonly FunctionCall[],
  response: Event,
): Event | undefined {
  const requested = response.actions.requestedToolConfirmations ?? {};
  const settings = run.invocation.settings;
  const parts = Object.entries(requested).flatMap(([id, confirmation]) => {
    const original = calls.find((call) => call.id === id);
    if (original === undefined) return [];
    const call: FunctionCall = {
      id: `${settings.profile.generatedCallIdPrefix}${settings.newId()}`,
      name: REQUEST_CONFIRMATION,
      args: {
        originalFunctionCall: { id, args: original.args ?? {}, name: original.name },
        toolConfirmation: confirmation,
      },
    };
    return [{ functionCall: call }];
  });
  if (parts.length === 0) return undefined;
  return run.invocation.event({
    author: run.node.name,
    ...(run.branch === undefined ? {} : { branch: run.branch }),
    content: { role: 'model', parts },
    longRunningToolIds: parts.map((part) => part.functionCall.id as string),
  });
}

/**
 * The calls a person's answers in the last message confirm or reject, with their answers by call id (ADK's request
 * confirmation processor): the original call of each `adk_request_confirmation` the message answers, unless an
 * earlier message answered that request or a response to the call was stored after this one (it ran already).
 */
export function confirmedCalls(events: readonly Event[]): {
  calls: FunctionCall[];
  confirmations: Map<string, ToolConfirmation>;
  /** Requests the message answers that an earlier message answered already. */
  answeredBefore: string[];
} {
  const none = { calls: [], confirmations: new Map<string, ToolConfirmation>(), answeredBefore: [] };
  const at = events.findLastIndex((event) => event.author === 'user');
  const message = events[at];
  if (message === undefined) return none;
  const answers = new Map<string, ToolConfirmation>();
  for (const part of message.content?.parts ?? [])
    if ('functionResponse' in part && part.functionResponse.name === REQUEST_CONFIRMATION && part.functionResponse.id)
      answers.set(part.functionResponse.id, toolConfirmation(part.functionResponse.response ?? {}));
  // A confirmation answered by an earlier message was acted on then: answering it again runs nothing.
  const answeredBefore: string[] = [];
  for (const event of events.slice(0, at))
    if (event.author === 'user')
      for (const part of event.content?.parts ?? [])
        if (
          'functionResponse' in part &&
          part.functionResponse.id !== undefined &&
          answers.delete(part.functionResponse.id)
        )
          answeredBefore.push(part.functionResponse.id);
  if (answers.size === 0) return { ...none, answeredBefore };
  const calls: FunctionCall[] = [];
  const confirmations = new Map<string, ToolConfirmation>();
  for (const event of events.slice(0, at))
    for (const part of event.content?.parts ?? []) {
      if (!('functionCall' in part) || !answers.has(part.functionCall.id ?? '')) continue;
      const original = part.functionCall.args?.['originalFunctionCall'] as FunctionCall | undefined;
      if (original?.id === undefined || typeof original.name !== 'string') continue;
      calls.push({ id: original.id, name: original.name, args: original.args ?? {} });
      confirmations.set(original.id, answers.get(part.functionCall.id ?? '') as ToolConfirmation);
    }
  const ran = new Set(
    events
      .slice(at + 1)
      .flatMap((event) =>
        (event.content?.parts ?? []).flatMap((part) => ('functionResponse' in part ? [part.functionResponse.id] : [])),
      ),
  );
  const open = calls.filter((call) => !ran.has(call.id));
  return { calls: open, confirmations, answeredBefore };
}

// ADK's `_parse_tool_confirmation`: the answer itself, or ADK's web client's `{ response: "<json>" }` wrapper.
function toolConfirmation(response: Record<string, unknown>): ToolConfirmation {
  let value: Record<string, unknown> = response;
  const keys = Object.keys(response);
  if (keys.length === 1 && keys[0] === 'response' && typeof response['response'] === 'string') {
    try {
      const parsed: unknown = JSON.parse(response['response']);
      if (typeof parsed === 'object' && parsed !== null) value = parsed as Record<string, unknown>;
    } catch {
      // Not JSON: read as no confirmation.
    }
  }
  return {
    hint: typeof value['hint'] === 'string' ? value['hint'] : '',
    confirmed: value['confirmed'] === true,
    ...(value['payload'] === undefined ? {} : { payload: value['payload'] }),
  };
}

/**
 * Refuses, before anything is written, a message that answers a confirmation request an earlier message answered
 * (a retry, a second tab): the call ran or was rejected then. Two answers at the same moment both pass here; the
 * one stored second is refused when its agent resumes.
 */
export function refuseAnsweredAgain(events: readonly Event[], message: Content): void {
  const ids = new Set(
    message.parts.flatMap((part) =>
      'functionResponse' in part && part.functionResponse.name === REQUEST_CONFIRMATION && part.functionResponse.id
        ? [part.functionResponse.id]
        : [],
    ),
  );
  if (ids.size === 0) return;
  const again = events.flatMap((event) =>
    event.author !== 'user'
      ? []
      : (event.content?.parts ?? []).flatMap((part) =>
          'functionResponse' in part && ids.has(part.functionResponse.id ?? '')
            ? [part.functionResponse.id as string]
            : [],
        ),
  );
  if (again.length > 0) throw answeredAlready(again);
}

/** The conflict of a second answer to a confirmation request. */
export function answeredAlready(ids: readonly string[]): ConflictError {
  return new ConflictError({
    code: 'stale_session',
    message: `The confirmation ${ids.join(', ')} was answered already, by an earlier message: the call ran (or was rejected) then, and this answer changes nothing.`,
    hint: 'Load the session again to see how it went.',
  });
}
