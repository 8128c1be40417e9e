import type { FunctionCall, FunctionResponse } from '../../contracts/content.js';
import type { AppDetails, IntermediateData, InvocationEvents } from '../../contracts/evaluation.js';
import { ValidationError } from '../../contracts/errors/validation-error.js';
import { PyFloat, type PyJson, pydanticJson, pythonFloatRepr } from './pydantic-json.js';
import { allToolCallsWithResponses } from './tool-calls.js';

// What ADK 2.5.0's judge prompts show of an agent besides its texts: its instructions, its tools, its tool calls
// (src/google/adk/evaluation/llm_as_judge_utils.py L120–191, app_details.py L57–69, and the `json.dumps` of
// hallucinations_v1.py L471–492), commit bb56aa56. Each is JSON as ADK writes it, byte for byte, since the judge reads
// it: pydantic's `model_dump_json(indent=2)` for the first two, Python's `json.dumps(indent=2)` for the third.

/** `AppDetails.get_developer_instructions`: the agent's instructions; ADK's ValueError for an agent it does not have. */
export function developerInstructions(app: AppDetails, agentName: string): string {
  const details = Object.hasOwn(app.agentDetails, agentName) ? app.agentDetails[agentName] : undefined;
  if (details === undefined)
    throw new ValidationError({
      subject: 'app details',
      issues: [{ path: agentName, message: `\`${agentName}\` not found in the agentic system.` }],
    });
  return details.instructions;
}

/**
 * `get_tool_declarations_as_json_str` (L126–141): `{"tool_declarations": {agent: [declarations]}}` as pydantic writes
 * it. The declarations are `list[Any]`, so they are written as they are held (pydantic's exclusions do not reach into
 * them), keyed by the agent's key in `agent_details`.
 */
export function toolDeclarationsJson(app: AppDetails): string {
  const byAgent: { [key: string]: PyJson } = {};
  for (const [key, details] of Object.entries(app.agentDetails)) byAgent[key] = details.toolDeclarations as PyJson[];
  return pydanticJson({ tool_declarations: byAgent });
}

/**
 * `get_tool_calls_and_responses_as_json_str` (L158–191): each tool call with its step and the response of the same
 * id (`"None"` when there is none), as pydantic writes them without unset or null fields; "No intermediate steps were
 * taken." when there is no call.
 */
export function toolCallsAndResponsesJson(data: IntermediateData | InvocationEvents | undefined): string {
  const pairs = allToolCallsWithResponses(data);
  if (pairs.length === 0) return 'No intermediate steps were taken.';
  return pydanticJson({
    tool_calls_and_response: pairs.map(([call, response], step) => ({
      step,
      tool_call: functionCallFields(call),
      tool_response: response === undefined ? 'None' : functionResponseFields(response),
    })),
  });
}

/** A genai `FunctionCall`'s set fields in its declared order (`id`, `args`, `name`): `model_dump(exclude_none=True)`. */
export function functionCallFields(call: FunctionCall): { [key: string]: PyJson } {
  return {
    ...(call.id === undefined ? {} : { id: call.id }),
    ...(call.args === undefined ? {} : { args: call.args as PyJson }),
    name: call.name,
  };
}

/** A genai `FunctionResponse`'s set fields in its declared order (`id`, `name`, `response`). */
export function functionResponseFields(response: FunctionResponse): { [key: string]: PyJson } {
  return {
    ...(response.id === undefined ? {} : { id: response.id }),
    name: response.name,
    ...(response.response === undefined ? {} : { response: response.response as PyJson }),
  };
}

/**
 * Python's `json.dumps(value, indent=2)`: `": "` and `","` with newlines and two-space indents, `[]` and `{}` for
 * empty containers, every character outside printable ASCII escaped as `\uXXXX` (`ensure_ascii`), a float in
 * Python's `repr` (an integral number is taken for an int, as the JSON it came from cannot tell).
 */
export function pythonJsonDumps(value: PyJson, indent = ''): string {
  if (value === null) return 'null';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'NaN';
    if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
    return Number.isInteger(value) ? BigInt(value).toString() : pythonFloatRepr(value);
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return asciiOnly(JSON.stringify(value));
  if (value instanceof PyFloat)
    return Number.isFinite(value.value) ? pythonFloatRepr(value.value) : pythonJsonDumps(value.value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + pythonJsonDumps(item, inner)).join(',\n')}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return '{}';
  const lines = entries.map(
    ([key, item]) => `${inner}${asciiOnly(JSON.stringify(key))}: ${pythonJsonDumps(item, inner)}`,
  );
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

// JSON.stringify already escapes what Python does below U+0020, in the same lowercase form; Python also escapes
// DEL and everything above it, one UTF-16 unit at a time.
function asciiOnly(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
