import type { LlmAgentDefinition } from '../../contracts/agent.js';
import type { Event } from '../../contracts/event.js';
import { parseAnswerText } from './output-schema.js';

/**
 * ADK's final-response rule: a skipped summarization, or an event with no function calls or responses that is
 * complete and does not end with a code execution result.
 */
export function isFinalResponse(event: Event): boolean {
  if (event.actions.skipSummarization === true || (event.longRunningToolIds ?? []).length > 0) return true;
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

/** What the agent's own final answer in an event gives its `outputKey`, and every way it misses its `outputSchema`. */
export type AnswerOutput = { readonly delta: Record<string, unknown>; readonly problems?: readonly string[] };

/**
 * The state delta for an event, with the agent's `outputSchema` applied: the answer's text parsed as JSON (one
 * Markdown code fence around it allowed, as ADK allows it) and checked; the checked value is what `outputKey` keeps.
 * An answer that is not JSON of the schema gives no delta and its problems. An empty final text (the end of a stream)
 * is no answer at all. A `task` agent's answer is left alone (ADK collects it otherwise).
 */
export async function answerOutput(agent: LlmAgentDefinition, event: Event): Promise<AnswerOutput> {
  const schema = agent.outputSchema;
  if (schema === undefined || agent.mode === 'task') return { delta: outputKeyDelta(agent, event) };
  const text = outputKeyDelta({ ...agent, outputKey: 'answer' }, event)['answer'];
  if (text === undefined || text.trim() === '') return { delta: {} };
  const parsed = parseAnswerText(text);
  if (!parsed.ok) return { delta: {}, problems: [parsed.problem] };
  const checked = await schema.check(parsed.value);
  if (!checked.ok) return { delta: {}, problems: checked.problems };
  return { delta: agent.outputKey === undefined ? {} : { [agent.outputKey]: checked.value } };
}
