import type { LlmAgentDefinition } from '../../contracts/agent.js';
import type { Event } from '../../contracts/event.js';

/**
 * ADK's final-response rule: a skipped summarization, or an event with no function calls or responses that is
 * complete and does not end with a code execution result.
 */
export function isFinalResponse(event: Event): boolean {
  if (event.actions.skipSummarization === true) return true;
  const parts = event.content?.parts ?? [];
  if (parts.some((part) => 'functionCall' in part || 'functionResponse' in part)) return false;
  if (event.partial === true) return false;
  return !(parts.length > 0 && 'codeExecutionResult' in (parts.at(-1) as object));
}

/**
 * The state delta the agent's `outputKey` adds for an event (spec §9, ADK 2.0): the non-thought texts of the agent's
 * own final response, joined; nothing when the event is not its final answer or carries no text at all.
 */
export function outputKeyDelta(agent: LlmAgentDefinition, event: Event): Record<string, string> {
  if (agent.outputKey === undefined || event.author !== agent.name) return {};
  const parts = event.content?.parts ?? [];
  if (!isFinalResponse(event) || parts.length === 0) return {};
  const texts = parts.filter((part): part is { text: string } => 'text' in part && part.thought !== true);
  if (texts.length === 0) return {};
  return { [agent.outputKey]: texts.map((part) => part.text).join('') };
}
