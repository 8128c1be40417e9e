import type { Extension } from '../../contracts/agent.js';
import type { DraftMessage, RequestDraft } from '../../contracts/draft.js';
import type { Source } from '../../contracts/source.js';
import { draftMessage, withSystemBlock } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { TOOLS_PROCESSOR } from '../tools/tool-declarations.js';
import { memoryProvenance, memoryText } from './memory-text.js';

// ADK's preload_memory (tools/preload_memory_tool.py at 2.5.0): before each model call, the user's memories that match
// the current message are put into the request as <PAST_CONVERSATIONS> text.

export const PRELOAD_MEMORY = 'preload_memory';

/**
 * ADK's `preload_memory`: the memories matching the text of the turn's message (its first part, as ADK 2.5.0 reads
 * it), written as ADK writes them (`Time: …`, then `author: text`). Under the `adk` profile they end the system
 * text, as ADK 2.5.0 puts them (which changes the system text every turn, and with it any prompt cache); under
 * `agentctx` they are a user turn of their own just before the turn's message, after the stable prefix, so a cache
 * of the system text and the history survives them. Each memory's session, event, author and time are in the note
 * of its source. Nothing is added when nothing matches, or without the runner's `memory`.
 */
export function preloadMemory(): Extension {
  const processor = defineProcessor({
    name: PRELOAD_MEMORY,
    async process(draft, context): Promise<RequestDraft> {
      const first = context.userContent?.parts[0];
      const query = first !== undefined && 'text' in first ? first.text : '';
      if (query === '' || context.searchMemory === undefined) return draft;
      let memories;
      try {
        memories = (await context.searchMemory(query)).memories;
      } catch (error) {
        // ADK logs a failed search and goes on without memories; agentctx says so in the request's warnings.
        const why = error instanceof Error ? error.message : String(error);
        return {
          ...draft,
          warnings: [...draft.warnings, `preload_memory: the memory search failed (${why}); no memories were added`],
        };
      }
      const lines = memories.flatMap((memory) => {
        const text = memoryText(memory);
        return [
          ...(memory.timestamp ? [`Time: ${memory.timestamp}`] : []),
          ...(text === '' ? [] : [memory.author ? `${memory.author}: ${text}` : text]),
        ];
      });
      if (lines.length === 0) return draft;
      const block = `The following content is from your previous conversations with the user.\nThey may be useful for answering the user's current query.\n<PAST_CONVERSATIONS>\n${lines.join('\n')}\n</PAST_CONVERSATIONS>\n`;
      const source: Source = {
        kind: 'memory',
        processor: PRELOAD_MEMORY,
        extension: PRELOAD_MEMORY,
        agent: context.agent.name,
        // The cache-miss explainer names it: "memory block changed: preload_memory".
        field: PRELOAD_MEMORY,
        note: `${memories.length} ${memories.length === 1 ? 'memory' : 'memories'} for "${query}"`,
        eventIds: memories.flatMap((memory) => (memory.source?.eventId === undefined ? [] : [memory.source.eventId])),
        // Where each memory came from, as data: inspect and the web inspector give each its own line.
        memories: memories.map(memoryProvenance),
      };
      if (context.profile.name === 'adk') return withSystemBlock(draft, block, source);
      return { ...draft, messages: beforeTheTurn(draft.messages, draftMessage('user', [{ text: block }], source)) };
    },
  });
  return Object.freeze({ name: PRELOAD_MEMORY, processors: [{ processor, after: TOOLS_PROCESSOR }] });
}

// Just before the turn's message (the last user message that is not a tool's response), in every call of the turn:
// a later call of the same turn then extends the earlier one (its tool calls and responses come after the block), so
// the prefix cached by the first call is read by the next. Never between a call and its response.
function beforeTheTurn(messages: readonly DraftMessage[], added: DraftMessage): DraftMessage[] {
  let at = messages.length;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]?.message;
    if (message?.role !== 'user' || message.content.some((part) => 'functionResponse' in part)) continue;
    at = index;
    break;
  }
  return [...messages.slice(0, at), added, ...messages.slice(at)];
}
