import type { ToolDeclaration } from '../request/request.js';

export const TRANSFER_TO_AGENT = 'transfer_to_agent';

// ADK uses the Python function's raw docstring; this is its text under CPython 3.13+, which dedents docstrings.
const TRANSFER_DESCRIPTION = `Transfer the question to another agent.

This tool hands off control to another agent when it's more suitable to
answer the user's question according to the agent's description.

Note:
  For most use cases, you should use TransferToAgentTool instead of this
  function directly. TransferToAgentTool provides additional enum constraints
  that prevent LLMs from hallucinating invalid agent names.

Args:
  agent_name: the agent name to transfer to.
`;

/** The `transfer_to_agent` declaration; the enum lists the targets in target order, as ADK does. */
export function transferToAgentDeclaration(targetNames: readonly string[]): ToolDeclaration {
  return {
    name: TRANSFER_TO_AGENT,
    description: TRANSFER_DESCRIPTION,
    parameters: {
      type: 'object',
      properties: { agent_name: { type: 'string', enum: [...targetNames] } },
      required: ['agent_name'],
    },
  };
}
