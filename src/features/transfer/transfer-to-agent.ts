import type { ToolContext } from '../../contracts/contexts.js';
import type { Event } from '../../contracts/event.js';
import type { ToolDeclaration } from '../../contracts/request.js';
import type { Tool } from '../../contracts/tool.js';

export const TRANSFER_TO_AGENT = 'transfer_to_agent';

// ADK 2.5.0's description: the docstring of its `transfer_to_agent` function (tools/transfer_to_agent_tool.py), cleaned
// as `inspect.cleandoc` cleans it, so it is the same on every Python version.
const TRANSFER_DESCRIPTION = `Transfer the query to another agent.

Use this tool to hand off control to another agent that is more suitable to
answer the user's query according to the agent's description.

Args:
  agent_name: the agent name to transfer to.`;

/**
 * The `transfer_to_agent` declaration; the enum lists the targets in target order, as ADK does. With `titles`, the
 * schema is written as ADK 2.5.0 writes it (pydantic's JSON Schema of the function's parameters: a `title` for the
 * parameter and for the whole, in pydantic's key order), which the `adk` profile asks for.
 */
export function transferToAgentDeclaration(
  targetNames: readonly string[],
  options: { titles?: boolean } = {},
): ToolDeclaration {
  const parameters =
    options.titles === true
      ? {
          properties: { agent_name: { title: 'Agent Name', type: 'string', enum: [...targetNames] } },
          required: ['agent_name'],
          title: `${TRANSFER_TO_AGENT}Params`,
          type: 'object',
        }
      : {
          type: 'object',
          properties: { agent_name: { type: 'string', enum: [...targetNames] } },
          required: ['agent_name'],
        };
  return { name: TRANSFER_TO_AGENT, description: TRANSFER_DESCRIPTION, parameters };
}

/** Unreachable targets the model may ask for in one invocation before it is stopped instead of looping. */
export const MAX_REFUSED_TRANSFERS = 3;

/**
 * What runs when the model calls `transfer_to_agent`: a target the transfer text offered moves the conversation
 * there (`actions.transferToAgent`); anything else is an error the model can correct. `refusedBefore` counts the
 * refusals earlier in the invocation; the one that reaches `MAX_REFUSED_TRANSFERS` ends it.
 */
export function transferToAgentTool(from: string, targets: readonly string[], refusedBefore: number): Tool {
  // Refusals by call id: a write retried after a conflict answers the same calls again, and must not count them twice.
  const refused = new Set<string | undefined>();
  // With no targets the tool is never declared, only kept to answer a model that calls it anyway.
  const declaration =
    targets.length === 0 ? { name: TRANSFER_TO_AGENT, description: '' } : transferToAgentDeclaration(targets);
  return Object.freeze({
    ...declaration,
    execute(args: Record<string, unknown>, context: ToolContext) {
      const name = args['agent_name'];
      if (typeof name === 'string' && targets.includes(name)) {
        context.actions.transferToAgent = name;
        return { result: null };
      }
      refused.add(context.functionCallId ?? `#${refused.size}`);
      const count = refusedBefore + refused.size;
      if (count >= MAX_REFUSED_TRANSFERS) {
        context.actions.endInvocation = {
          code: 'transfer_failed',
          message: `The model asked ${count} times to transfer to an agent it cannot reach; the invocation was stopped instead of looping.`,
        };
      }
      const offered =
        targets.length === 0
          ? 'This agent cannot transfer to any agent.'
          : `You can transfer to: ${targets.join(', ')}.`;
      return {
        error: `Cannot transfer to ${JSON.stringify(name ?? null)}: no such agent is reachable from ${from}. ${offered}`,
      };
    },
  });
}

/**
 * How many transfers this invocation's events show refused (an error answered a `transfer_to_agent` call). An
 * invocation's events end the history, so the scan stops at the first event of another one.
 */
export function refusedTransfers(events: readonly Event[], invocationId: string): number {
  let count = 0;
  for (let index = events.length - 1; index >= 0; index--) {
    const event = events[index] as Event;
    if (event.invocationId !== invocationId) break;
    for (const part of event.content?.parts ?? []) {
      if (
        'functionResponse' in part &&
        part.functionResponse.name === TRANSFER_TO_AGENT &&
        part.functionResponse.response?.['error'] !== undefined
      )
        count++;
    }
  }
  return count;
}
