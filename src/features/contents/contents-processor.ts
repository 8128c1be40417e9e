import type { Processor } from '../../contracts/agent.js';
import type { RequestDraft } from '../../contracts/draft.js';
import type { MemoKey } from '../../contracts/memo.js';
import { defineProcessor } from '../../engine/pipeline/pipeline.js';
import { embedFormatter } from '../templating/value-format.js';
import { buildContents, currentTurnEvents, insertInstructionMessages } from './build-contents.js';
import { ContentsCache } from './contents-cache.js';
import { CONTENTS_PROCESSOR } from './work-event.js';

export { CONTENTS_PROCESSOR };

/** The messages built from a session's history, kept in the session's memo so the next request builds only new events. */
export const CONTENTS_MEMO: MemoKey<ContentsCache> = Object.freeze({
  name: 'contents',
  create: () => new ContentsCache(),
});

/**
 * The conversation: the session's events as messages (all of them, or the current turn for `includeContents: 'none'`),
 * with any messages added by earlier processors placed before the trailing user turns.
 */
export const contentsProcessor: Processor = defineProcessor({
  name: CONTENTS_PROCESSOR,
  process(draft, context): RequestDraft {
    const agent = context.agent;
    const { valueFormat, summaries, generatedCallIdPrefix, python } = context.profile;
    const events =
      agent.includeContents === 'none' ? currentTurnEvents(context.events, agent.name, context.branch) : context.events;
    const options = {
      agentName: agent.name,
      branch: context.branch,
      preserveFunctionCallIds: context.preserveFunctionCallIds,
      generatedCallIdPrefix,
      embed: embedFormatter(valueFormat, python),
      compactionView: summaries,
      answerAbandonedCalls: summaries === 'exact',
    };
    // The cache applies to the whole history with a named format; a custom formatter cannot be told apart.
    const cached = agent.includeContents === 'default' && typeof valueFormat === 'string';
    const history = cached
      ? context.memo.get(CONTENTS_MEMO).build(events, options, `${valueFormat}:${python ?? ''}`)
      : buildContents(events, options);
    return { ...draft, messages: insertInstructionMessages(history, draft.messages) };
  },
});
