import type { RequestDraft } from '../request/draft.js';
import { defineProcessor, type Processor } from '../request/processor.js';
import { embedFormatter } from '../state/template/value-format.js';
import { buildContents, currentTurnEvents, insertInstructionMessages } from './contents/build-contents.js';
import { CONTENTS_PROCESSOR } from './contents/work-event.js';

export { CONTENTS_PROCESSOR };

/**
 * The conversation: the session's events as messages (all of them, or the current turn for `includeContents: 'none'`),
 * with any messages added by earlier processors placed before the trailing user turns.
 */
export const contentsProcessor: Processor = defineProcessor({
  name: CONTENTS_PROCESSOR,
  process(draft, context): RequestDraft {
    const agent = context.agent;
    const events = agent.includeContents === 'none' ? currentTurnEvents(context.events, agent.name, context.branch) : context.events;
    const options = {
      agentName: agent.name,
      branch: context.branch,
      preserveFunctionCallIds: context.preserveFunctionCallIds,
      embed: embedFormatter(context.valueFormat),
      compactionView: context.adkCompatibility ? ('adk' as const) : ('exact' as const),
    };
    // The cache applies to the whole history with a named format; a custom formatter cannot be told apart.
    const cache = agent.includeContents === 'default' && typeof context.valueFormat === 'string' ? context.contentsCache : undefined;
    const history = cache === undefined ? buildContents(events, options) : cache.build(events, options, context.valueFormat as string);
    return { ...draft, messages: insertInstructionMessages(history, draft.messages) };
  },
});
