import type { Content, Part } from '../../contracts/content.js';
import type { Invocation } from '../../contracts/evaluation.js';

// The texts LLM judges read, as ADK 2.5.0's `get_text_from_content` gives them (src/google/adk/evaluation/
// llm_as_judge_utils.py L49–91, commit bb56aa56). Unlike `textOfContent` (response-match.ts), "no text at all" is kept
// apart from "empty text": ADK returns None for no content or no parts, and its prompts print that None.

/** The parts' non-empty texts (thoughts included) joined with newlines; undefined for no content or no parts. */
export function judgeTextOfContent(content: Content | undefined): string | undefined {
  if (content === undefined || content.parts.length === 0) return undefined;
  return textsOf(content.parts).join('\n');
}

/**
 * An invocation's final response text; with `includeIntermediate` (the criterion's
 * `include_intermediate_responses_in_final`), the texts of its intermediate events or responses first, in order, all
 * joined with newlines. Undefined when there is no text.
 */
export function judgeTextOfInvocation(invocation: Invocation, includeIntermediate: boolean): string | undefined {
  if (!includeIntermediate) return judgeTextOfContent(invocation.finalResponse);
  const texts: string[] = [];
  const data = invocation.intermediateData;
  if (data !== undefined && 'invocationEvents' in data) {
    for (const event of data.invocationEvents) {
      const text = judgeTextOfContent(event.content);
      if (text) texts.push(text);
    }
  } else if (data !== undefined) {
    for (const [, parts] of data.intermediateResponses) {
      const text = judgeTextOfContent({ role: 'model', parts });
      if (text) texts.push(text);
    }
  }
  const final = judgeTextOfContent(invocation.finalResponse);
  if (final) texts.push(final);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function textsOf(parts: readonly Part[]): string[] {
  const texts: string[] = [];
  for (const part of parts) if ('text' in part && part.text !== '') texts.push(part.text);
  return texts;
}
