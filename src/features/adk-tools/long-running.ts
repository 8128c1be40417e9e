import type { Tool } from '../../contracts/tool.js';

// ADK's note on a long-running tool's description (tools/long_running_tool.py at 2.5.0).
const LONG_RUNNING_NOTE =
  '\n\nNOTE: This is a long-running operation. Do not call this tool again if it has already returned some intermediate or pending status.';

/** The tool as ADK's `LongRunningFunctionTool` wraps it: its description ending with ADK's note, marked long-running. */
export function longRunningTool(base: Tool): Tool {
  const description =
    base.description === '' ? LONG_RUNNING_NOTE.trimStart() : `${base.description}${LONG_RUNNING_NOTE}`;
  return Object.freeze({ ...base, description, longRunning: true });
}

/**
 * ADK's `get_user_choice` (tools/get_user_choice_tool.py at 2.5.0): the model offers options and the person picks one,
 * later, from the client. Declared as ADK 2.5.0 declares it (pydantic's schema of `options: list[str]`); it returns
 * nothing, so the run pauses until the person's choice arrives as the call's function response.
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
  execute: () => undefined,
});
