import type { ToolContext } from '../../contracts/contexts.js';
import type { Tool } from '../../contracts/tool.js';

/**
 * ADK's `exit_loop` (tools/exit_loop_tool.py at 2.5.0): ends the loop around the agent that calls it. It escalates,
 * which ends the agent's turn and the loop agent's iterations, and skips summarization, so the agent is not asked to
 * phrase the result. Declared as ADK declares it: the function's cleaned docstring, and no parameters (its only one is
 * the tool context).
 */
export const exitLoopTool: Tool = Object.freeze({
  name: 'exit_loop',
  description: 'Exits the loop.\n\nCall this function only when you are instructed to do so.',
  execute(_args: Record<string, unknown>, context: ToolContext) {
    context.actions.escalate = true;
    context.actions.skipSummarization = true;
    // The function returns None, which ADK sends as { result: None }.
    return { result: null };
  },
});
