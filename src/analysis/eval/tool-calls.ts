import type { FunctionCall, FunctionResponse } from '../../contracts/content.js';
import type { IntermediateData, InvocationEvents } from '../../contracts/evaluation.js';

// The tool calls and responses of an invocation's intermediate data, in either of its forms: ADK 2.5.0's
// `get_all_tool_calls`, `get_all_tool_responses` and `get_all_tool_calls_with_responses` (eval_case.py L184–263).

/** The tool calls, in order: `toolUses`, or every function call part of the events. */
export function allToolCalls(data: IntermediateData | InvocationEvents | undefined): FunctionCall[] {
  if (data === undefined) return [];
  if ('toolUses' in data) return data.toolUses;
  return data.invocationEvents.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) => ('functionCall' in part ? [part.functionCall] : [])),
  );
}

/** The tool responses, in order: `toolResponses`, or every function response part of the events. */
export function allToolResponses(data: IntermediateData | InvocationEvents | undefined): FunctionResponse[] {
  if (data === undefined) return [];
  if ('toolResponses' in data) return data.toolResponses;
  return data.invocationEvents.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) => ('functionResponse' in part ? [part.functionResponse] : [])),
  );
}

/**
 * Each tool call with the response of the same id, if any. As ADK's dict by `id`: of responses sharing an id the
 * last wins, and a call without an id takes the last response without one.
 */
export function allToolCallsWithResponses(
  data: IntermediateData | InvocationEvents | undefined,
): [FunctionCall, FunctionResponse | undefined][] {
  const byId = new Map<string | undefined, FunctionResponse>();
  for (const response of allToolResponses(data)) byId.set(response.id, response);
  return allToolCalls(data).map((call) => [call, byId.get(call.id)]);
}
