import type { AgentDefinition } from '../../contracts/agent.js';
import type { ArgsCheck, Tool } from '../../contracts/tool.js';
import type { OutputSchema } from '../../contracts/output-schema.js';
import { checkToolName } from './tool.js';

/**
 * An agent offered to another agent as a tool: the model calls it with a `request`, the agent runs on its own
 * (a fresh session seeded with the caller's state) and its final answer comes back as `{ result }`. Its
 * description is the tool's description, so write it for the calling model. An agent with an `inputSchema` (a
 * workflow: its first agent's) takes that schema's arguments instead, checked before it runs; one with an
 * `outputSchema` (a workflow: its last agent's) answers with the parsed value, as ADK's AgentTool does.
 */
export function agentTool(agent: AgentDefinition, options: { skipSummarization?: boolean } = {}): Tool {
  checkToolName(agent.name);
  const input = inputSchemaOf(agent);
  return Object.freeze({
    name: agent.name,
    description: agent.description,
    parameters:
      input === undefined
        ? { type: 'object', properties: { request: { type: 'string' } }, required: ['request'] }
        : input.jsonSchema,
    ...(input === undefined
      ? {}
      : {
          async checkArgs(args: Record<string, unknown>): Promise<ArgsCheck> {
            const checked = await input.check(args);
            return checked.ok
              ? { ok: true, value: checked.value as Record<string, unknown> }
              : { ok: false, issues: [...checked.problems] };
          },
        }),
    agent,
    ...(options.skipSummarization === true ? { skipSummarization: true } : {}),
  });
}

/** ADK's `_get_input_schema`: an LLM agent's own, else its first sub-agent's (a workflow starts with it). */
export function inputSchemaOf(agent: AgentDefinition): OutputSchema | undefined {
  if (agent.kind === 'llm') return agent.inputSchema;
  const first = agent.subAgents[0];
  return first === undefined ? undefined : inputSchemaOf(first);
}
