import type { Processor } from '../../contracts/agent.js';
import type { RequestDraft } from '../../contracts/draft.js';
import { draftMessage } from '../../engine/assembly/draft.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';

export const FINALIZE_PROCESSOR = 'finalize';

export const EMPTY_CONTENTS_TEXT = 'Handle the requests as specified in the System Instruction.';
export const CONTINUE_TEXT =
  'Continue processing previous requests as instructed. Exit or provide a summary if no more outputs are needed.';

/**
 * Makes the request end with a user turn, as ADK's model layer does: an empty history gets a request to follow the
 * system text, a history ending with the model gets a request to continue. Providers reject other shapes.
 */
export const finalizeProcessor: Processor = defineProcessor({
  name: FINALIZE_PROCESSOR,
  process(draft, context): RequestDraft {
    const last = draft.messages.at(-1);
    if (last !== undefined && last.message.role === 'user') return draft;
    const text = last === undefined ? EMPTY_CONTENTS_TEXT : CONTINUE_TEXT;
    const source = {
      kind: 'finalize' as const,
      processor: FINALIZE_PROCESSOR,
      agent: context.agent.name,
      note: 'added so the request ends with a user turn',
    };
    return { ...draft, messages: [...draft.messages, draftMessage('user', [{ text }], source)] };
  },
});
