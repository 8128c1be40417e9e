import type { EventsCompactionConfig } from '../contracts/compaction.js';
import type { AssembledRequest } from '../contracts/provenance.js';
import type { TokenCounter } from '../contracts/tokens.js';
import { countRequestTokens } from '../engine/tokens/count-request-tokens.js';
import { loadTokenCounter } from '../engine/tokens/token-counter.js';
import { promptBeforeCall, type PromptMeasure } from '../features/compaction/measure-prompt.js';
import type { CaseFile } from '../presets/case-file.js';
import { assembleCaseForModel } from './assemble-case.js';
import { previewCompaction, type CompactionPreview, type MeasuredPrompt } from './compaction-preview.js';

/**
 * The compaction a case file's history is due for before the next call of its current agent, under the case's
 * profile, its prompt measured as the runner measures it before a model call, and the request's size before and after
 * (with the extractive summary). Nothing is written.
 */
export async function previewCaseCompaction(
  caseFile: CaseFile,
  config: EventsCompactionConfig,
): Promise<CompactionPreview> {
  const counter = await loadTokenCounter();
  const assembled = await assembleCaseForModel(caseFile);
  const local = requestTokens(assembled, counter);
  return previewCompaction(caseFile.events, config, caseFile.profile, {
    prompt: async () => {
      const measure = await promptBeforeCall(
        caseFile.events,
        assembled,
        caseFile.profile,
        caseFile.currentAgent,
        caseFile.branch,
      );
      return { tokens: measure.tokens, how: howBeforeCall(measure, caseFile.currentAgent) };
    },
    counted: `the request for '${caseFile.currentAgent}' (local o200k count)`,
    tokensBefore: local,
    tokensOf: async (events) =>
      requestTokens(await assembleCaseForModel({ ...caseFile, events: [...events] }), counter),
  });
}

function requestTokens({ request, provenance }: AssembledRequest, counter: TokenCounter): number {
  return countRequestTokens(request, counter, provenance).total;
}

// The measure `promptBeforeCall` took, in words.
function howBeforeCall(measure: PromptMeasure, agent: string): MeasuredPrompt['how'] {
  if (measure.by === 'billed') return 'the latest billed prompt, as ADK takes it';
  if (measure.by === 'estimate') return "ADK's estimate: characters of the conversation / 4";
  return `the larger of the local count of the request for '${agent}' (${measure.local ?? 0}) and the latest billed prompt since the last summary (${measure.billed ?? 'none'})`;
}
