import type { Tool } from '../../contracts/tool.js';
import { exitLoopTool } from './exit-loop.js';
import { getUserChoiceTool } from './long-running.js';

/** ADK's function tools an agent file may name without a module, by their ADK name. */
export const ADK_FUNCTION_TOOLS: Readonly<Record<string, Tool>> = Object.freeze({
  exit_loop: exitLoopTool,
  get_user_choice: getUserChoiceTool,
});
