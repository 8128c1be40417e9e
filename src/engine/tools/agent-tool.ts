import type { AgentDefinition } from '../../contracts/agent.js';
import type { Tool } from '../../contracts/tool.js';
import { checkToolName } from './tool.js';

/**
 * An agent offered to another agent as a tool: the model calls it with a `request`, the agent runs on its own
 * (a fresh session seeded with the caller's state) and its final answer comes back as `{ result }`. Its
 * description is the tool's description, so write it for the calling model.
 */
export function agentTool(agent: AgentDefinition, options: { skipSummarization?: boolean } = {}): Tool {
  checkToolName(agent.name);
  return Object.freeze({
    name: agent.name,
    description: agent.description,
    parameters: { type: 'object', properties: { request: { type: 'string' } }, required: ['request'] },
    agent,
    ...(options.skipSummarization === true ? { skipSummarization: true } : {}),
  });
}
