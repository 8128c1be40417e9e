import type { Tool } from '../../contracts/tool.js';

// ADK's note on a long-running tool's description (tools/long_running_tool.py at 2.5.0).
const LONG_RUNNING_NOTE =
  '\n\nNOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status.';

// ADK's long-running tools (read from agent files, or get_user_choice): `run` and `serve` refuse to start with one
// until their answers can arrive later from the client.
const longRunning = new WeakSet<Tool>();

/** Whether a tool is one of ADK's long-running function tools. */
export function isLongRunningTool(tool: Tool): boolean {
  return longRunning.has(tool);
}

/** The tool as ADK's `LongRunningFunctionTool` wraps it: its description ending with ADK's note, marked long-running. */
export function longRunningTool(base: Tool): Tool {
  const description =
    base.description === '' ? LONG_RUNNING_NOTE.trimStart() : `${base.description}${LONG_RUNNING_NOTE}`;
  const tool: Tool = Object.freeze({ ...base, description });
  longRunning.add(tool);
  return tool;
}

/**
 * ADK's `get_user_choice` (tools/get_user_choice_tool.py at 2.5.0): the model offers options and the person picks one,
 * later, from the client. Declared as ADK 2.5.0 declares it (pydantic's schema of `options: list[str]`); running it
 * waits for the person-in-the-loop feature, so `run` refuses to start with it, as with every long-running tool.
 */
export const getUserChoiceTool: Tool = longRunningTool({
  name: 'get_user_choice',
  description: 'Provides the options to the user and asks them to choose one.',
  parameters: {
    properties: { options: { items: { type: 'string' }, title: 'Options', type: 'array' } },
    required: ['options'],
    title: 'get_user_choiceParams',
    type: 'object',
  },
});
